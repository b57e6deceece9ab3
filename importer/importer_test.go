package importer_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/embedded"
	"github.com/binnacle-dev/bn/importer"
	"github.com/binnacle-dev/bn/internal/wine"
	"github.com/binnacle-dev/bn/kdl"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func catalog(t *testing.T) *agents.Catalog {
	src, err := fs.ReadFile(embedded.Agents(), "models.kdl")
	require.NoError(t, err)
	res := config.Decoder{Sections: dialect.All()}.KDL("models.kdl", src)
	require.Empty(t, res.Diags)
	return agents.NewCatalog(res.Models)
}

func write(t *testing.T, path, content string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
}

func plan(t *testing.T, dir string, force bool, paths ...string) *importer.Result {
	t.Helper()
	res, err := importer.Plan(importer.Options{
		Paths: paths, Cwd: dir, Config: filepath.Join(dir, "agents", "config.kdl"), Force: force,
		Registry: dialect.All(), Catalog: catalog(t), Decoder: config.Decoder{Sections: dialect.All()}, Version: kdl.V2,
	})
	require.NoError(t, err)
	return res
}

// decode reads the written config.kdl back as bn does.
func decode(t *testing.T, dir string) (config.Result, string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(dir, "agents", "config.kdl"))
	require.NoError(t, err)
	res := config.Decoder{Sections: dialect.All()}.KDL("config.kdl", src)
	require.Empty(t, res.Diags.Errors(), string(src))
	return res, string(src)
}

// agent resolves the written layer as bn does and returns one agent.
func agent(t *testing.T, dir, name string) agents.Definition {
	t.Helper()
	set := resolver.Load([]resolver.Layer{resolver.DiskLayer(resolver.Project, filepath.Join(dir, "agents"), "agents")}, config.Decoder{Sections: dialect.All()})
	require.NoError(t, set.Fatal())
	a, ok := set.Agent(name)
	require.True(t, ok, "no agent %q", name)
	return a.Definition
}

// An import edits config.kdl node by node: the comments and the KDL
// version of an existing file stay, each agent means what its file meant
// (no tools field: every tool; a list: that list), and each prompt lands
// in prompts/NAME.md.
func TestImportEditsConfigAndKeepsMeaning(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "agents", "config.kdl"), "// our agents (KDL 1.0)\nagent \"mine\" {\n    description \"kept\"\n    hidden true\n    prompt \"p\"\n}\n")
	write(t, filepath.Join(dir, ".claude", "agents", "open.md"), "---\nname: open\ndescription: no tools field\n---\nDo anything.\n")
	write(t, filepath.Join(dir, ".claude", "agents", "narrow.md"), "---\nname: narrow\ndescription: d\ntools: Read, Bash(git diff:*)\nmodel: sonnet\n---\nOnly diff.\n")
	res := plan(t, dir, false, ".claude/agents")
	require.Len(t, res.Imported, 2)
	require.NoError(t, res.Apply())
	assert.True(t, res.Written)

	got, text := decode(t, dir)
	assert.Equal(t, kdl.V1, got.Version, "an existing file keeps its version")
	assert.True(t, strings.HasPrefix(text, "// our agents (KDL 1.0)\nagent \"mine\" {"), text)
	assert.True(t, agent(t, dir, "open").Tools.All, "no tools field is every tool:\n%s", text)
	narrow := agent(t, dir, "narrow").Tools
	assert.False(t, narrow.All)
	assert.True(t, agents.Decide(narrow, agents.ToolPattern{Kind: "shell", Arg: "git diff HEAD", HasArg: true}).Allowed)
	// Claude Code ignores the parentheses of Bash(git diff:*) in an
	// agent's tools and runs any command: so does the imported agent.
	assert.True(t, agents.Decide(narrow, agents.ToolPattern{Kind: "shell", Arg: "rm -rf /", HasArg: true}).Allowed)
	assert.False(t, agents.Decide(narrow, agents.ToolPattern{Kind: "edit"}).Allowed)
	prompt, err := os.ReadFile(filepath.Join(dir, "agents", "prompts", "narrow.md"))
	require.NoError(t, err)
	assert.Equal(t, "Only diff.\n", string(prompt))
}

// Agents the file already defines are skipped with where, unless forced.
func TestImportKeepsExistingAgentsUnlessForced(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "agents", "config.kdl"), "agent open {\n    description old\n    prompt p\n}\n")
	write(t, filepath.Join(dir, ".claude", "agents", "open.md"), "---\nname: open\ndescription: new\n---\nBody.\n")
	res := plan(t, dir, false, ".claude/agents")
	assert.Empty(t, res.Imported)
	require.Len(t, res.Skipped, 1)
	assert.Contains(t, res.Skipped[0].Reason, "config.kdl:1; --force replaces it")

	res = plan(t, dir, true, ".claude/agents")
	require.Len(t, res.Imported, 1)
	require.NoError(t, res.Apply())
	assert.Equal(t, "new", agent(t, dir, "open").Description)
}

