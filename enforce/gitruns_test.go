package enforce

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Under git allowed whole through a pattern, a git subcommand or option
// that runs a program or an editor is refused, as is one that is not
// git's own (git runs git-NAME from PATH, or an alias); a deny of git
// push holds against the plumbing that pushes.
func TestGitRuns(t *testing.T) {
	root, home := repo(t)
	require.NoError(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[remote \"origin\"]\n\turl = https://example.com/r.git\n"), 0o644))
	gitter := agents.Tools{Allow: []string{"read", "edit", "create", "shell(git:*)"}, Deny: []string{"shell(rm:*)", "shell(git push:*)", "shell(git add:*)"}}
	ctx := Context{Root: root, Home: home}
	runShell(t, agents.Tools{Allow: []string{"read", "shell(git:*)"}}, ctx, []shellCase{
		{`git remote-ext x 'rm -f README.md' <<< 'connect git-upload-pack'`, false, "git remote-ext is a remote helper: it runs the commands it is given"},
		{"git remote-fd 3", false, "is a remote helper"},
		{"git remote-https origin https://example.com/r.git", false, "is a remote helper"},
		{"git remote-anything x", false, "git runs git-remote-anything from PATH"},
		{"git add -e", false, "-e starts an editor"},
		{"git stage -p", false, "-p asks which hunks to take"},
		{"git send-pack /tmp/remote.git master", true, ""},
		// --bare makes the working directory the repository: ./config
		// is its configuration.
		{"git --bare log -p", false, "git --bare takes the directory it runs in for the repository, and its configuration from ./config there"},
		{"git --no-pager --bare diff", false, "git --bare takes the directory"},
	})
	// A deny holds against git's commands that do the same work.
	runShell(t, agents.Tools{Allow: []string{"read", "shell(git:*)"}, Deny: []string{"shell(git am:*)", "shell(git merge:*)", "shell(git log:*)"}}, ctx, []shellCase{
		{"git quiltimport --patches src", false, `git quiltimport applies patches as git am does: deny rule "shell(git am:*)"`},
		{"git merge-recursive HEAD -- HEAD abc", false, `git merge-recursive merges as git merge does: deny rule "shell(git merge:*)"`},
		{"git merge-resolve HEAD -- HEAD abc", false, "merges as git merge does"},
		{"git merge-octopus HEAD -- HEAD abc def", false, "merges as git merge does"},
		{"git merge-subtree HEAD -- HEAD abc", false, "merges as git merge does"},
		{"git merge-recursive-ours HEAD -- HEAD abc", false, "merges as git merge does"},
		{"git merge-ours HEAD", false, "merges as git merge does"},
		{"git whatchanged", false, `git whatchanged shows the log as git log does: deny rule "shell(git log:*)"`},
		{"git merge-base HEAD main", true, ""},
		{"git show HEAD", true, ""},
	})
	runShell(t, agents.Tools{Allow: []string{"read", "edit", "create", "shell(git log:*)"}}, ctx, []shellCase{
		{"git --bare log -p", false, "git --bare takes the directory it runs in for the repository"},
		{"git log -p", true, ""},
	})
	runShell(t, gitter, ctx, []shellCase{
		{`git remote-ext x 'rm -f README.md' <<< 'connect git-upload-pack'`, false, `git remote-ext pushes as git push does: deny rule "shell(git push:*)"`},
		{"git remote-fd 3", false, "pushes as git push does"},
		{"git upload-pack .", false, "git upload-pack is the serving end of a fetch"},
		{"git receive-pack /tmp/r.git", false, "runs the hooks of the repository it names"},
		{"git upload-archive .", false, "serving end"},
		{"git shell -c ls", false, "git shell runs the commands it is given"},
		{"git hook run pre-commit", false, "git hook runs the repository's hooks"},
		{"git for-each-repo --config=x gc", false, "runs git commands in every repository"},
		{"git maintenance start", false, "scheduler"},
		{"git merge-index prog -a", false, "runs the merge program it is given"},
		{"git credential-store get", false, "credential"},
		{"git http-backend", false, "server"},
		{"git bisect view", false, "git bisect view runs gitk"},
		{"git help -w log", false, "starts a browser"},
		{"git help --info log", false, "runs info"},
		{"git help log", true, ""},
		{"git absorb", false, "git absorb is not one of git's own commands: git runs git-absorb from PATH, or an alias"},
		{"git lfs status", false, "git lfs is git-lfs, a program apart from git"},
		{"git frobnicate", false, "not one of git's own commands"},
		{"git svn rebase", false, "git svn runs svn"},
		{"git cvsimport x", false, "not one of git's own commands"},
		{"git send-pack /tmp/remote.git master", false, `git send-pack pushes as git push does: deny rule "shell(git push:*)"`},
		{"git http-push https://example.com/r.git master", false, "pushes as git push does"},
		{"git -C . send-pack /tmp/remote.git master", false, "pushes as git push does"},
		{"git stage src/a.go", false, `git stage adds as git add does: deny rule "shell(git add:*)"`},
		// editors
		{"git commit", false, "git commit without -m, -F or -C starts an editor"},
		{"git commit -q -a", false, "starts an editor"},
		{"git commit --amend", false, "starts an editor"},
		{"git commit -e -m x", false, "starts an editor"},
		{"git commit -c HEAD", false, "starts an editor"},
		{"git commit --fixup=reword:HEAD", false, "starts an editor"},
		{"git commit -p -m x", false, "asks which hunks to take"},
		{"git commit -m x", true, ""},
		{"git commit -am x", true, ""},
		{"git commit --amend --no-edit", true, ""},
		{"git commit -F msg.txt", true, ""},
		{"git commit --fixup=HEAD", true, ""},
		{"git commit --mess=x", true, ""},
		{"git tag -a v1", false, "git tag -a without -m or -F starts an editor"},
		{"git tag -s v1", false, "starts an editor"},
		{"git tag -a v1 -m x", true, ""},
		{"git tag v1", true, ""},
		{"git tag -l", true, ""},
		{"git branch --edit-description", false, "starts an editor"},
		{"git branch -a", true, ""},
		{"git notes edit", false, "starts an editor"},
		{"git notes add", false, "starts an editor"},
		{"git notes --ref x add -m y", true, ""},
		{"git notes show", true, ""},
		{"git config --edit", false, "starts an editor"},
		{"git config -e", false, "starts an editor"},
		{"git merge -e topic", false, "starts an editor"},
		{"git merge --continue", false, "starts an editor"},
		{"git merge topic", true, ""},
		{"git pull --edit", false, "starts an editor"},
		{"git revert -e HEAD", false, "starts an editor"},
		{"git cherry-pick --edit HEAD", false, "starts an editor"},
		{"git rebase -i HEAD~2", false, "starts an editor"},
		{"git rebase --edit-todo", false, "starts an editor"},
		{"git add -e", false, "deny rule"},
		{"git checkout -p", false, "asks which hunks to take"},
		{"git reset --patch", false, "asks which hunks"},
		{"git stash -p", false, "asks which hunks"},
		{"git stash show -p", true, ""},
		{"git am -i x.patch", false, "-i starts an editor"},
		{"git replace --edit HEAD", false, "git replace --edit starts an editor"},
		{"git replace -e HEAD", false, "-e starts an editor"},
		{"git replace -l", true, ""},
		// merge strategies
		{"git merge -s evil topic", false, "git merge -s names a merge strategy that is not git's own: git runs git-merge-evil from PATH"},
		{"git rebase --strategy=evil main", false, "git-merge-evil"},
		{"git cherry-pick --strat evil HEAD", false, "git-merge-evil"},
		{"git cherry-pick -s HEAD", true, ""},
		{"git merge -s ours topic", true, ""},
		{"git merge -X theirs topic", true, ""},
		{"git subtree push --prefix=x origin main", false, "git subtree is not one of git's own commands"},
		// still allowed
		{"git status", true, ""},
		{"git grep -e x", true, ""},
		{"git branch -c main copy", true, ""},
		{"git ls-files -c", true, ""},
		{"git log -p -1", true, ""},
		{"git show -p HEAD", true, ""},
		{"git diff -p", true, ""},
		{"git fetch origin", true, ""},
		{"git commit -m x && git log -1", true, ""},
		{"git merge-base HEAD main", true, ""},
	})
}

