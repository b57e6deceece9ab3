package enforce

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Another name of a file (a hard link) reads and writes that file: a
// deny holds against every name of the file it names, and a write under
// rules limited to paths is refused for a file with more than one name,
// whose other names bn cannot find. A file with one name is decided as
// before.
func TestHardLinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("bn counts a file's names where the system's file information says (unix)")
	}
	root, home := repo(t)
	write := func(rel string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, rel), []byte("x"), 0o644))
	}
	link := func(from, to string) { require.NoError(t, os.Link(filepath.Join(root, from), filepath.Join(root, to))) }
	write(".env")
	write("secrets/deep/k")
	write("README")
	link(".env", "src/env")
	link("secrets/deep/k", "src/k")
	link("README", "src/readme")
	ctx := Context{Root: root, Home: home}
	tools := agents.Tools{Allow: []string{"read", "edit(src/*)", "shell(git diff:*)"}, Deny: []string{"read(.env)", "read(secrets/**)"}}
	for _, tt := range []struct {
		use     string
		allowed bool
		reason  string
	}{
		{"read(src/env)", false, `src/env is another name (a hard link) of .env, and reading or writing one reads or writes the other: deny rule "read(.env)"`},
		{"read(src/k)", false, `src/k is another name (a hard link) of secrets/deep/k, and reading or writing one reads or writes the other: deny rule "read(secrets/**)"`},
		{"read(src/readme)", true, ""},
		{"read(src/a.go)", true, ""},
		{"shell(git diff --no-index src/env x)", false, `names src/env, which is another name (a hard link) of .env, and reading or writing one reads or writes the other; the agent may not read it: deny rule "read(.env)"`},
		{"shell(git diff --no-index src/k x)", false, `names src/k, which is another name (a hard link) of secrets/deep/k, and reading or writing one reads or writes the other; the agent may not read it: deny rule "read(secrets/**)"`},
		{"edit(src/readme)", false, "src/readme has 2 names (hard links), and bn cannot tell where the others are: a write through one changes the file under every name, which rules limited to paths (edit(src/*)) may not allow; give it a name of its own first"},
		{"shell(git diff >> src/readme)", false, "src/readme has 2 names (hard links)"},
		{"edit(src/a.go)", true, ""},
		{"shell(git diff >> src/a.go)", true, ""},
	} {
		use, err := agents.ParseToolPattern(tt.use)
		require.NoError(t, err)
		d := Decide(tools, use, ctx)
		assert.Equal(t, tt.allowed, d.Allowed, "%s: %s", tt.use, d.Reason)
		assert.Contains(t, d.Reason, tt.reason, tt.use)
	}
	// A deny of editing holds against another name too, under an edit
	// allowed whole.
	d := Decide(agents.Tools{Allow: []string{"read", "edit"}, Deny: []string{"edit(README)"}}, agents.ToolPattern{Kind: "edit", Arg: "src/readme", HasArg: true}, ctx)
	assert.False(t, d.Allowed)
	assert.Contains(t, d.Reason, `src/readme is another name (a hard link) of README, and reading or writing one reads or writes the other: deny rule "edit(README)"`)
}

// TestHardLinksPnpm: beside a deny that starts with a pattern, the
// search for a file's other names covers the whole repository, reading
// each directory once and comparing only the names the deny matches: a
// pnpm-like node_modules, every file a hard link into a store outside the
// repository, is read, and a .env linked into it is still found.
func TestHardLinksPnpm(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("bn counts a file's names where the system's file information says (unix)")
	}
	root, home := repo(t)
	store := filepath.Join(t.TempDir(), "store")
	require.NoError(t, os.MkdirAll(store, 0o755))
	for p := range 20 {
		pkg := filepath.Join(root, "node_modules", ".pnpm", fmt.Sprintf("p%d@1.0.0", p), "node_modules", fmt.Sprintf("p%d", p), "lib")
		require.NoError(t, os.MkdirAll(pkg, 0o755))
		for f := range linkBudget/20 + 1 {
			name := fmt.Sprintf("p%d-f%d.js", p, f)
			require.NoError(t, os.WriteFile(filepath.Join(store, name), nil, 0o644))
			require.NoError(t, os.Link(filepath.Join(store, name), filepath.Join(pkg, name)))
		}
	}
	require.NoError(t, os.WriteFile(filepath.Join(root, "node_modules", ".pnpm", "p3@1.0.0", ".env"), []byte("k"), 0o644))
	require.NoError(t, os.Link(filepath.Join(root, "node_modules", ".pnpm", "p3@1.0.0", ".env"), filepath.Join(root, "src", "env")))
	ctx := Context{Root: root, Home: home}
	tools := agents.Tools{Allow: []string{"read", "shell(cat:*)"}, Deny: []string{"read(**/.env)"}}
	for _, tt := range []struct {
		use     string
		allowed bool
		reason  string
	}{
		{"read(node_modules/.pnpm/p7@1.0.0/node_modules/p7/lib/p7-f9.js)", true, ""},
		{"shell(cat node_modules/.pnpm/p19@1.0.0/node_modules/p19/lib/p19-f0.js)", true, ""},
		{"read(src/env)", false, `src/env is another name (a hard link) of node_modules/.pnpm/p3@1.0.0/.env, and reading or writing one reads or writes the other: deny rule "read(**/.env)"`},
	} {
		use, err := agents.ParseToolPattern(tt.use)
		require.NoError(t, err)
		d := Decide(tools, use, ctx)
		assert.Equal(t, tt.allowed, d.Allowed, "%s: %s", tt.use, d.Reason)
		assert.Contains(t, d.Reason, tt.reason, tt.use)
	}
}

// TestHardLinksPastBudget: past the search's bound on directories a file
// with more than one name is refused, saying how to keep the search
// small, and a deny that starts with its directory still decides.
func TestHardLinksPastBudget(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("bn counts a file's names where the system's file information says (unix)")
	}
	root, home := repo(t)
	store := filepath.Join(root, "node_modules", "store")
	for i := range linkBudget + 1 {
		require.NoError(t, os.MkdirAll(filepath.Join(store, fmt.Sprintf("d%d", i)), 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(store, "f0"), nil, 0o644))
	require.NoError(t, os.Link(filepath.Join(store, "f0"), filepath.Join(root, "node_modules", "index.js")))
	ctx := Context{Root: root, Home: home}
	use := agents.ToolPattern{Kind: "read", Arg: "node_modules/index.js", HasArg: true}
	d := Decide(agents.Tools{Allow: []string{"read"}, Deny: []string{"read(**/.env)"}}, use, ctx)
	assert.False(t, d.Allowed)
	assert.Contains(t, d.Reason, `node_modules/index.js has 2 names (hard links), and bn read more than 10000 directories under`)
	assert.Contains(t, d.Reason, `a deny that starts with a directory ("secrets/**", not "**/.env") is looked for only under it`)
	d = Decide(agents.Tools{Allow: []string{"read"}, Deny: []string{"read(secrets/**)"}}, use, ctx)
	assert.True(t, d.Allowed, d.Reason)
}
