package resolver

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/files"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadAll resolves layers as bn does, with every tool's section.
func loadAll(ls []Layer) *Set { return Load(ls, config.Decoder{Sections: dialect.All()}) }

// layers builds disk layers from file contents, keyed by layer then path.
func layers(t *testing.T, files map[LayerName]map[string]string) []Layer {
	t.Helper()
	out := []Layer{EmbeddedLayer()}
	for _, name := range Names[1:] {
		dir := filepath.Join(t.TempDir(), string(name))
		for rel, content := range files[name] {
			path := filepath.Join(dir, rel)
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		}
		out = append(out, DiskLayer(name, dir, string(name)))
	}
	return out
}

func TestEmbeddedDefaults(t *testing.T) {
	s := loadAll([]Layer{EmbeddedLayer()})
	require.NoError(t, s.Fatal())
	assert.Empty(t, s.Diagnostics(), "the built-in layer must load without warnings")
	assert.Empty(t, s.CheckModels(), "the built-in agents name models the catalog knows")
	assert.Equal(t, []string{"worker", "do", "prd", "buddy", "ask", "free"}, s.Names())
	want := map[string]struct {
		exec agents.Execution
		life agents.Lifecycle
	}{
		"worker": {agents.Container, agents.Stateful}, "do": {agents.Host, agents.Stateful},
		"prd": {agents.Host, agents.Stateless}, "buddy": {agents.Host, agents.Stateful},
		"ask": {agents.Host, agents.Stateless}, "free": {agents.Host, agents.Stateful},
	}
	for name, w := range want {
		a, err := s.Lookup(name)
		require.NoError(t, err)
		assert.Equal(t, w.exec, a.Execution, name)
		assert.Equal(t, w.life, a.Lifecycle, name)
		prompt, err := a.Prompt()
		require.NoError(t, err)
		if w.life == agents.Stateful {
			assert.Contains(t, prompt, "run `bn goodbye`", name)
		} else {
			assert.Contains(t, prompt, "Do NOT run `bn goodbye`", name)
		}
		for _, p := range append(a.Tools.Allow, a.Tools.Deny...) {
			tp, err := agents.ParseToolPattern(p)
			require.NoError(t, err)
			assert.Empty(t, agents.LintToolPattern(tp), "%s: %s", name, p)
		}
	}
	do, _ := s.Lookup("do")
	prompt, _ := do.Prompt()
	assert.Contains(t, prompt, "{description}")
	assert.Equal(t, map[string]string{"description": "the task you are given"}, do.Placeholders)
	assert.Equal(t, "binnacle-do", do.Targets["copilot"].ID)
	assert.Equal(t, "list", do.Tools.Access())
	e, ok := s.Catalog().Lookup(do.Model, "copilot")
	require.True(t, ok, "the built-in model is in the catalog")
	assert.Equal(t, "claude-opus-4-6", e.ID)
	ask, _ := s.Lookup("ask")
	for _, denied := range []string{"write", "edit", "create", "shell(git push)", "shell(git commit)"} {
		assert.Contains(t, ask.Tools.Deny, denied, "ask is read-only")
	}
	assert.NotContains(t, ask.Tools.Allow, "write")
}

