package hookrules

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/enforce"
	"github.com/binnacle-dev/bn/internal/wine"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/binnacle-dev/bn/resolver/resolvertest"
	"github.com/binnacle-dev/bn/team"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A rules file is read only whole and as bn wrote it.
func TestDecode(t *testing.T) {
	good := Encode(Rules{Agent: "a", Tool: "claude", Scope: ScopeCommitted, Allow: []string{"read"}, Deny: []string{}}, emit.Marker("bn config agents export --target claude"))
	r, err := Decode(good)
	require.NoError(t, err)
	assert.Equal(t, []string{"read"}, r.Allow)
	body := func(json string) []byte {
		return emit.Seal([]byte(emit.Marker("x") + json + "\n"))
	}
	for _, tt := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", []byte("\n \n"), "is empty"},
		{"no marker", []byte(`{"agent":"a"}`), "does not start with bn's marker line"},
		{"unsealed", []byte(emit.Marker("x") + `{"agent":"a","tool":"claude","scope":"committed","allow":["read"],"deny":[]}` + "\n"), "does not match its digest"},
		{"cut short", good[:len(good)-20], "does not match its digest"},
		{"edited", []byte(strings.Replace(string(good), `"read"`, `"shell"`, 1)), "does not match its digest"},
		{"unknown field", body(`{"agent":"a","tool":"claude","scope":"committed","allow":[],"deny":[],"more":1}`), "does not hold rules bn reads"},
		{"no agent", body(`{"tool":"claude","scope":"committed","allow":[],"deny":[]}`), "does not name its agent, tool and scope"},
		{"bad scope", body(`{"agent":"a","tool":"claude","scope":"mine","allow":[],"deny":[]}`), "does not name its agent, tool and scope"},
		{"bad rule", body(`{"agent":"a","tool":"claude","scope":"committed","allow":["shell("],"deny":[]}`), `holds the rule "shell("`},
	} {
		_, err := Decode(tt.data)
		if assert.Error(t, err, tt.name) {
			assert.Contains(t, err.Error(), tt.want, tt.name)
		}
	}
}

// rewriting sets up a repository whose config.kdl narrows the built-in
// "do" and the rules export would compile for it, and rewrites the
// config.kdl (removed and made again, or truncated and written again)
// until stop is called.
func rewriting(t *testing.T, how string) (Call, func()) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	layer := filepath.Join(root, ".binnacle", "agents")
	require.NoError(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	require.NoError(t, os.MkdirAll(layer, 0o755))
	narrow := "agent do {\n    tools {\n        deny \"shell(git push:*)\"\n    }\n}\n"
	path := filepath.Join(layer, "config.kdl")
	require.NoError(t, os.WriteFile(path, []byte(narrow), 0o644))
	env := map[string]string{"BN_CACHE_DIR": filepath.Join(root, "cache"), "BN_CONFIG_DIR": filepath.Join(root, "config"), "BN_DATA_DIR": filepath.Join(root, "data")}
	p, err := resolver.DiscoverPaths(resolver.PathInputs{Getenv: func(k string) string { return env[k] }, Cwd: root})
	require.NoError(t, err)
	dec := config.Decoder{Sections: dialect.All()}
	load := func(scope resolver.Scope) (*resolver.Set, error) {
		s := p.Load(scope, dec)
		return s, s.Fatal()
	}
	set, err := load(resolver.Committed)
	require.NoError(t, err)
	a, err := set.Lookup("do")
	require.NoError(t, err)
	d, _ := dialect.All().Lookup("claude")
	rules := filepath.Join(root, ".claude", "agents", "do.rules")
	require.NoError(t, os.MkdirAll(filepath.Dir(rules), 0o755))
	require.NoError(t, os.WriteFile(rules, Encode(New(&a.Definition, "claude", resolver.Committed), emit.Marker("x")), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, ".claude", "agents", "do.md"), []byte("the agent file"), 0o644))
	r := resolvertest.Rewrite(path, []byte(narrow), how)
	c := Call{Place: Place{Paths: p, Tool: d.Info()}, Name: "do", Rules: ".claude/agents/do.rules", Load: load}
	return c, func() { r.Stop() }
}

// TestDecideUnderRewrites: while the config.kdl narrowing an agent is
// rewritten, the hook never lets through what the narrowing denies, and
// lets through what it allows whenever the layers are whole.
func TestDecideUnderRewrites(t *testing.T) {
	for _, how := range []string{resolvertest.Remove, resolvertest.Truncate} {
		t.Run(how, func(t *testing.T) {
			c, stop := rewriting(t, how)
			defer stop()
			push := dialect.HookCall{Tool: "Bash", Input: map[string]any{"command": "git push origin main"}}
			status := dialect.HookCall{Tool: "Bash", Input: map[string]any{"command": "git status"}}
			widened, answered := 0, 0
			for i := range 40 {
				time.Sleep(resolvertest.Pace)
				c.Call = push
				if i%2 == 1 {
					c.Call = status
				}
				v := Decide(c)
				if v.Allowed && i%2 == 0 {
					widened++
				}
				if v.Allowed {
					answered++
				}
			}
			assert.Zero(t, widened, "the hook let git push through")
			assert.NotZero(t, answered, "the hook refused even what the rules allow, every time")
			t.Logf("%s: 40 calls, none widened, %d of 20 allowed calls let through", how, answered)
		})
	}
}