// A repository nested in the project (a .git below the root, file or
// directory) is one whose configuration git run at the root follows
// once it is linked as a submodule: git diff and git status run its
// core.fsmonitor. A write there is allowed only by a rule that names
// that .git literally, by the file tools and the shell alike, and git
// init and clone, which make one, are writes of it.
func TestNestedRepositories(t *testing.T) {
	root, home := repo(t)
	ctx := Context{Root: root, Home: home}
	wide := agents.Tools{Allow: []string{"read", "edit(src/**)", "create(src/**)", "shell(git:*)", "shell(echo:*)"}}
	nested := "is in src/lib/.git, a repository nested in the project"
	for _, tt := range []struct {
		use     agents.ToolPattern
		allowed bool
		reason  string
	}{
		{agents.ToolPattern{Kind: "edit", Arg: "src/lib/.git", HasArg: true}, false, "src/lib/.git " + nested},
		{agents.ToolPattern{Kind: "create", Arg: "src/lib/.git/config", HasArg: true}, false, nested},
		{agents.ToolPattern{Kind: "create", Arg: "src/e/.git/objects/info/alternates", HasArg: true}, false, "src/e/.git, a repository nested"},
		{agents.ToolPattern{Kind: "read", Arg: "src/lib/.git/config", HasArg: true}, true, ""},
		{agents.ToolPattern{Kind: "create", Arg: "src/lib/a.go", HasArg: true}, true, ""},
		{agents.ToolPattern{Kind: "create", Arg: "src/evil/config", HasArg: true}, true, ""},
		{shellUse("echo 'gitdir: ../evil' > src/lib/.git"), false, nested},
		{shellUse("git init src/n"), false, "src/n/.git, a repository nested in the project"},
		{shellUse("git init-db src/n"), false, "src/n/.git, a repository nested"},
		{shellUse("git clone --no-checkout src/x src/r"), false, "git clone src/x is a local path"},
		{shellUse("git diff"), true, ""},
	} {
		d := Decide(wide, tt.use, ctx)
		assert.Equal(t, tt.allowed, d.Allowed, "%v: %s", tt.use, d.Reason)
		assert.Contains(t, d.Reason, tt.reason, "%v", tt.use)
	}
	// A rule that names the nested repository lets the agent write there.
	named := agents.Tools{Allow: []string{"read", "edit(src/**)", "create(src/**)", "edit(src/lib/.git/**)", "create(src/lib/.git/**)", "shell(echo:*)"}}
	runShell(t, named, ctx, []shellCase{
		{"echo x > src/lib/.git/config", true, ""},
		{"echo x > src/e/.git/config", false, "src/e/.git, a repository nested"},
	})
	// A clone of a remote URL writes the directory it makes and, but for
	// --bare and --mirror, the repository nested in it: refused for that
	// repository, not for the URL, which it only reads.
	vendor := agents.Tools{Allow: []string{"read", "shell(git clone:*)", "write(vendor/**)"}}
	clone := "git clone writes vendor/b/.git: vendor/b/.git is in vendor/b/.git, a repository nested in the project"
	runShell(t, vendor, ctx, []shellCase{
		{"git clone https://example.com/a/b.git vendor/b", false, clone + ": git run at the repository root follows its configuration once it is linked as a submodule (git diff and git status run its core.fsmonitor), so only a rule that names it lets the agent write there, such as create(vendor/b/.git/**)"},
		{"git clone git@example.com:a/b.git vendor/b", false, clone},
		{"git clone ssh://example.com/a/b vendor/b/", false, clone},
		{"git clone -o up --depth 1 https://example.com/a/b.git vendor/b", false, clone},
		{"git clone https://example.com/a/b.git", false, "git clone writes b: no allow rule for create matches b"},
		{"git clone git@example.com:b.git", false, "git clone writes b: no allow rule"},
		// git names the directory as git_url_basename does.
		{"git clone https://example.com/a/b/.git", false, "git clone writes b: no allow rule for create matches b"},
		{"git clone https://example.com/a/b.bundle", false, "git clone writes b: no allow rule for create matches b"},
		{"git clone --bare https://example.com/a/b.git", false, "git clone writes b.git: no allow rule for create matches b.git"},
		{"git clone --mirror git@example.com:a/b", false, "git clone writes b.git: no allow rule for create matches b.git"},
		{"git clone --bare https://example.com/a/b.git vendor/b.git", true, ""},
		{"git clone --mirror -o up git@example.com:a/b.git vendor/b", true, ""},
	})
	vendor.Allow = append(vendor.Allow, "write(vendor/b/.git)", "write(vendor/b/.git/**)")
	runShell(t, vendor, ctx, []shellCase{
		{"git clone https://example.com/a/b.git vendor/b", true, ""},
		{"git clone https://example.com/a/c.git vendor/c", false, "vendor/c/.git is in vendor/c/.git, a repository nested in the project"},
	})
}