func TestMergeRules(t *testing.T) {
	set := loadAll(layers(t, map[LayerName]map[string]string{
		System: {"config.kdl": `agent "ask" {
    model "sys"
    tools {
        allow "shell(make)" "view"
        deny "shell(rm:*)"
    }
    prompt-append "From system."
}
agent "custom" {
    description "A custom agent"
    prompt "Custom prompt."
    tags "x"
}
`},
		Session: {"config.kdl": `agent "ask" {
    tools {
        remove "shell(make)"
    }
    prompt-prepend "From session."
}
`},
		Project: {
			"config.kdl": `agent "ask" {
    description "Project ask"
    tools {
        allow "shell(make)"
    }
}
agent "worker" {
    tools {
        reset
        allow "view"
    }
    prompt "Replaced."
}
`,
			"custom/prompt.md": "Conventional prompt.\n",
		},
	}))
	require.NoError(t, set.Fatal())
	assert.Equal(t, []string{"worker", "do", "prd", "buddy", "ask", "free", "custom"}, set.Names())

	ask, err := set.Lookup("ask")
	require.NoError(t, err)
	assert.Equal(t, "Project ask", ask.Description)
	assert.Equal(t, Project, ask.Provenance().Fields["description"].Layer)
	assert.Equal(t, "sys", ask.Model)
	assert.Equal(t, System, ask.Provenance().Fields["model"].Layer)
	assert.Equal(t, Project, ask.Layer)
	assert.True(t, ask.ToolsMerged)
	// "view" was already allowed: kept once, in its first place; shell(make)
	// was removed in session and added back at the end in project.
	allow := ask.Tools.Allow
	assert.Equal(t, "shell(make)", allow[len(allow)-1])
	assert.Equal(t, 1, count(allow, "view"))
	assert.Equal(t, Project, ask.Provenance().Allow["shell(make)"].Layer)
	assert.Equal(t, "shell(rm:*)", ask.Tools.Deny[len(ask.Tools.Deny)-1])
	prompt, err := ask.Prompt()
	require.NoError(t, err)
	assert.Regexp(t, `^From session\.\n\nYou answer questions(.|\n)*\n\nFrom system\.$`, prompt)
	assert.Len(t, ask.Sources, 4)

	worker, err := set.Lookup("worker")
	require.NoError(t, err)
	assert.Equal(t, agents.Tools{Allow: []string{"view"}}, worker.Tools)
	assert.Equal(t, "list", worker.Tools.Access())
	prompt, _ = worker.Prompt()
	assert.Equal(t, "Replaced.", prompt)

	custom, err := set.Lookup("custom")
	require.NoError(t, err)
	assert.Equal(t, agents.Host, custom.Execution)
	assert.Equal(t, agents.Stateless, custom.Lifecycle)
	prompt, _ = custom.Prompt()
	assert.Equal(t, "Conventional prompt.", prompt, "a higher layer's <name>/prompt.md replaces the prompt")
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

func TestFailClosedAndIsolation(t *testing.T) {
	set := loadAll(layers(t, map[LayerName]map[string]string{
		Project: {"config.kdl": "agent \"ask\" {\n    tools {\n        allow \"x\" = }\n}\n"},
	}))
	require.Error(t, set.Fatal(), "a broken layer fails closed")

	set = loadAll(layers(t, map[LayerName]map[string]string{
		Project: {"config.kdl": "agent \"ask\" {\n    execution \"nowhere\"\n}\n"},
	}))
	require.NoError(t, set.Fatal())
	_, err := set.Lookup("ask")
	assert.ErrorContains(t, err, `agent "ask": execution: "nowhere" is not one of`)
	_, err = set.Lookup("worker")
	assert.NoError(t, err, "one bad agent does not break the others")
}

func TestUnknownAgentSuggests(t *testing.T) {
	set := loadAll([]Layer{EmbeddedLayer()})
	_, err := set.Lookup("wroker")
	assert.EqualError(t, err, `unknown agent "wroker"; available: worker, do, prd, buddy, ask, free (did you mean "worker"?)`)
	_, err = set.Lookup("zzzzzzzz")
	assert.EqualError(t, err, `unknown agent "zzzzzzzz"; available: worker, do, prd, buddy, ask, free`)
}

func TestScopes(t *testing.T) {
	p := Paths{SystemDir: "/s", SessionDir: "/x", ProjectDir: "/p"}
	names := func(ls []Layer) []LayerName {
		var out []LayerName
		for _, l := range ls {
			out = append(out, l.Name)
		}
		return out
	}
	assert.Equal(t, Names, names(p.Layers(AllLayers)))
	// The committed scope reads the user's layers for their policies only.
	committed := p.Layers(Committed)
	assert.Equal(t, Names, names(committed))
	for _, l := range committed {
		assert.Equal(t, l.Name == System || l.Name == Session, l.PolicyOnly, l.Name)
	}
	assert.Equal(t, []LayerName{Embedded, System}, names(p.Layers(User)))
}

func TestToolAccessStates(t *testing.T) {
	set := loadAll(layers(t, map[LayerName]map[string]string{
		Project: {"config.kdl": `agent new-all {
    description "No tools block: every tool"
    prompt "p"
}
agent new-all-deny {
    description "Every tool but shell"
    tools {
        deny shell
    }
    prompt "p"
}
agent new-list {
    description "A list"
    tools {
        allow read grep
    }
    prompt "p"
}
agent new-none {
    description "No tools"
    tools {
        reset
    }
    prompt "p"
}
agent ask {
    tools {
        all
    }
}
agent worker {
    tools {
        allow read
    }
}
`}}))
	require.NoError(t, set.Fatal())
	state := func(name string) agents.Tools {
		a, err := set.Lookup(name)
		require.NoError(t, err)
		return a.Tools
	}
	assert.Equal(t, agents.Tools{All: true}, state("new-all"))
	assert.Equal(t, agents.Tools{All: true, Deny: []string{"shell"}}, state("new-all-deny"))
	assert.Equal(t, agents.Tools{Allow: []string{"read", "grep"}}, state("new-list"))
	assert.Equal(t, "none", state("new-none").Access())
	ask := state("ask")
	assert.True(t, ask.All, "tools all makes an agent unrestricted")
	assert.Empty(t, ask.Allow)
	assert.Contains(t, ask.Deny, "write", "its denies still apply")
	assert.False(t, state("worker").All, "adding to a list keeps it a list")
	a, _ := set.Agent("ask")
	assert.Equal(t, Project, a.Provenance().Fields["tools.all"].Layer)
}

func TestSectionsAndPlaceholdersMerge(t *testing.T) {
	set := loadAll(layers(t, map[LayerName]map[string]string{
		System: {"config.kdl": `agent do {
    copilot {
        argument-hint "What should I do?"
        target vscode
    }
    claude {
        memory project
    }
}
`},
		Project: {"config.kdl": `agent do {
    copilot {
        target github-copilot
        remove argument-hint
    }
    placeholders {
        description "the job"
    }
}
model "claude-opus-4-6" {
    codex "opus-on-codex"
}
`},
	}))
	require.NoError(t, set.Fatal())
	do, err := set.Lookup("do")
	require.NoError(t, err)
	target, _ := do.Targets["copilot"].Fields.Get("target")
	assert.Equal(t, "github-copilot", target)
	_, hasHint := do.Targets["copilot"].Fields.Get("argument-hint")
	assert.False(t, hasHint, "remove drops an inherited field")
	assert.Equal(t, "binnacle-do", do.Targets["copilot"].ID, "the built-in id stays")
	memory, _ := do.Targets["claude"].Fields.Get("memory")
	assert.Equal(t, "project", memory)
	assert.Equal(t, "the job", do.Placeholders["description"])
	e, _ := set.Catalog().Lookup("claude-opus-4.6", "copilot")
	sp, ok := e.Spelling("codex")
	assert.True(t, ok, "a layer's model entry adds a tool's spelling")
	assert.Equal(t, "opus-on-codex", sp)
	cl, _ := e.Spelling("claude")
	assert.Equal(t, "claude-opus-4-6", cl, "and keeps the others")
}

func TestSectionFieldsAreValidated(t *testing.T) {
	set := loadAll(layers(t, map[LayerName]map[string]string{
		Project: {"config.kdl": `agent do {
    copilot {
        targte vscode
    }
}
agent ask {
    copilot {
        target everywhere
    }
}
agent free {
    claude {
        memory everywhere
    }
}
`}}))
	require.NoError(t, set.Fatal())
	_, err := set.Lookup("do")
	assert.ErrorContains(t, err, `copilot.targte: Copilot has no field "targte"; did you mean "target"?`)
	_, err = set.Lookup("ask")
	assert.ErrorContains(t, err, `copilot.target: expects one of vscode, github-copilot, found everywhere`)
	// Claude Code loads a file whatever its memory says, and ignores a
	// value it does not take: kept, with a warning.
	free, err := set.Lookup("free")
	require.NoError(t, err)
	memory, _ := free.Targets["claude"].Fields.Get("memory")
	assert.Equal(t, "everywhere", memory)
	assert.True(t, slices.ContainsFunc(set.Diagnostics(), func(d agents.Diagnostic) bool {
		return d.Severity == agents.Warning && strings.Contains(d.Message, "found everywhere: Claude Code loads the file and ignores the value")
	}))
}

func TestCacheRereadsOnlyChangedLayers(t *testing.T) {
	ls := layers(t, map[LayerName]map[string]string{Project: {"config.kdl": "agent ask {\n    model one\n}\n"}})
	dir := ls[3].Dir
	settle(t, dir)
	c := NewCache(ls, config.Decoder{Sections: dialect.All()})
	first := c.Set()
	a, _ := first.Lookup("ask")
	assert.Equal(t, "one", a.Model)
	assert.Same(t, first, c.Set(), "nothing changed: the same set")
	require.NoError(t, os.WriteFile(filepath.Join(dir, "config.kdl"), []byte("agent ask {\n    model two\n}\n"), 0o644))
	second := c.Set()
	assert.NotSame(t, first, second)
	a, _ = second.Lookup("ask")
	assert.Equal(t, "two", a.Model)
	// A second edit in the same tick of the file system's clock would
	// leave the same stat: until it settles, the file is read every time.
	assert.NotSame(t, second, c.Set(), "a file changed a moment ago is read again")
	settle(t, dir)
	third := c.Set()
	assert.Same(t, third, c.Set(), "settled, it is kept")

	// The same size and modification time: only the change time tells.
	file := filepath.Join(dir, "config.kdl")
	fi, err := os.Stat(file)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, []byte("agent ask {\n    model six\n}\n"), 0o644))
	require.NoError(t, os.Chtimes(file, fi.ModTime(), fi.ModTime()))
	a, _ = c.Set().Lookup("ask")
	if files.ChangeTimes {
		assert.Equal(t, "six", a.Model, "an edit with its time set back is seen")
	}

	// Directories are listed again only when their stat changes: a file
	// added to a settled one, at the top or further down, is seen.
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "team", "notes"), 0o755))
	settle(t, dir)
	before := c.Set()
	assert.Same(t, before, c.Set())
	require.NoError(t, os.WriteFile(filepath.Join(dir, "team", "notes", "new.txt"), nil, 0o644))
	assert.NotSame(t, before, c.Set(), "a file added two directories down is seen")
	settle(t, dir)
	c.Set()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "helper.md"), []byte("---\nname: helper\ndescription: h\n---\nHelp.\n"), 0o644))
	_, err = c.Set().Lookup("helper")
	assert.NoError(t, err, "an agent file added to the layer is seen")
}