// An edit through any path that leads into what defines or enforces the
// agent is refused; a rule naming the guarded path lets it there.
func TestGuard(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	home := filepath.Join(root, "home")
	self := filepath.Join(root, "bin", "bn")
	early := filepath.Join(root, "early")
	for _, d := range []string{filepath.Join(root, ".binnacle", "agents"), filepath.Join(root, "src"), filepath.Dir(self), early, home} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	d, _ := dialect.All().Lookup("claude")
	g := NewGuard(Place{Paths: resolver.Paths{RepoRoot: root, SystemDir: filepath.Join(home, "sys"), SessionDir: filepath.Join(home, "session"), CacheDir: filepath.Join(home, "cache")},
		Home: home, Tool: d.Info(), Self: self, PATH: early + string(os.PathListSeparator) + filepath.Dir(self) + string(os.PathListSeparator) + filepath.Join(root, "late")})
	all := agents.Tools{All: true}
	refused := map[string]string{
		".binnacle/agents/config.kdl":    "the project layer",
		".claude/agents/a.rules":         "Claude Code's files in the repository",
		".mcp.json":                      "Claude Code's files in the repository",
		"home/.claude.json":              "Claude Code's settings in the home directory",
		"home/sys/config.kdl":            "the system layer",
		"home/cache/sources/lock":        "bn's cache of shared sources",
		"bin/bn":                         "bn, which the hook runs",
		"early/bn":                       "a bn earlier on PATH than the one the hook runs",
		"./src/../.claude/settings.json": "Claude Code's files in the repository",
	}
	if runtime.GOOS == "windows" {
		// cmd and PowerShell run bn.cmd for bn (PATHEXT).
		refused["early/bn.cmd"] = "a bn earlier on PATH than the one the hook runs"
		refused["early/BN.EXE"] = "a bn earlier on PATH than the one the hook runs"
	}
	if wine.Running() {
		t.Log(wine.Symlinks)
	} else {
		require.NoError(t, os.Symlink(filepath.Join("..", ".binnacle"), filepath.Join(root, "src", "b")))
		refused["src/b/agents/x.md"] = "the project layer"
	}
	for path, what := range refused {
		assert.Contains(t, g.Refusal(path, root, agents.KindEdit, all), "("+what+")", path)
	}
	for _, path := range []string{"src/main.go", "late/bn", "home/notes.txt", ".claudex"} {
		assert.Empty(t, g.Refusal(path, root, agents.KindEdit, all), path)
	}
	// Every program that writes a file its arguments name is seen
	// writing a bn earlier on PATH, not only cp and dd.
	for _, line := range []string{"cp src/x early/bn", "dd if=src/x of=early/bn", "tee early/bn", "curl -o early/bn https://example.com",
		"wget -O early/bn https://example.com", "wget -qOearly/bn https://example.com", "xxd -r -ps src/x early/bn", "install src/x early/bn", "sort -o early/bn src/x",
		// A FIFO in its place makes whatever reads it wait for ever.
		"mkfifo early/bn", "mknod early/bn p", "find src -fprint early/bn"} {
		d := enforce.Decide(all, agents.ToolPattern{Kind: "shell", Arg: line, HasArg: true}, enforce.Context{Root: root, Home: home})
		assert.Contains(t, g.Writes(d, root, all), "(a bn earlier on PATH than the one the hook runs)", line)
	}
	// go install writes every file of $GOBIN, where bn may be.
	gobin := func(k string) string { return map[string]string{"GOBIN": filepath.Dir(self)}[k] }
	install := enforce.Decide(all, agents.ToolPattern{Kind: "shell", Arg: "go install ./cmd/x", HasArg: true}, enforce.Context{Root: root, Home: home, Getenv: gobin})
	assert.Contains(t, g.Writes(install, root, all), "(bn, which the hook runs): under bn's hook an agent may not change it; build it with go build -o FILE, which writes only the file it names")
	// tar writes its archive (-f, relative to where it starts, whatever
	// -C says), its -g snapshot and its --index-file, by every spelling.
	for _, line := range []string{"tar cf .mcp.json src", "tar -cf .mcp.json src", "tar --create --file=.mcp.json src", "tar --create --fi .mcp.json src",
		"tar -C src -cf .mcp.json x", "tar -g .mcp.json -cf /dev/null src", "tar --listed-incremental=.mcp.json -cf /dev/null src",
		"tar --index-file=.mcp.json -cvf /dev/null src", "bsdtar -cf .mcp.json src"} {
		d := enforce.Decide(all, agents.ToolPattern{Kind: "shell", Arg: line, HasArg: true}, enforce.Context{Root: root, Home: home})
		assert.Contains(t, g.Writes(d, root, all), "(Claude Code's files in the repository)", line)
	}
	// A runner's own output (strace -o, GNU time -o) is a write, and
	// strace -o '|cmd' runs cmd.
	for _, line := range []string{"strace -o .mcp.json git diff", "strace -fo.mcp.json true", "strace --output=.mcp.json true", "strace --out .mcp.json true",
		"strace -o '|touch .mcp.json' true", "strace -o '!cp x .mcp.json' true", "command time -o .mcp.json true", "env time -a --output .mcp.json true",
		"/usr/bin/time -ao .mcp.json true", "nice strace -o .mcp.json true",
		// zip's archive, -O, -lf, -b's temporary archive, what -m removes
		// and the command -TT runs.
		"zip .mcp.json src", "zip -O .mcp.json a.zip src", "zip --out .mcp.json a.zip src", "zip -qlf.mcp.json a.zip src", "zip -b .claude a.zip src",
		"zip -m a.zip .mcp.json", "zip -T -TT 'touch .mcp.json' a.zip src",
		// cpio's archive: -O, -F.
		"find src | cpio -o -O .mcp.json", "cpio -oF.mcp.json < x", "cpio -o --file=.mcp.json < x", "cpio -o --fi .mcp.json < x",
		// gzip's scripts: zless is less; zforce and znew rename, gzexe
		// replaces.
		"zless -o.mcp.json x.gz", "zforce .mcp.json", "znew .claude/agents/a.Z", "gzexe .mcp.json",
		// git init and clone --separate-git-dir make the repository there.
		"git init --separate-git-dir=.claude src/r", "git init --sep=.claude", "git clone --separate-git-dir=.claude https://example.com/r src/r",
		"git clone --separate-git-dir .claude https://example.com/r src/r",
		// tree takes -o's value from the words after its group.
		"tree -Lo 1 .mcp.json", "tree -dLo 2 .mcp.json src", "tree -o.mcp.json",
		// rsync's log and batch files.
		"rsync --log-file=.mcp.json src/ out/", "rsync -a --write-batch .mcp.json src/ out/", "rsync --only-write-batch=.mcp.json src/ out/",
		// mktemp creates under -p's or --tmpdir's directory.
		"mktemp --tmpdir=.claude", "mktemp -p .claude/agents --suffix=.rules aXXXXXX", "mktemp .claude/agents/aXXXXXX",
		// sdiff -o, ssh-keygen -f, tic -o, pandoc -o, exiftool -o and
		// localedef's operand or --prefix.
		"sdiff -o .mcp.json src/a src/a", "sdiff --output=.mcp.json -w 80 src/a src/a", "ssh-keygen -q -t ed25519 -N '' -f .claude/agents/k",
		"tic -o .claude src/x.ti", "tic -s -o.claude src/x.ti", "pandoc -f markdown -o .mcp.json src/a.md", "pandoc src/a.md --output=.mcp.json",
		"exiftool -o .mcp.json src/a.jpg", "exiftool -Comment=x .mcp.json", "localedef -i en_US -f UTF-8 .claude/x",
		"localedef --prefix=.claude -i en_US -f UTF-8 x"} {
		d := enforce.Decide(all, agents.ToolPattern{Kind: "shell", Arg: line, HasArg: true}, enforce.Context{Root: root, Home: home})
		assert.Contains(t, g.Writes(d, root, all), "(Claude Code's files in the repository)", line)
	}
	own := agents.Tools{Allow: []string{"edit(.binnacle/agents/**)", "edit(**)"}}
	assert.Empty(t, g.Refusal(".binnacle/agents/config.kdl", root, agents.KindEdit, own), "a rule naming the layer lets the agent edit it")
	assert.NotEmpty(t, g.Refusal(".binnacle/agents/config.kdl", root, agents.KindCreate, own), "for the kind the rule names only")
	assert.NotEmpty(t, g.Refusal(".claude/agents/a.md", root, agents.KindEdit, own), "edit(**) names no guarded path")
	assert.Equal(t, []string{"edit(.binnacle/agents/**)"}, Exceptions(root, d.Info(), own))
}

// Paths compare without case where the file system ignores it.
func TestWithinFold(t *testing.T) {
	dir := filepath.Join(string(filepath.Separator)+"repo", ".binnacle")
	for _, tt := range []struct {
		p          string
		fold, want bool
	}{
		{filepath.Join(dir, "agents", "config.kdl"), false, true},
		// Windows' filepath.Rel compares without case whatever fold says.
		{filepath.Join(string(filepath.Separator)+"repo", ".BINNACLE", "agents"), false, runtime.GOOS == "windows"},
		{filepath.Join(string(filepath.Separator)+"repo", ".BINNACLE", "agents"), true, true},
		{filepath.Join(string(filepath.Separator)+"Repo", ".Binnacle"), true, true},
		{filepath.Join(string(filepath.Separator)+"repo", ".binnaclex"), true, false},
	} {
		assert.Equal(t, tt.want, withinFold(dir, tt.p, tt.fold), "%s fold=%v", tt.p, tt.fold)
	}
	assert.True(t, enforce.FoldsCase("darwin"))
	assert.True(t, enforce.FoldsCase("windows"))
	assert.False(t, enforce.FoldsCase("linux"))
}

// TestGuardCoversLayers: every directory an export reads its layers from,
// and so every directory export --watch watches, is under guard, with
// the files in it: an agent under the hook cannot change what a watching
// export would write next. The watch holding a widening is the second
// line, for an agent whose own rule names a layer (an exception export
// reports).
func TestGuardCoversLayers(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	p := resolver.Paths{RepoRoot: root, ProjectDir: filepath.Join(root, ".binnacle", "agents"),
		SystemDir: filepath.Join(root, "home", "sys"), SessionDir: filepath.Join(root, "home", "session"), CacheDir: filepath.Join(root, "home", "cache")}
	source := team.LayerDir(p.CacheDir, team.Locked{Commit: strings.Repeat("a", 40), Path: "agents"})
	all := agents.Tools{All: true}
	for _, tool := range dialect.All().Names() {
		d, _ := dialect.All().Lookup(tool)
		if d.Info().Hook == nil {
			continue
		}
		g := NewGuard(Place{Paths: p, Home: filepath.Join(root, "home"), Tool: d.Info()})
		for _, scope := range []resolver.Scope{resolver.AllLayers, resolver.Committed, resolver.User} {
			for _, l := range p.Layers(scope) {
				if l.Dir == "" {
					continue
				}
				for _, f := range []string{"config.kdl", "x.md", team.LockFile, filepath.Join("prompts", "x.md")} {
					assert.NotEmpty(t, g.Refusal(filepath.Join(l.Dir, f), root, agents.KindEdit, all), "%s: %s", tool, filepath.Join(l.Dir, f))
				}
			}
		}
		assert.NotEmpty(t, g.Refusal(filepath.Join(source, "config.kdl"), root, agents.KindEdit, all), "%s: a shared source", tool)
	}
}