// The config.kdl and the prompts are one unit: when a prompt cannot be
// written (a file is where its directory goes), the agent is skipped with
// the reason and config.kdl is left as it was. (emit's tests cover a
// failure part way through the writes.)
func TestImportWritesAllOrNothing(t *testing.T) {
	dir := t.TempDir()
	before := "agent mine {\n    description d\n    prompt p\n}\n"
	write(t, filepath.Join(dir, "agents", "config.kdl"), before)
	write(t, filepath.Join(dir, "agents", "prompts"), "a file where the prompts directory goes")
	write(t, filepath.Join(dir, ".claude", "agents", "open.md"), "---\nname: open\ndescription: d\n---\nBody.\n")
	res := plan(t, dir, false, ".claude/agents")
	assert.Empty(t, res.Imported)
	require.Len(t, res.Skipped, 1)
	assert.Contains(t, res.Skipped[0].Reason, "not a directory")
	require.NoError(t, res.Apply())
	after, err := os.ReadFile(filepath.Join(dir, "agents", "config.kdl"))
	require.NoError(t, err)
	assert.Equal(t, before, string(after))
	assert.False(t, res.Written)
}

// The fidelity report compares meaning: an output whose tools changed is
// below 100% even when the prompt is identical, and says what changed.
func TestFidelityCountsMeaning(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	out := filepath.Join(dir, "out")
	write(t, filepath.Join(src, "same.md"), "---\nname: same\ndescription: d\ntools: Read\n---\nBody.\n")
	write(t, filepath.Join(out, "same.md"), "---\nname: same\ndescription: d\ntools: Read\n---\nBody.\n")
	write(t, filepath.Join(src, "wider.md"), "---\nname: wider\ndescription: d\ntools: Read\n---\nBody.\n")
	write(t, filepath.Join(out, "wider.md"), "---\nname: wider\ndescription: d\n---\nBody.\n")
	claude, _ := dialect.All().Lookup("claude")
	rep, err := importer.Fidelity(importer.FidelityOptions{Source: src, Target: out, Cwd: dir, From: claude, Registry: dialect.All(), Catalog: catalog(t)})
	require.NoError(t, err)
	byAgent := map[string]importer.FileFidelity{}
	for _, f := range rep.Files {
		byAgent[f.Agent] = f
	}
	assert.Equal(t, 100.0, byAgent["same"].Fidelity)
	assert.Less(t, byAgent["wider"].Fidelity, 100.0)
	assert.Contains(t, strings.Join(byAgent["wider"].Fields, "\n"), "tools")
	assert.Less(t, rep.Overall, 100.0)
}

// TestApplyStaysInLayer: a prompts directory swapped for a symlink that
// leads out of the layer after the plan checked it fails the import's
// write; nothing lands outside, and config.kdl is not written.
func TestApplyStaysInLayer(t *testing.T) {
	wine.Skip(t, wine.Symlinks)
	dir, outside := t.TempDir(), t.TempDir()
	write(t, filepath.Join(dir, ".claude", "agents", "a.md"), "---\nname: a\ndescription: d\n---\nDo it.\n")
	res := plan(t, dir, false, ".claude/agents")
	require.Len(t, res.Imported, 1)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "agents"), 0o755))
	if err := os.Symlink(outside, filepath.Join(dir, "agents", "prompts")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	require.Error(t, res.Apply())
	entries, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Empty(t, entries, "nothing is written outside the layer")
	assert.NoFileExists(t, filepath.Join(dir, "agents", "config.kdl"))
}

// TestDiscoverSkips: a file skip names is passed over unread (export has
// read the files it writes); the others are read as before.
func TestDiscoverSkips(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a", "b"} {
		write(t, filepath.Join(dir, ".claude", "agents", name+".md"), "---\nname: "+name+"\ndescription: d\n---\nBody.\n")
	}
	claude, _ := dialect.All().Lookup("claude")
	env := dialect.Env{Cwd: dir, RepoRoot: dir, ProjectOnly: true}
	tests := []struct {
		name string
		skip func(string) bool
		want []string
	}{
		{"none", nil, []string{"a", "b"}},
		{"a", func(p string) bool { return filepath.Base(p) == "a.md" }, []string{"b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, f := range importer.Discover(claude, env, dialect.All(), catalog(t), tt.skip).Agents {
				got = append(got, f.Name)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