// settle sets the times of everything under dir an hour back, as a layer
// nobody has edited for a while has them.
func settle(t *testing.T, dir string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	require.NoError(t, filepath.WalkDir(dir, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(path, old, old)
	}))
}

// TestDeferredLoadResolvesTheSame loads layers with every agent node's
// decoding deferred, as the commands that resolve one agent do: each
// agent, its provenance and prompt, and every diagnostic must be what a
// whole load gives.
func TestDeferredLoadResolvesTheSame(t *testing.T) {
	ls := layers(t, map[LayerName]map[string]string{
		System: {"config.kdl": "policy {\n    deny \"shell(rm:*)\"\n}\nagent ask {\n    model sys\n    tools {\n        allow \"shell(make)\" view\n    }\n    prompt-append \"From system.\"\n}\n" +
			"agent base {\n    description Base\n    prompt-file base.md\n    tags x\n}\n",
			"base.md": "Base prompt.", "free.md": "---\nname: free\ndescription: Free from a file\n---\nFree prompt.\n"},
		Session: {"config.kdl": "agent ask {\n    tools {\n        remove \"shell(make)\"\n    }\n    prompt-prepend \"From session.\"\n}\n"},
		Project: {"config.kdl": "agent child {\n    extends base\n    model m\n    tools {\n        allow \"shell(rm:-rf)\" grep\n    }\n}\n" +
			"agent broken {\n    description b\n    execution nowhere\n    prompt-file gone.md\n}\n",
			"conv/prompt.md": "Convention prompt."},
	})
	type resolved struct {
		Def                   agents.Definition
		Prompt, PromptErr     string
		Layer                 LayerName
		Source                string
		Sources               []Source
		Diags                 agents.Diagnostics
		Extends               string
		ToolsMerged, Disabled bool
		Prov                  *Provenance
	}
	view := func(dec config.Decoder) (map[string]resolved, agents.Diagnostics, agents.Diagnostics, error) {
		s := Load(ls, dec)
		out := map[string]resolved{}
		for _, name := range s.Names() {
			a, _ := s.Agent(name)
			r := resolved{Def: a.Definition, Layer: a.Layer, Source: a.Source, Sources: a.Sources, Diags: a.Diags, Extends: a.Extends,
				ToolsMerged: a.ToolsMerged, Disabled: a.Disabled, Prov: a.Provenance()}
			var err error
			if r.Prompt, err = a.Prompt(); err != nil {
				r.PromptErr = err.Error()
			}
			out[name] = r
		}
		return out, s.Diagnostics(), s.CheckPrompts(), s.Fatal()
	}
	eager := config.Decoder{Sections: dialect.All()}
	deferred := eager
	deferred.Defer = true
	wantAgents, wantDiags, wantPrompts, wantFatal := view(eager)
	gotAgents, gotDiags, gotPrompts, gotFatal := view(deferred)
	require.NoError(t, wantFatal)
	require.Len(t, wantAgents, 10, "the built-in six (free from a file), base, child, broken and conv")
	require.NotEmpty(t, wantPrompts, "broken names a missing prompt file")
	assert.Equal(t, wantAgents, gotAgents)
	assert.Equal(t, wantDiags, gotDiags)
	assert.Equal(t, wantPrompts, gotPrompts)
	assert.Equal(t, wantFatal, gotFatal)
}