// TestGuardFollowsCd: a shell line's writes are guarded where the shell
// would make them, after the cd and pushd before them (into a symlink
// too); a write bn cannot place (after a cd it cannot follow, to a name
// made when the line runs) is refused, and says why.
func TestGuardFollowsCd(t *testing.T) {
	root := t.TempDir()
	refused := map[string]string{
		"cd .claude/agents && cp x a.rules":                           "part of what defines or enforces the agent",
		"cd .binnacle && cat y > agents/config.kdl":                   "part of what defines or enforces the agent (the project layer)",
		"pushd .claude; mv x agents/a.rules":                          "part of what defines or enforces the agent",
		"cd src; cd ../.binnacle/agents; tee config.kdl":              "part of what defines or enforces the agent (the project layer)",
		"cd src && sed -i s/a/b/ ../.binnacle/agents/x.md":            "part of what defines or enforces the agent (the project layer)",
		`cd "$X" && cp y a.rules`:                                     "after a cd bn cannot follow",
		"cd $(echo .claude/agents) && cp y a.rules":                   "after a cd bn cannot follow",
		"cd src; cd -; cd - ; echo x > a.rules":                       "after a cd bn cannot follow",
		`echo x > "$F"`:                                               "not known before the line runs",
		"cd .claude/agents; echo 'unterminated > a.rules":             "bn cannot tell where (the command line does not parse as bash",
		"CDPATH=.claude; cd agents && cp y a.rules":                   "after a cd bn cannot follow",
		"cd -P src/../.claude && echo x > agents/a.rules":             "part of what defines or enforces the agent",
		"wget -q -O .claude/agents/d.rules https://example.com":       "part of what defines or enforces the agent",
		"cd .claude/agents && wget -q https://example.com/d.rules":    "part of what defines or enforces the agent",
		"curl -s --ssl -o .claude/agents/d.rules https://example.com": "part of what defines or enforces the agent",
		"wget -q -P .claude/agents https://example.com/d.rules":       "wget -P writes files in a directory",
		// /proc/self/cwd is the shell's directory after its cd, not bn's.
		"cd src && echo x > /proc/self/cwd/../.claude/agents/a.rules": "names the files of the process that opens it",
		"cd src && cp x /proc/self/cwd/../.claude/agents/a.rules":     "bn cannot tell where",
		"cd /proc/self/cwd && cp x .claude/agents/a.rules":            "after a cd bn cannot follow",
		"tee /dev/fd/../cwd/.claude/agents/a.rules":                   "bn cannot tell where",
		// A bracket across quotes is a pattern still.
		`echo x | tee .claude/agents/a.rule["s"]`: "bn cannot tell where (its name is not known before the line runs)",
		`echo x > .claude/agents/a.rule["s"]`:     "bn cannot tell where (its name is not known before the line runs)",
	}
	allowed := []string{
		"cd src && cp x y.go",
		"cd src; echo x > out.txt",
		"cd .claude/agents && cat a.rules",
		"git diff 2>&1 | head",
		"echo x > /dev/null",
		"cd src && cp ../README.md .",
	}
	if wine.Running() {
		t.Log(wine.Symlinks)
	} else {
		require.NoError(t, os.MkdirAll(filepath.Join(root, "src"), 0o755))
		require.NoError(t, os.Symlink(filepath.Join("..", ".claude", "agents"), filepath.Join(root, "src", "link")))
		refused["cd src/link && cp x a.rules"] = "part of what defines or enforces the agent"
		refused["cd src && cd link; echo x >> a.rules"] = "part of what defines or enforces the agent"
	}
	hookLines(t, root, refused, allowed)
}

// TestGuardGitTree: under a shell allowed whole, git's writes of the
// working tree are guarded: the paths checkout, restore, mv and rm are
// given (a directory holding a guarded path too), and what reset --hard,
// merge, apply or stash pop write, which bn cannot name, is refused.
func TestGuardGitTree(t *testing.T) {
	root := t.TempDir()
	refused := map[string]string{
		"git checkout -- .binnacle/agents/config.kdl":   "part of what defines or enforces the agent (the project layer)",
		"git checkout HEAD~3 -- .claude/agents/a.rules": "part of what defines or enforces the agent",
		"git restore --source=HEAD~1 .binnacle":         "part of what defines or enforces the agent (the project layer)",
		"git checkout HEAD -- .":                        "it writes every file under ., and .binnacle there is part of what defines or enforces the agent (the project layer)",
		"cd src && git restore ..":                      "there is part of what defines or enforces the agent",
		"git mv src/x .claude/agents/a.md":              "part of what defines or enforces the agent",
		"git rm -r .binnacle":                           "part of what defines or enforces the agent (the project layer)",
		"git reset --hard HEAD~1":                       "it writes files of the working tree, and bn cannot tell where (git reset --hard (--merge, --keep) writes every file that differs from the commit it resets to)",
		"git stash pop":                                 "bn cannot tell where (git stash writes the files it saves or brings back)",
		"git apply p.diff":                              "bn cannot tell where (git apply writes whatever files its patch names)",
		"git am < p.mbox":                               "bn cannot tell where",
		"git merge topic":                               "bn cannot tell where",
		"git quiltimport --patches src":                 "bn cannot tell where (git quiltimport writes whatever files its patches name)",
		"git merge-recursive HEAD -- HEAD abc":          "bn cannot tell where (git merge-recursive writes whatever files the commits it merges change)",
		"git merge-resolve HEAD -- HEAD abc":            "bn cannot tell where",
		"git merge-octopus HEAD -- HEAD abc def":        "bn cannot tell where",
		"git merge-subtree HEAD -- HEAD abc":            "bn cannot tell where",
		"git merge-recursive-theirs HEAD -- HEAD abc":   "bn cannot tell where",
		"git pull":                "bn cannot tell where",
		"git cherry-pick abc":     "bn cannot tell where",
		"git revert abc":          "bn cannot tell where",
		"git rebase main":         "bn cannot tell where",
		"git switch main":         "bn cannot tell where",
		"git checkout main":       "bn cannot tell where (git checkout main may switch branches",
		"git clean -fdx":          "bn cannot tell where",
		"git checkout -- '*.kdl'": "bn cannot tell where (git checkout writes the files the pathspec '*.kdl' matches",
		// git told where its working tree or repository is.
		"GIT_WORK_TREE=.binnacle git checkout -- agents/config.kdl": "(the line sets GIT_WORK_TREE, which moves git's working tree or repository, so bn cannot tell where git checkout writes its paths)",
		"GIT_DIR=elsewhere git checkout -- x":                       "the line sets GIT_DIR",
		"export GIT_WORK_TREE=.binnacle; git checkout -- x":         "the line sets GIT_WORK_TREE",
		"env GIT_WORK_TREE=.binnacle git restore x":                 "the line sets GIT_WORK_TREE",
		"git --work-tree=.binnacle checkout -- x":                   "git --work-tree moves the working tree",
		"git --git-dir=elsewhere checkout -- x":                     "git --git-dir moves the working tree",
		"git -c core.worktree=.binnacle checkout -- x":              "may set core.worktree",
		`git --work-tree="$W" checkout -- x`:                        `git's argument --work-tree="$W" is not known before the line runs`,
		`git "$S" -- .binnacle/agents/config.kdl`:                   `git's argument "$S" is not known before the line runs`,
	}
	allowed := []string{
		"git status", "git diff HEAD~1", "git log --oneline -5", "git stash list", "git add . && git commit -m x",
		"git checkout -- src/a.go", "git restore src", "git rm --cached .binnacle/agents/config.kdl", "git checkout -b topic",
		"git apply --check p.diff", "git reset HEAD~1", "git push origin main", "git fetch", "git branch -a",
		"GIT_PAGER=cat git log", "git -c color.ui=never diff", "GIT_DIR=x git status", "git quiltimport --dry-run --patches src", "git merge-ours HEAD",
	}
	hookLines(t, root, refused, allowed)
}