// Under patterns, git reaching a repository by a local path or a
// file:// URL is refused: git runs upload-pack, receive-pack or
// upload-archive in it, with that repository's configuration, which the
// agent may have written. A configured remote and a network URL pass.
func TestGitRemotes(t *testing.T) {
	root, home := repo(t)
	require.NoError(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[remote \"origin\"]\n\turl = https://example.com/r.git\n"), 0o644))
	ctx := Context{Root: root, Home: home}
	local := "git runs receive-pack in that repository, with its configuration"
	runShell(t, agents.Tools{Allow: []string{"read", "edit(src/**)", "create(src/**)", "shell(git:*)"}}, ctx, []shellCase{
		{"git push ./src/x HEAD:refs/heads/y", false, "git push ./src/x is a local path: " + local},
		{"git push src/x HEAD:y", false, "is a local path"},
		{"git push /tmp/pu/src/x HEAD:y", false, "is a local path"},
		{"git push --repo=src/x", false, "git push src/x is a local path"},
		{"git push file:///tmp/x main", false, "is a file:// URL, a local repository"},
		{"git push evil main", true, ""},
		{"git fetch ./src/x", false, "git runs upload-pack in that repository"},
		{"git fetch --depth 1 src/x", false, "is a local path"},
		{"git fetch --multiple origin src/x", false, "is a local path"},
		{"git fetch -m origin src/x", false, "git fetch src/x is a local path"},
		{"git fetch -qm origin src/x", false, "git fetch src/x is a local path"},
		{"git pull . main", false, "is a local path"},
		{"git ls-remote ../x", false, "is a local path"},
		{"git clone src/x src/y", false, "is a local path"},
		{"git archive --remote=./src/x --format=evil HEAD", false, "git archive ./src/x is a local path: git runs upload-archive in that repository"},
		{"git archive --remote ./src/x HEAD", false, "git runs upload-archive"},
		{"git archive --rem=src/x HEAD", false, "git runs upload-archive"},
		{"git request-pull v1 ./src/x", false, "is a local path"},
		{"git remote add evil ./src/x", false, "is a local path"},
		{"git submodule add ./src/x src/y", false, "is a local path"},
		// A value is taken as git's manual says (gitOptionTables): an
		// option whose value is optional takes none from the next word,
		// and one that needs a value takes it.
		{"git remote add --mirror evil ./src/x", false, "git remote ./src/x is a local path"},
		{"git push --recurse-submodules check ./src/x main", false, "git push ./src/x is a local path"},
		{"git submodule add --name n ./src/x src/y", false, "git submodule ./src/x is a local path"},
		{"git submodule add --depth 1 ./src/x src/y", false, "git submodule ./src/x is a local path"},
		{"git push --recurse-submodules check origin main", true, ""},
		{"git fetch evil::x", false, "names a remote helper"},
		{"git fetch evil://x", false, "git-remote-evil from PATH"},
		{"git push origin main", true, ""},
		{"git push", true, ""},
		{"git fetch origin", true, ""},
		{"git fetch --all", true, ""},
		{"git push https://example.com/r.git main", true, ""},
		{"git ls-remote git@example.com:r.git", true, ""},
		{"git fetch ssh://example.com/r.git", true, ""},
		{"git archive --format=tar HEAD", true, ""},
		{"git remote add up https://example.com/up.git", true, ""},
		{"git remote -v", true, ""},
		{"git remote add -t main evil ./src/x", false, "is a local path"},
		{"git remote set-url --push origin ./src/x", false, "is a local path"},
		{"git remote set-url --add origin ./src/x", false, "is a local path"},
		{"git submodule set-url sub ./src/x", false, "git submodule set-url writes the submodules' files"},
		{"git submodule add -b main ./src/x src/y", false, "is a local path"},
		{"git -C src push x main", false, "git runs in"},
		{"git clone --origin o src/x src/y", false, "is a local path"},
		{"git fetch --upload-pack=x origin", false, ""},
		{"git remote add evil src/x", false, "is a local path"},
		{"git remote add evil x", true, ""},
	})
	// Where the agent may write .gitmodules, it names the URLs
	// submodule update reaches.
	runShell(t, agents.Tools{Allow: []string{"read", "edit", "create", "shell(git:*)"}}, ctx, []shellCase{
		{"git push evil main", false, "git push evil names no remote the repository's configuration sets (remote.evil.url), so git takes it for a path, where the agent may make a repository: it may create or change evil/.git/config"},
		{"git submodule update --init", false, "git submodule update clones and fetches from the URLs .gitmodules names, a file the agent may write"},
		{"git submodule status", true, ""},
		{"git pull --rebase origin main", true, ""},
		{"git pull -j ./src/x main", false, "git pull ./src/x is a local path"},
		{"git pull --jobs ./src/x main", false, "git pull ./src/x is a local path"},
		{"git pull --cleanup strip ./src/x main", false, "git pull ./src/x is a local path"},
		{"git pull -j origin main", true, ""},
		{"git fetch", true, ""},
	})
}