// TestEachResolvesWithoutKeeping: Each lists what Names lists, in order,
// and keeps no resolved agent that nothing else needed.
func TestEachResolvesWithoutKeeping(t *testing.T) {
	ls := layers(t, map[LayerName]map[string]string{
		Project: {"config.kdl": "agent child {\n    extends base\n}\nagent base {\n    description b\n    prompt p\n}\nagent do {\n    disable\n}\nagent broken {\n    execution nowhere\n}\n"},
	})
	s := loadAll(ls)
	var seen []string
	s.Each(func(a *Agent) { seen = append(seen, a.Name) })
	assert.Equal(t, loadAll(ls).Names(), seen)
	assert.NotContains(t, seen, "do", "a disabled agent is not listed")
	assert.Contains(t, seen, "broken", "a broken agent is listed, as Names lists it")
	for _, name := range []string{"worker", "child", "broken"} {
		assert.NotContains(t, s.agents, name, "kept after Each")
	}
	a, err := s.Lookup("child")
	require.NoError(t, err, "an agent asked for after Each is resolved again")
	assert.Equal(t, "b", a.Description)
}

// TestCacheSeesPromptFiles: a prompt file config.kdl names is read afresh
// without reloading the layer; adding, removing or retyping one, a
// config.kdl that stops naming it, and a directory put in the layer's place
// are all seen on the next call.
func TestCacheSeesPromptFiles(t *testing.T) {
	ls := layers(t, map[LayerName]map[string]string{Project: {
		"config.kdl": "agent mine {\n    description d\n    prompt-file mine.md\n}\nagent other {\n    description o\n    prompt-file \"sub/other.md\"\n}\n",
		"mine.md":    "First.", "sub/other.md": "Other.",
	}})
	dir := ls[3].Dir
	settle(t, dir)
	write := func(rel, content string) {
		t.Helper()
		require.NoError(t, os.WriteFile(filepath.Join(dir, rel), []byte(content), 0o644))
	}
	c := NewCache(ls, config.Decoder{Sections: dialect.All()})
	prompt := func(name string) (string, error) {
		t.Helper()
		a, err := c.Set().Lookup(name)
		require.NoError(t, err)
		return a.Prompt()
	}
	first := c.Set()
	got, err := prompt("mine")
	require.NoError(t, err)
	assert.Equal(t, "First.", got)

	write("mine.md", "Second, longer.")
	write("sub/other.md", "Other, edited.")
	assert.Same(t, first, c.Set(), "a prompt edit needs no reload")
	got, _ = prompt("mine")
	assert.Equal(t, "Second, longer.", got)
	got, _ = prompt("other")
	assert.Equal(t, "Other, edited.", got)

	require.NoError(t, os.Remove(filepath.Join(dir, "mine.md")))
	assert.NotSame(t, first, c.Set(), "a removed prompt file is seen")
	_, err = prompt("mine")
	assert.Error(t, err)

	write("mine.md", "---\nname: md-agent\ndescription: from markdown\n---\nBody.")
	write("config.kdl", "agent other {\n    description o\n    prompt-file \"sub/other.md\"\n}\n")
	c.Set()
	_, err = c.Set().Lookup("md-agent")
	assert.NoError(t, err, "a file config.kdl no longer names is an agent file again")

	// A copy of the layer put in its place, every file that is stat'ed
	// alike down to its times: only the directory tells them apart.
	c.Set()
	moved := dir + ".old"
	require.NoError(t, os.Rename(dir, moved))
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "sub"), 0o755))
	write("sub/other.md", "Other, in the new directory.")
	for _, rel := range []string{"config.kdl", "mine.md", "sub"} {
		fi, err := os.Stat(filepath.Join(moved, rel))
		require.NoError(t, err)
		if !fi.IsDir() {
			data, err := os.ReadFile(filepath.Join(moved, rel))
			require.NoError(t, err)
			write(rel, string(data))
		}
		require.NoError(t, os.Chtimes(filepath.Join(dir, rel), fi.ModTime(), fi.ModTime()))
	}
	got, _ = prompt("other")
	assert.Equal(t, "Other, in the new directory.", got, "a directory put in the layer's place is read")
}