// TestGuardUnpacks: under a shell allowed whole, what writes files its
// archive or patch names (tar -x, unzip, cpio, 7z, patch) writes
// anywhere under its directory, refused where that directory holds what
// defines or enforces the agent; cp, mv and rsync write their sources
// under the target by name; and a line that may change the directory
// by a road bn does not follow (eval, a function, command cd, a DEBUG
// trap) leaves its later relative writes unplaced.
func TestGuardUnpacks(t *testing.T) {
	root := t.TempDir()
	refused := map[string]string{
		"tar xf a.tar":                        "it writes every file under ., and .binnacle there is part of what defines or enforces the agent (the project layer)",
		"tar -xzf a.tgz":                      "it writes every file under .",
		"tar --extract -f a.tar":              "it writes every file under .",
		"tar -C .binnacle -xf a.tar":          "part of what defines or enforces the agent (the project layer)",
		"tar xCf .claude a.tar":               "Claude Code's files in the repository",
		"cd src && tar -xPf a.tar":            "(tar -P (--absolute-names) writes the absolute paths and the .. its archive names)",
		"bsdtar -xf a.tar":                    "it writes every file under .",
		"unzip a.zip":                         "it writes every file under .",
		"unzip -o a.zip -d .binnacle/agents":  "the project layer",
		"cpio -i < a.cpio":                    "cpio -i writes the absolute paths",
		"cpio -i --no-absolute-filenames < a": "it writes every file under .",
		"find . | cpio -pd src":               "cpio -p copies the files its input names",
		"7z x a.7z":                           "it writes every file under .",
		"7z x a.7z -o.binnacle":               "the project layer",
		"patch -p1 < p.diff":                  "it writes every file under .",
		"patch -d .binnacle -p1 -i p.diff":    "the project layer",
		"cp -r x/.binnacle .":                 "the project layer",
		"mv x/.binnacle .":                    "the project layer",
		"cp -r x/. .":                         "it writes every file under .",
		"cp -rT x .":                          "it writes every file under .",
		"cp -t . -r x/.binnacle":              "the project layer",
		"rsync -a x/ .":                       "it writes every file under .",
		"rsync -a x/.claude .":                "Claude Code's files in the repository",
		"eval 'cd .binnacle'; cp x agents/a":  "after a cd bn cannot follow",
		"f() { cd .binnacle; }; f; cp x a":    "after a cd bn cannot follow",
		"command cd .binnacle; cp x a":        "after a cd bn cannot follow",
		"trap 'cd .binnacle' DEBUG; cp x a":   "after a cd bn cannot follow",
		"alias g='cd .binnacle'; g; cp x a":   "after a cd bn cannot follow",
	}
	allowed := []string{
		"cd src && tar xf ../a.tar", "tar -C src -xf a.tar", "tar czf out.tgz src", "tar tf a.tar", "tar -xOf a.tar member",
		"unzip -d src a.zip", "unzip -l a.zip", "7z l a.7z", "7z x a.7z -osrc", "cpio -t < a.cpio",
		"patch -d src -p1 -i p.diff", "patch src/a.go p.diff", "patch --dry-run -p1 < p.diff",
		"cp x.go .", "cp -r x src", "cp -r x .", "mv a b", "rsync -a x/ src/", "rsync -a x .",
		"command -v git && echo x > out.txt",
		// An absolute path is placed after a cd bn cannot follow; on
		// Windows /tmp/out names no drive, so the path is the machine's.
		"eval 'true'; echo x > " + filepath.ToSlash(filepath.Join(filepath.Dir(root), "out")),
	}
	hookLines(t, root, refused, allowed)
}