// BenchmarkGitOptions decides git lines whose options are read with
// their subcommand's table (gitOptionTables), twice for one that
// reaches another repository.
func BenchmarkGitOptions(b *testing.B) {
	root, home := repo(b)
	require.NoError(b, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	require.NoError(b, os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[remote \"origin\"]\n\turl = https://example.com/r.git\n"), 0o644))
	tools := agents.Tools{Allow: []string{"read", "shell(git:*)"}}
	ctx := Context{Root: root, Home: home}
	for _, line := range []string{"git log --oneline -5 --stat", "git push --force-with-lease origin main"} {
		b.Run(strings.Fields(line)[1], func(b *testing.B) {
			for b.Loop() {
				if d := Decide(tools, shellUse(line), ctx); !d.Allowed {
					b.Fatal(d.Reason)
				}
			}
		})
	}
}

// A subcommand's table is parsed once and kept: later decisions share it.
func TestGitTableKept(t *testing.T) {
	first := gitTable("push")
	require.NotEmpty(t, first)
	assert.Same(t, &first[0], &gitTable("push")[0])
	assert.Nil(t, gitTable("no-such-subcommand"))
}

// git's plumbing has tables too (git 2.39's git SUB -h): under patterns
// an option they do not list is refused. What they write of the working
// tree is decided with their options read as git reads them: a long one
// by its prefix, short ones in clusters.
func TestGitPlumbing(t *testing.T) {
	root, home := repo(t)
	require.NoError(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	ctx := Context{Root: root, Home: home}
	runShell(t, agents.Tools{Allow: []string{"read", "edit(src/**)", "create(src/**)", "shell(git:*)"}}, ctx, []shellCase{
		{"git update-ref --frob refs/heads/x HEAD", false, "git update-ref --frob is an option bn does not know of git update-ref"},
		{"git hash-object -w --frob src/a.go", false, "git hash-object --frob is an option bn does not know of git hash-object"},
		{"git read-tree --frob HEAD", false, "git read-tree --frob is an option bn does not know"},
		{"git checkout-index -x", false, "git checkout-index -x is an option bn does not know"},
		{"git update-index --frob src/a.go", false, "git update-index --frob is an option bn does not know"},
		{"git symbolic-ref --frob HEAD", false, "is an option bn does not know"},
		{"git unpack-objects --frob", false, "is an option bn does not know"},
		{"git update-ref -m msg refs/heads/x HEAD", true, ""},
		{"git update-ref -d refs/heads/x", true, ""},
		{"git hash-object -w src/a.go", true, ""},
		{"git hash-object -t blob --stdin", true, ""},
		{"git write-tree --prefix=src/", true, ""},
		{"git commit-tree -m msg -p HEAD 4b825dc642cb6eb9a060e54bf8d69288fbee4904", true, ""},
		{"git symbolic-ref --short HEAD", true, ""},
		{"git symbolic-ref --no-recurse HEAD", true, ""},
		{"git update-index --refresh -q", true, ""},
		{"git update-index --add --cacheinfo 100644,4b825dc642cb6eb9a060e54bf8d69288fbee4904,src/b.go", true, ""},
		{"git update-index --no-assume-unchanged src/a.go", true, ""},
		{"git mktree --missing", true, ""},
		{"git read-tree HEAD", true, ""},
		{"git read-tree -m HEAD", true, ""},
		{"git merge-file -p src/a.go src/a.go src/a.go", true, ""},
		{"git fsck --no-dangling", true, ""},
		// They write the working tree as checkout does, with their
		// options read as git reads them.
		{"git read-tree -u -m HEAD", false, "git read-tree -u writes the files of the tree it reads, and the rules limit what the agent may change"},
		{"git read-tree -mu HEAD", false, "git read-tree -u writes the files of the tree it reads"},
		{"git checkout-index -af", false, "git checkout-index writes the files of the index"},
		{"git merge-file -q src/a.go src/a.go src/a.go", false, "git merge-file writes the merge into its first file"},
		{"git reset --har HEAD~1", false, "git reset --hard (--merge, --keep) writes every file"},
		{"git reset --ha HEAD~1", false, "git reset --hard"},
		{"git clean -fenx", false, "git clean removes files it finds untracked"},
		{"git clean -fn", true, ""},
		{"git clean --dry -f", true, ""},
		{"git restore -WsHEAD .env", false, ".env"},
		{"git restore --sou HEAD src/a.go", true, ""},
	})
}