// An unknown model warns where it is written, with the nearest name of
// the same version; a model node, in any layer, makes it known.
func TestCheckModels(t *testing.T) {
	for _, tc := range []struct {
		name, kdl, hint string
		known           bool
	}{
		{"typo", `agent a { model sonet; }`, `did you mean "sonnet"?`, false},
		{"case", `agent a { model Sonnet; }`, "", true},
		{"spelling", `agent a { model "anthropic/claude-opus-4-6"; }`, "", true},
		{"version", `agent a { model claude-opus-4-0; }`, `add a model "claude-opus-4-0" node`, false},
		{"model node", "model claude-opus-4-0 {\n claude claude-opus-4-0\n}\nagent a { model claude-opus-4-0; }", "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := loadAll(layers(t, map[LayerName]map[string]string{Project: {"config.kdl": tc.kdl}}))
			d := s.CheckModels()
			if tc.known {
				assert.Empty(t, d)
				return
			}
			require.Len(t, d, 1)
			assert.Equal(t, agents.Warning, d[0].Severity)
			assert.Equal(t, "a", d[0].Agent)
			assert.Equal(t, "model", d[0].Field)
			assert.Equal(t, 1, int(d[0].Pos.Line))
			assert.Contains(t, d[0].Hint, tc.hint)
			if tc.name == "version" {
				assert.NotContains(t, d[0].Hint, "did you mean")
			}
		})
	}
}