// TestGuardNestedCopies: a copy of a directory holding a .git into the
// project (cp -r, cp -a, rsync -a, mv) makes a repository nested there,
// whose configuration names programs git runs: refused as a write of it.
func TestGuardNestedCopies(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	outside, elsewhere := t.TempDir(), t.TempDir()
	for _, d := range []string{filepath.Join(root, "x", ".git"), filepath.Join(root, "y", "sub"), filepath.Join(root, "z", "a"), filepath.Join(outside, "repo", ".git")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	require.NoError(t, os.WriteFile(filepath.Join(root, "y", "sub", ".git"), []byte("gitdir: /tmp/g\n"), 0o644))
	nested := "is part of what defines or enforces the agent (a repository nested in the project"
	refused := map[string]string{
		"cp -r x src":       filepath.Join("src", "x", ".git") + " " + nested,
		"cp -a y/. src/y":   filepath.Join("src", "y", "sub", ".git") + " " + nested,
		"rsync -a x/ src/x": filepath.Join("src", "x", ".git") + " " + nested,
		"mv x src/":         nested,
		// Paths out of the project with / (a shell line's \ escapes).
		"cp -R " + filepath.ToSlash(filepath.Join(outside, "repo")) + " src":    filepath.Join("src", "repo", ".git") + " " + nested,
		"cp -rt src " + filepath.ToSlash(filepath.Join(outside, "repo")) + " z": filepath.Join("src", "repo", ".git") + " " + nested,
	}
	// A directory with more entries than bn reads may hold a .git: the
	// refusal says so, and how to copy it. rsync --exclude=.git brings
	// none.
	require.NoError(t, os.MkdirAll(filepath.Join(root, "w"), 0o755))
	for i := range 10001 {
		require.NoError(t, os.WriteFile(filepath.Join(root, "w", strconv.Itoa(i)), nil, 0o644))
	}
	refused["cp -r w src"] = "it writes " + filepath.Join("src", "w") + ", and bn cannot tell where (it copies w, which holds more than 10000 entries, more than bn reads, and bn cannot tell whether one is a .git, which would make a repository nested in the project), " +
		"so it may change what defines or enforces the agent, which under bn's hook an agent may not change; copy a narrower directory, or leave .git out (rsync -a --exclude=.git SRC DEST)"
	allowed := []string{"cp -r z src", "rsync -a z/ src/z", "cp -r x " + filepath.ToSlash(elsewhere), "rsync -a --exclude=.git z/ src/",
		"rsync -a --exclude=.git x/ src/x", "rsync -a --exclude .git w src/"}
	hookLines(t, root, refused, allowed)
}

// TestGuardLinks: a write through a link the line makes lands where bn
// cannot tell when it decides, so a line that makes a link and writes
// anything else is refused, in any order; a hard link to a guarded file
// (link, ln) is a write of it, and unlink removes it.
func TestGuardLinks(t *testing.T) {
	root := t.TempDir()
	refused := map[string]string{
		"ln -s ../.claude src/L && cp x src/L/agents/a.rules":                             "and the line also makes a link (ln -s ../.claude src/L): bn resolves only the links that exist when it decides",
		"ln -s ../.binnacle src/B && cat evil > src/B/agents/config.kdl":                  "make the link in a line of its own, then write",
		"cat evil > src/B/agents/config.kdl & ln -s ../.binnacle src/B":                   "the line also makes a link",
		"ln -s ../.claude src/L && ln -sf /tmp/x src/L/agents/a.rules":                    "the line also makes a link",
		"cp -s ../.claude src/L; tee src/L/agents/a.rules < x":                            "the line also makes a link (cp -s ../.claude src/L)",
		"cp --symbolic-link ../.claude src/L; cp x src/L/agents/a.rules":                  "the line also makes a link",
		"env ln -s ../.claude src/L && sed -i s/a/b/ src/L/agents/a.rules":                "the line also makes a link",
		"link .claude/agents/a.rules src/r":                                               "Claude Code's files in the repository",
		"unlink .binnacle/agents/config.kdl":                                              "the project layer",
		"ln -s ../.binnacle src/B && ln -s ../.claude src/L && echo x > src/B/config.kdl": "the line also makes a link",
	}
	allowed := []string{"ln -s a src/b", "ln -s ../.claude src/L", "link src/a src/b", "cp x src && echo x > src/y", "cp -rL x src && echo x > src/y", "ln -s a src/b && cat src/b"}
	hookLines(t, root, refused, allowed)
}

// TestGuardBringsLinks: a command that copies, moves or unpacks files
// that may be symlinks (cp -a, rsync -a, mv, tar x, git checkout, git
// clone) brings links bn has not seen into the tree, so a line that runs
// one and writes anything else is refused, in any order; the command
// alone is judged as before.
func TestGuardBringsLinks(t *testing.T) {
	root := t.TempDir()
	brings := "and the line may bring a link in ("
	refused := map[string]string{
		"cp -a /tmp/evil/. src/ && echo x > src/link":                          brings + "cp -a /tmp/evil/. src/): it copies, moves, unpacks or checks out files that may be symlinks, and bn resolves only the links that exist when it decides",
		"cp -r /tmp/evil src && echo x > src/evil/link":                        brings + "cp -r /tmp/evil src)",
		"cp -R /tmp/evil src; echo x > src/evil/link":                          "split the line in two: run cp -R /tmp/evil src in a line of its own, then write",
		"cp -rP /tmp/evil src; echo x > src/evil/link":                         brings,
		"cp -d /tmp/evil/l src/l; echo x > src/l":                              brings,
		"cp --no-dereference /tmp/evil/l src/l; echo x > src/l":                brings,
		"cp --preserve=links /tmp/evil/l src/l; echo x > src/l":                brings,
		"rsync -a /tmp/evil/ src/ ; echo x > src/link":                         brings + "rsync -a /tmp/evil/ src/)",
		"rsync -rl /tmp/evil/ src/ ; echo x > src/link":                        brings,
		"rsync -r --links /tmp/evil/ src/ ; echo x > src/link":                 brings,
		"mv /tmp/evil/link src/link && echo x >> src/link":                     brings + "mv /tmp/evil/link src/link)",
		"tar xf evil.tar -C src && printf x > src/link":                        brings + "tar xf evil.tar -C src)",
		"bsdtar -xf evil.tar -C src && echo x > src/link":                      brings,
		"unzip evil.zip -d src && echo x > src/link":                           brings,
		"cpio -i --no-absolute-filenames -D src < e.cpio && echo x > src/link": brings,
		"7z x evil.7z -osrc && echo x > src/link":                              brings,
		"git checkout other -- src && echo x > src/link":                       brings + "git checkout other -- src)",
		"git restore src && echo x > src/link":                                 brings,
		"git clone --bare /tmp/evil x && echo x > x/link":                      brings + "git clone --bare /tmp/evil x)",
		"echo x > src/link & git checkout other -- src":                        brings,
		"git checkout other -- src | tee src/link":                             brings,
		// Refused where it leads now: that reason holds in any order.
		"mv /tmp/evil src/x && echo x > .binnacle/agents/config.kdl": ".binnacle/agents/config.kdl is part of what defines or enforces the agent (the project layer)",
		"env tar -xf evil.tar -C src && echo x > src/link":           brings,
		"cp -a /tmp/evil/. src/ && cp x src/link/agents/a.rules":     "it writes x, and the line may bring a link in (cp -a /tmp/evil/. src/)",
	}
	allowed := []string{
		"cp -a /tmp/evil/. src/", "rsync -a /tmp/evil/ src/", "mv src/a src/b", "cd src && tar xf ../a.tar", "git checkout -- src/a.go",
		"git restore src", "git clone --bare /tmp/evil x", "rsync -r /tmp/evil/ src/ && echo x > src/y", "rsync -aL /tmp/evil/ src/ && echo x > src/y",
		"git checkout -b topic && echo x > src/y", "git restore --staged src && echo x > src/y", "tar tf a.tar && echo x > src/y",
		"tar -C src -xf a.tar && cat src/y", "git rm src/a.go && echo x > src/y",
	}
	hookLines(t, root, refused, allowed)
}

// TestGuardHardLinks: a write to another name of a guarded file (a hard
// link made earlier) changes that file, so the guard refuses it, by any
// tool; a file whose other names are all unguarded may be written.
func TestGuardHardLinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("bn counts a file's hard links where the system's file information says (unix)")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	for _, d := range []string{filepath.Join(root, ".claude", "agents"), filepath.Join(root, "src")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	for _, f := range []string{".claude/agents/a.rules", "src/a.go"} {
		require.NoError(t, os.WriteFile(filepath.Join(root, f), []byte("x"), 0o644))
	}
	require.NoError(t, os.Link(filepath.Join(root, ".claude", "agents", "a.rules"), filepath.Join(root, "src", "r")))
	require.NoError(t, os.Link(filepath.Join(root, "src", "a.go"), filepath.Join(root, "src", "b.go")))
	d, _ := dialect.All().Lookup("claude")
	g := NewGuard(Place{Paths: resolver.Paths{RepoRoot: root}, Tool: d.Info()})
	all := agents.Tools{All: true}
	assert.Contains(t, g.Refusal("src/r", root, agents.KindEdit, all), "src/r, a hard link of .claude/agents/a.rules, is part of what defines or enforces the agent (Claude Code's files in the repository)")
	assert.Empty(t, g.Refusal("src/b.go", root, agents.KindEdit, all))
	assert.Empty(t, g.Refusal("src/a.go", root, agents.KindCreate, all))
	hookLines(t, root, map[string]string{"echo x > src/r": "a hard link of .claude/agents/a.rules", "cp x src/r": "a hard link of"}, []string{"echo x > src/b.go"})
}

// TestGuardRemovesAbove: removing or moving away the project itself, or
// a directory above it or above anything guarded, takes what defines or
// enforces the agent with it (and what takes its place defines it), so
// it is refused as a write of the guarded path is.
func TestGuardRemovesAbove(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	base := filepath.Base(root)
	// Forward slashes, which Git Bash reads on Windows as bash does
	// elsewhere: a backslash in a bash line quotes the next character.
	slashed, evil := filepath.ToSlash(root), filepath.ToSlash(filepath.Join(filepath.Dir(root), "evil"))
	refused := map[string]string{
		"mv " + slashed + " " + slashed + "-old && mv " + evil + " " + slashed: "(.), which holds .binnacle, part of what defines or enforces the agent (the project layer)",
		"cd .. && mv " + base + " p2":                                          "it removes or moves " + base + " (.), which holds",
		"rm -rf ..":                                                            "it removes or moves ..",
		"cd src && rm -r ..":                                                   "which holds .binnacle",
		"mv -t /tmp . src":                                                     "it removes or moves .",
		"rmdir .claude":                                                        "Claude Code's files in the repository",
	}
	allowed := []string{"mv src src2", "rm -rf src", "mv src/a .", "cp x .", "mv -t . src/a", "rm -r src/..x"}
	hookLines(t, root, refused, allowed)
}

// TestGuardLines: what a command removes, makes or changes where bn can
// name it is held to the guard, by the shell line that runs it.
func TestGuardLines(t *testing.T) {
	for _, tc := range []struct {
		name    string
		refused map[string]string
		allowed []string
	}{{
		// find -delete and find -exec rm {} remove what they find under
		// their starting points, rsync --delete what its destination
		// holds and --remove-source-files its sources: refused when that
		// holds what defines or enforces the agent. xargs hands rm names
		// bn cannot place.
		name: "find and rsync remove",
		refused: map[string]string{
			"find . -delete":                                  "it removes or moves . (.), which holds .binnacle, part of what defines or enforces the agent (the project layer)",
			"find . -name x -exec unlink {} +":                "it removes or moves . (.), which holds",
			"find src .. -exec rm {} \\;":                     "it removes or moves .. (",
			"find .claude -name '*.md' -exec /bin/rm -f {} +": "Claude Code's files in the repository",
			"find -L src -delete":                             "it writes files, and bn cannot tell where (find -L -delete removes files it finds through symlinks, which may lead anywhere)",
			"find src -print0 | xargs -0 rm":                  "it writes (xargs's input), and bn cannot tell where",
			"rsync -a --delete x/ .":                          "it removes or moves . (.), which holds .binnacle",
			"rsync -a --delete-after x/ ..":                   "it removes or moves .. (",
			"rsync -a --del x/ .binnacle":                     "(the project layer)",
			"rsync --remove-source-files .claude/a /tmp/b":    "Claude Code's files in the repository",
			// A placeholder the shell makes of quoted text is find's {}
			// and xargs -I's replace string all the same.
			`find .claude -name '*.rules' -exec cp /dev/null '{''}' \;`:              "bn cannot tell where",
			`find .binnacle -name '*.kdl' -exec tee {""} \; </dev/null`:              "bn cannot tell where",
			`echo .claude/agents/a.rules | xargs -I XX cp /dev/null X''X`:            "bn cannot tell where",
			`echo .claude/agents/a.rules | xargs -i cp /dev/null '{''}'`:             "bn cannot tell where",
			`curl -s -o src/'#''1' 'file:///tmp/e#{../.binnacle/agents/config.kdl}'`: "names its file by the URL's glob (#N)",
		},
		allowed: append([]string{"find src -delete", "find src -name '*.o' -exec rm {} +", "find . -name '*.go' -exec grep -l x {} +",
			"rsync -a --delete x/ src/", "rsync -a --remove-source-files src/a /tmp/b"}, notOnWindows("rsync -a --delete x/ host:dst")...),
	}, {
		// An editor run from the shell (ed, ex, vim -es, emacs --batch,
		// nano) may change every file its operands name.
		name: "editors",
		refused: map[string]string{
			"ed .binnacle/agents/config.kdl":            "(the project layer)",
			"ex .binnacle/agents/config.kdl":            "(the project layer)",
			"vi .binnacle/agents/config.kdl":            "(the project layer)",
			"vim -es .binnacle/agents/config.kdl":       "(the project layer)",
			"nvim -es .binnacle/agents/config.kdl":      "(the project layer)",
			"nano .binnacle/agents/config.kdl":          "(the project layer)",
			"emacs --batch .binnacle/agents/config.kdl": "(the project layer)",
		},
		allowed: []string{"vim -es src/a.go", "ed src/a.go"},
	}, {
		// git clone, init and bundle create write the directory or file
		// they are given (a clone with none: one named after its
		// source).
		name: "git makes",
		refused: map[string]string{
			"git clone /tmp/x .binnacle":            "(the project layer)",
			"git clone -b main /tmp/.binnacle":      "(the project layer)",
			"git clone /tmp/x .":                    "it writes every file under .",
			"git init .claude":                      "Claude Code's files in the repository",
			"git init --bare .claude":               "Claude Code's files in the repository",
			"git init-db .claude":                   "Claude Code's files in the repository",
			"git -C .claude init":                   "Claude Code's files in the repository",
			"git bundle create .binnacle/x HEAD":    "(the project layer)",
			"git worktree add .claude/w":            "bn cannot tell where",
			"cd src && git clone /tmp/x ../.claude": "Claude Code's files in the repository",
		},
		allowed: []string{"git init", "git bundle create src/b HEAD", "git bundle verify .binnacle/x"},
	}, {
		// A repository nested in the project (a .git below the root) is
		// one whose configuration git run at the root follows once it is
		// linked as a submodule (core.fsmonitor): a write there, and git
		// init and clone, which make one, are refused.
		name: "nested repositories",
		refused: map[string]string{
			"echo 'gitdir: ../evil' > src/lib/.git":     "(a repository nested in the project",
			"cp src/x src/e/.git/config":                "(a repository nested in the project",
			"mv src/evil src/lib/.git":                  "(a repository nested in the project",
			"git init src/n":                            "src/n/.git is part of what defines or enforces the agent (a repository nested in the project",
			"git init-db -q src/n":                      "(a repository nested in the project",
			"git clone /tmp/x src/x":                    "src/x/.git is part of what defines or enforces the agent (a repository nested",
			"git clone https://example.com/r.git":       "is part of what defines or enforces the agent (a repository nested",
			"cd src && git clone https://example.com/r": "(a repository nested in the project",
		},
		allowed: []string{"echo x > src/evil/config", "echo x > src/evil/HEAD", "git clone --bare /tmp/x src/x.git", "cat src/lib/.git"},
	}, {
		// git's subcommands that write the files their operands and
		// options name.
		name: "git writes files",
		refused: map[string]string{
			"git mailinfo .binnacle/agents/config.kdl src/p < src/mail":                      "(the project layer)",
			"git mailinfo src/m .claude/settings.json < src/mail":                            "Claude Code's files in the repository",
			"git interpret-trailers --in-place --trailer 'x: y' .binnacle/agents/config.kdl": "(the project layer)",
			"git read-tree --index-output=.mcp.json HEAD":                                    "Claude Code's files in the repository",
			"git fast-export --export-marks=.mcp.json HEAD":                                  "Claude Code's files in the repository",
			"git fast-import --export-marks=.binnacle/agents/config.kdl":                     "(the project layer)",
			"git credential-store --file=.mcp.json store":                                    "Claude Code's files in the repository",
			"git index-pack -o .claude/agents/a.rules src/x.pack":                            "Claude Code's files in the repository",
			"cd .claude/agents && git format-patch -1":                                       "Claude Code's files in the repository",
			"git merge-one-file 1 2 3 .mcp.json 100644 100644 100644":                        "Claude Code's files in the repository",
			"GIT_INDEX_FILE=.mcp.json git add src/a":                                         "bn cannot tell where (the line sets GIT_INDEX_FILE, which may name a file git writes",
			"GIT_TRACE=$PWD/.claude/settings.json git status":                                "bn cannot tell where (the line sets GIT_TRACE",
		},
		allowed: []string{"git mailinfo src/m src/p < src/mail", "git format-patch -1", "GIT_TRACE=1 git status", "git fast-export --export-marks=src/m HEAD", "git interpret-trailers --trailer 'x: y' .binnacle/agents/config.kdl"},
	}, {
		// Programs that write the file an option or operand names.
		name: "writers",
		refused: map[string]string{
			"iconv -f utf-8 -t utf-8 -o .binnacle/agents/config.kdl src/a": "(the project layer)",
			"openssl enc -out .claude/agents/a.rules -in /dev/null":        "Claude Code's files in the repository",
			"gpg -o .mcp.json -d src/a":                                    "Claude Code's files in the repository",
			"uudecode -o .mcp.json src/a":                                  "Claude Code's files in the repository",
			"uudecode src/a":                                               "bn cannot tell where (uudecode writes the file its input's begin line names",
			"script -q .claude/agents/a.rules -c true":                     "Claude Code's files in the repository",
			"cc src/a.c -o.mcp.json":                                       "Claude Code's files in the repository",
			"ld -o .binnacle/agents/config.kdl src/a.o":                    "(the project layer)",
			"objcopy src/a.o .mcp.json":                                    "Claude Code's files in the repository",
			"strip -o .mcp.json src/a.o":                                   "Claude Code's files in the repository",
			"sqlite3 .mcp.json 'select 1'":                                 "Claude Code's files in the repository",
			"fallocate -l 0 .mcp.json":                                     "Claude Code's files in the repository",
			"mkfifo .claude/agents/x.rules":                                "Claude Code's files in the repository",
			"msgfmt -o .mcp.json src/a.po":                                 "Claude Code's files in the repository",
			"gunzip .mcp.json.gz":                                          "Claude Code's files in the repository",
			"gzip -S .json .mcp":                                           "Claude Code's files in the repository",
			"xz -d .binnacle/agents/config.kdl.xz":                         "(the project layer)",
			"gzip -dN src/x.gz":                                            "bn cannot tell where (gzip -N names what it writes",
			"sponge .mcp.json":                                             "Claude Code's files in the repository",
		},
		allowed: []string{"iconv -f utf-8 -t ascii src/a", "gcc -O2 -fno-omit-frame-pointer -o src/x src/x.c", "sqlite3 src/db 'select 1'", "script -q /dev/null -c true", "uudecode -p src/a", "gzip src/a", "gunzip src/a.gz", "tar xzf src/a.tgz -C src"},
	}, {
		// A backup is a write of its own name: the destination's with
		// the suffix added.
		name: "backups",
		refused: map[string]string{
			"cp -b -S .json src/a .mcp":                     "Claude Code's files in the repository",
			"cp --suf=.json -b src/a .mcp":                  "Claude Code's files in the repository",
			"touch .mc; cp -bS p.json src/a .mc":            "Claude Code's files in the repository",
			"mv -b -S .json src/a .mcp":                     "Claude Code's files in the repository",
			"ln -f -b -S .json src/a .mcp":                  "Claude Code's files in the repository",
			"install -b -S .json src/a .mcp":                "Claude Code's files in the repository",
			"rsync -b --suffix=.json src/a .mcp":            "Claude Code's files in the repository",
			"rsync -a --backup-dir=../.claude src/ out/":    "Claude Code's files in the repository",
			"SIMPLE_BACKUP_SUFFIX=.json cp -b src/a .mcp":   "bn cannot tell where (the line sets SIMPLE_BACKUP_SUFFIX or VERSION_CONTROL",
			"cp -b -S .rules src/a .binnacle/agents/config": "(the project layer)",
		},
		allowed: []string{"cp -b src/a src/b", "cp -b -S .bak src/a src/b", "rsync -b src/a src/b", "cp src/a .mcp", "cp -b src/a .mcp"},
	}, {
		// Claude Code's hook guards Qwen Code's files as check does:
		// an agent limited here that rewrote them would be unlimited in
		// Qwen Code's next session.
		name: "every tool's files",
		refused: map[string]string{
			"cp src/x .qwen/agents/gg.md":       "(Qwen Code's files in the repository)",
			"echo x > .qwen/agents/gg.rules":    "(Qwen Code's files in the repository)",
			"sed -i s/a/b/ .qwen/settings.json": "(Qwen Code's files in the repository)",
		},
		allowed: []string{"cp src/x .qwenx"},
	}, {
		// bn's own commands that write rewrite the layers and the agent
		// files and compiled rules the hook reads, wherever they are.
		name: "bn itself",
		refused: map[string]string{
			"bn config agents import src/w.md --from claude --force": "it runs bn config agents import, which writes the layers' config.kdl",
			"bn config agents export --target claude":                "bn's commands that write change what defines or enforces the agent, so an agent may run only those that read",
			"cd src && ../bin/bn config agents init":                 "it runs bn config agents init",
			"bn config agents import -o src/x.kdl src/a.md":          "ask the user to run it",
		},
		allowed: []string{"bn config agents show a", "bn config agents export --target claude --check", "bn config agents list --json | head"},
	}} {
		t.Run(tc.name, func(t *testing.T) { hookLines(t, t.TempDir(), tc.refused, tc.allowed) })
	}
}

// TestGuardGitStart: git run under the hook takes GIT_WORK_TREE and
// GIT_DIR from the environment the hook started with, and core.worktree
// from the repository's configuration: where they lead away from the
// project, what git writes is refused, saying which and how to fix it.
func TestGuardGitStart(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	other := filepath.Join(filepath.Dir(root), "other")
	reads := []string{"git status", "git diff", "git log -1"}
	t.Setenv("GIT_WORK_TREE", other)
	hookLines(t, root, map[string]string{
		"git checkout -- src/a": "GIT_WORK_TREE=" + other + " is set in the environment bn's hook started with",
		"git restore src/a":     "unset GIT_WORK_TREE where the agent's client starts",
		"git reset --hard":      "GIT_WORK_TREE=",
	}, reads)
	t.Setenv("GIT_WORK_TREE", root)
	t.Setenv("GIT_DIR", filepath.Join(root, ".git"))
	hookLines(t, root, nil, append(reads, "git checkout -- src/a"))
	t.Setenv("GIT_WORK_TREE", "")
	t.Setenv("GIT_DIR", "")
	require.NoError(t, os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[core]\n\tworktree = "+filepath.ToSlash(other)+"\n"), 0o644))
	hookLines(t, root, map[string]string{
		"git checkout -- src/a": "sets core.worktree = " + filepath.ToSlash(other) + ", so git takes a working tree other than the project's",
		"git stash":             "unset it (git config --unset core.worktree)",
	}, reads)
}

// hookLines asks the hook about shell lines of an agent with the shell,
// reads and writes whole, in a repository at root with a project layer,
// Claude Code's agents and src: refused maps a line to a part of its
// refusal.
func hookLines(t *testing.T, root string, refused map[string]string, allowed []string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(root)
	require.NoError(t, err)
	for _, d := range []string{filepath.Join(root, ".binnacle", "agents"), filepath.Join(root, ".claude", "agents"), filepath.Join(root, "src")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	d, _ := dialect.All().Lookup("claude")
	c := Call{Place: Place{Paths: resolver.Paths{RepoRoot: root}, Tool: d.Info()}}
	r := Rules{Agent: "a", Tool: "claude", Allow: []string{"shell", "read", "write"}, Deny: []string{}}
	for line, want := range refused {
		c.Call = dialect.HookCall{Tool: "Bash", Input: map[string]any{"command": line}}
		v := c.decide(r)
		assert.False(t, v.Allowed, line)
		assert.Contains(t, v.Reason, want, line)
	}
	for _, line := range allowed {
		c.Call = dialect.HookCall{Tool: "Bash", Input: map[string]any{"command": line}}
		v := c.decide(r)
		assert.True(t, v.Allowed, "%s: %s", line, v.Reason)
	}
}

// TestAnyToolGuard: check and the MCP server answer for every tool's
// hook, so they refuse a write onto any layer and any hooked tool's
// files, as that tool's hook does.
func TestAnyToolGuard(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	g := AnyToolGuard(resolver.Paths{RepoRoot: root}, filepath.Join(root, "home"))
	wide := agents.Tools{All: true}
	for _, tt := range []struct {
		line, why string
	}{
		{"echo x > .claude/agents/wide.rules", "(Claude Code's files in the repository)"},
		{"echo x > .binnacle/agents/config.kdl", "(the project layer)"},
		{"cp x .qwen/agents/wide.rules", "(Qwen Code's files in the repository)"},
		{"echo x > notes.txt", ""},
	} {
		d := enforce.Decide(wide, agents.ToolPattern{Kind: "shell", Arg: tt.line, HasArg: true}, enforce.Context{Root: root})
		require.True(t, d.Allowed, tt.line)
		why := g.Writes(d, root, wide)
		if tt.why == "" {
			assert.Empty(t, why, tt.line)
			continue
		}
		assert.Contains(t, why, "part of what defines or enforces the agent "+tt.why, tt.line)
	}
}

// TestProjectRoot: the hook decides from the repository holding the
// project the tool names in its environment, whatever directory it runs
// in; a session started in a subfolder decides as one at the root. An agent that cd's
// into a directory with a .git of its own (a submodule, or one it made
// with forged, wider rules) is still held to the project's rules.
func TestProjectRoot(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	nested := filepath.Join(root, "vendor", "lib")
	sub := filepath.Join(root, "src", "pkg")
	require.NoError(t, os.MkdirAll(sub, 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(nested, "lib"), 0o755))
	plain, err := filepath.EvalSymlinks(t.TempDir()) // no .git above it
	require.NoError(t, err)
	narrow := "agent differ {\n    description \"d\"\n    prompt \"p\"\n    tools {\n        reset\n        allow read \"shell(git diff:*)\"\n    }\n}\n"
	wide := "agent differ {\n    description \"d\"\n    prompt \"p\"\n    tools {\n        all\n        deny \"shell(nothing:*)\"\n    }\n}\n"
	base := map[string]string{"BN_CACHE_DIR": filepath.Join(root, "cache"), "BN_CONFIG_DIR": filepath.Join(root, "config"), "BN_DATA_DIR": filepath.Join(root, "data")}
	dec := config.Decoder{Sections: dialect.All()}
	for _, tool := range []string{"claude", "qwen"} {
		d, _ := dialect.All().Lookup(tool)
		info := d.Info()
		// Each repository's layer and the rules export compiles from it.
		for dir, kdl := range map[string]string{root: narrow, nested: wide} {
			require.NoError(t, os.MkdirAll(filepath.Join(dir, ".git"), 0o755))
			require.NoError(t, os.MkdirAll(filepath.Join(dir, ".binnacle", "agents"), 0o755))
			require.NoError(t, os.WriteFile(filepath.Join(dir, ".binnacle", "agents", "config.kdl"), []byte(kdl), 0o644))
			p, err := resolver.DiscoverPaths(resolver.PathInputs{Getenv: func(k string) string { return base[k] }, Cwd: dir})
			require.NoError(t, err)
			set := p.Load(resolver.Committed, dec)
			require.NoError(t, set.Fatal())
			a, err := set.Lookup("differ")
			require.NoError(t, err)
			rules := filepath.Join(dir, filepath.FromSlash(dialect.RulesPath(info, "differ")))
			require.NoError(t, os.MkdirAll(filepath.Dir(rules), 0o755))
			require.NoError(t, os.WriteFile(rules, Encode(New(&a.Definition, tool, resolver.Committed), emit.Marker("x")), 0o644))
			require.NoError(t, os.WriteFile(strings.TrimSuffix(rules, dialect.RulesExt)+info.Ext, []byte("the agent file"), 0o644))
		}
		for _, tt := range []struct {
			name    string
			project string // the tool's project directory variable
			cwd     string
			repo    string // -C
			command string
			allowed bool
			want    string
		}{
			{name: "in the project", project: root, cwd: root, command: "rm -rf src", want: "agent differ may not use shell(rm -rf src)"},
			{name: "cd into a nested .git", project: root, cwd: nested, command: "rm -rf ../../src", want: "agent differ may not use shell(rm -rf ../../src)"},
			{name: "-C names the nested .git", project: root, cwd: nested, repo: nested, command: "rm -rf ../../src", want: "agent differ may not use shell(rm -rf ../../src)"},
			{name: "what the project allows", project: root, cwd: nested, command: "git diff", allowed: true},
			{name: "the nested project's own session", project: nested, cwd: nested, command: "rm -rf ../../src", allowed: true},
			// A session started in a subfolder decides as one at the
			// repository's root, relative paths from its own cwd.
			{name: "a session in a subfolder", project: sub, cwd: sub, command: "rm -rf ../src", want: "agent differ may not use shell(rm -rf ../src)"},
			{name: "what the project allows, from a subfolder", project: sub, cwd: sub, command: "git diff", allowed: true},
			{name: "a subfolder above the nested .git", project: filepath.Join(root, "vendor"), cwd: nested, command: "rm -rf ../../src", want: "agent differ may not use shell(rm -rf ../../src)"},
			{name: "a subfolder of the nested project", project: filepath.Join(nested, "lib"), cwd: filepath.Join(nested, "lib"), command: "rm -rf ../../../src", allowed: true},
			// A .git made where the session started, or between there
			// and the root, would move the project: the guard holds it.
			{name: "a .git where the session started", project: filepath.Join(nested, "lib"), cwd: filepath.Join(nested, "lib"), command: "echo > .git", want: "a .git there would make its directory the project"},
			{name: "git init-db where the session started", project: filepath.Join(nested, "lib"), cwd: filepath.Join(nested, "lib"), command: "git init-db", want: "a .git there would make its directory the project"},
			{name: "git init-db of it, from the root", project: filepath.Join(nested, "lib"), cwd: nested, command: "git init-db -q lib", want: "a .git there would make its directory the project"},
			{name: "the same .git, named from the root", project: filepath.Join(nested, "lib"), cwd: nested, command: "echo > lib/.git", want: "a .git there would make its directory the project"},
			{name: "a .git below where the session started", project: nested, cwd: nested, command: "echo > lib/.git", want: "a repository nested in the project"},
			{name: "no repository holds the session", project: plain, cwd: plain, command: "git diff", want: "compiled rules are missing"},
			{name: "no variable", cwd: nested, command: "git diff", want: info.Hook.ProjectDir + " is not set"},
			{name: "not a directory", project: filepath.Join(root, "nowhere"), cwd: root, command: "git diff", want: "names no directory"},
			{name: "relative", project: "vendor", cwd: root, command: "git diff", want: "is not an absolute path"},
		} {
			t.Run(tool+"/"+tt.name, func(t *testing.T) {
				env := map[string]string{info.Hook.ProjectDir: tt.project}
				for k, v := range base {
					env[k] = v
				}
				p, start, err := Paths(info, resolver.PathInputs{Getenv: func(k string) string { return env[k] }, Cwd: tt.cwd, RepoFlag: tt.repo})
				if err != nil {
					assert.False(t, tt.allowed)
					assert.Contains(t, err.Error(), tt.want)
					return
				}
				shell := info.Hook.Tools[slices.IndexFunc(info.Hook.Tools, func(h dialect.HookTool) bool { return h.Kind == agents.KindShell })].Name
				v := Decide(Call{Place: Place{Paths: p, Tool: info, Start: start}, Name: "differ", Rules: dialect.RulesPath(info, "differ"),
					Call: dialect.HookCall{Tool: shell, Input: map[string]any{"command": tt.command}, Dir: tt.cwd},
					Load: func(scope resolver.Scope) (*resolver.Set, error) {
						s := p.Load(scope, dec)
						return s, s.Fatal()
					}})
				if runtime.GOOS == "windows" && info.Hook.WindowsShell == enforce.Cmd {
					// bn does not parse cmd lines: under a limit each is
					// refused, for that or for the case's own reason.
					assert.False(t, v.Allowed)
					if tt.allowed || !strings.Contains(v.Reason, tt.want) {
						assert.Contains(t, v.Reason, "bn does not parse cmd command lines")
					}
					return
				}
				assert.Equal(t, tt.allowed, v.Allowed, v.Reason)
				assert.Contains(t, v.Reason, tt.want)
			})
		}
	}
}

// TestGuardRelativePATH: an empty or relative PATH entry before bn's own
// directory is found from the directory the hook runs in, which the
// agent's cd moves: a file named as bn's binary is guarded wherever it
// is written, and the entry's place from the root holds too.
func TestGuardRelativePATH(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	self := filepath.Join(root, "bin", "bn")
	require.NoError(t, os.MkdirAll(filepath.Join(root, "src"), 0o755))
	all := agents.Tools{All: true}
	sep := string(os.PathListSeparator)
	other := filepath.Join(root, "other")
	for _, path := range []string{"." + sep + filepath.Dir(self), sep + filepath.Dir(self), "tools" + sep + filepath.Dir(self), other + sep + "." + sep + filepath.Dir(self)} {
		g := NewGuard(Place{Paths: resolver.Paths{RepoRoot: root}, Self: self, PATH: path})
		for _, p := range []string{"bn", "src/bn", "tools/bn"} {
			assert.Contains(t, g.Refusal(p, root, agents.KindCreate, all), "PATH", "%s with PATH %s", p, path)
		}
		assert.Empty(t, g.Refusal("src/bnx", root, agents.KindCreate, all), path)
		d := enforce.Decide(all, agents.ToolPattern{Kind: "shell", Arg: "printf x > bn && chmod +x bn", HasArg: true}, enforce.Context{Root: root})
		assert.Contains(t, g.Writes(d, root, all), "found from the directory the hook runs in", path)
	}
	// After bn's own directory, a relative entry is not looked at; nor in
	// a PATH of absolute entries only.
	for _, path := range []string{filepath.Dir(self) + sep + ".", other + sep + filepath.Dir(self) + sep + ".", other + sep + filepath.Dir(self), ""} {
		g := NewGuard(Place{Paths: resolver.Paths{RepoRoot: root}, Self: self, PATH: path})
		assert.Empty(t, g.Refusal("src/bn", root, agents.KindCreate, all), path)
	}
}

// notOnWindows is lines allowed where a colon is part of a file's name: on
// Windows "host:dst" is the stream dst of the file host, which bn refuses
// to place.
func notOnWindows(lines ...string) []string {
	if runtime.GOOS == "windows" {
		return nil
	}
	return lines
}