// TestManyPatternsMergeOnce: thousands of patterns over three layers, with
// repeats and removes, are kept once each in their first place (a set, so
// a long list does not cost quadratic time on every check).
func TestManyPatternsMergeOnce(t *testing.T) {
	const n = 20000
	quoted := func(from, to int) string {
		var b strings.Builder
		for i := from; i < to; i++ {
			fmt.Fprintf(&b, " \"shell(c%d:*)\"", i)
		}
		return b.String()
	}
	set := loadAll(layers(t, map[LayerName]map[string]string{
		System:  {"config.kdl": "agent many {\n    description d\n    prompt p\n    tools {\n        allow" + quoted(0, n) + "\n        deny" + quoted(0, 10) + "\n    }\n}\n"},
		Session: {"config.kdl": "agent many {\n    tools {\n        remove" + quoted(0, n/2) + "\n        ask" + quoted(n-5, n+5) + "\n    }\n}\n"},
		Project: {"config.kdl": "agent many {\n    tools {\n        allow" + quoted(n/2-5, n) + quoted(0, 5) + "\n    }\n}\n"},
	}))
	require.NoError(t, set.Fatal())
	many, err := set.Lookup("many")
	require.NoError(t, err)
	want := []string{}
	for i := n / 2; i < n+5; i++ {
		want = append(want, fmt.Sprintf("shell(c%d:*)", i))
	}
	for _, i := range []int{n/2 - 5, n/2 - 4, n/2 - 3, n/2 - 2, n/2 - 1, 0, 1, 2, 3, 4} {
		want = append(want, fmt.Sprintf("shell(c%d:*)", i))
	}
	assert.Equal(t, want, many.Tools.Allow)
	assert.Empty(t, many.Tools.Deny, "the denies were removed in the session layer")
	assert.Len(t, many.Tools.Ask, 10)
}

// TestPromptGrownPastTheCap: prompt-append texts, each within the cap,
// that add up past it over extends make the prompt an error, not a
// prompt of any size.
func TestPromptGrownPastTheCap(t *testing.T) {
	chunk := strings.Repeat("x", MaxPromptBytes/3)
	var b strings.Builder
	b.WriteString("agent a0 {\n    description d\n    prompt p\n}\n")
	for i := 1; i <= 4; i++ {
		fmt.Fprintf(&b, "agent a%d {\n    extends a%d\n    prompt-append %q\n}\n", i, i-1, chunk)
	}
	set := loadAll(layers(t, map[LayerName]map[string]string{Project: {"config.kdl": b.String()}}))
	require.NoError(t, set.Fatal())
	for name, fits := range map[string]bool{"a2": true, "a3": false, "a4": false} {
		a, err := set.Lookup(name)
		require.NoError(t, err)
		_, err = a.Prompt()
		if fits {
			assert.NoError(t, err, name)
		} else {
			require.Error(t, err, name)
			assert.Contains(t, err.Error(), "over the 1 MiB a prompt holds", name)
		}
	}
}
