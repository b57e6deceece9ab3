package enforce

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/stretchr/testify/require"
)

// git prints the files its pathspecs select in the repository's history
// and the files its revision paths name from the repository's root: a
// deny of reading holds against those as against the names a line
// writes.
func TestGitNamedUnreadable(t *testing.T) {
	root, home := repo(t)
	require.NoError(t, os.WriteFile(filepath.Join(root, ".env"), nil, 0o644))
	ctx := Context{Root: root, Home: home}
	denied := `which the agent may not read: deny rule "read(.env)"`
	lines := []shellCase{
		{"git log -L1,1:.env", false, `git log -L1,1:.env names .env, ` + denied},
		{"git log -L 1,1:.env", false, denied},
		{"git log -L:main:.env", false, denied},
		{`git log -p -- ":(glob).env"`, false, `the pathspec :(glob).env may select .env, ` + denied},
		{`git log -p -- ":(icase).ENV"`, false, denied},
		{`git diff HEAD -- ":/.env"`, false, denied},
		{`git log -p -- "*env"`, false, `the pathspec *env may select .env`},
		{`git log -p -- *env`, false, `the pathspec *env may select .env`},
		{`git log -p -- "?env" '[.]env' '.e*'`, false, denied},
		{"git show HEAD:.env", false, `HEAD:.env names .env in the repository, ` + denied},
		{"git show HEAD~2:./.env", false, denied},
		{"git show HEAD:src/../.env", false, denied},
		{"git cat-file -p HEAD:.env", false, denied},
		{"git grep -h . HEAD -- .env", false, denied},
		{"git grep -h . HEAD:.env", false, denied},
		{"git show :.env", false, denied},
		{"git show :0:.env", false, denied},
		{"git archive HEAD .env", false, denied},
		{"git blame .env", false, denied},
		{"git diff --no-index .env /dev/null", false, denied},
		{`git log -p -- ":(top,glob)**/.env"`, false, denied},
		{`git log -p -- ":(top)"`, false, denied},
		{"git log -p -- .", false, `the pathspec . may select .env`},
		{`git --icase-pathspecs log -p -- .ENV`, false, denied},
		{"cd src && git show HEAD:.env", false, denied},
		{"cd src && git log -p -- ../.env", false, denied},
		// What names no denied file stays allowed.
		{"git log -p -- . ':!.env'", true, ""},
		{"git log -p -- . ':(exclude).env'", true, ""},
		{"git log -p -- . ':!src'", false, denied},
		// Only exclusions are every other path, as no pathspec is: advisory.
		{"git diff main --stat -- ':!vendor'", true, ""},
		{"git log -p -- ':^.env' ':/'", true, ""},
		{"git diff --stat -- src/", true, ""},
		{`git diff -- "*.go"`, true, ""},
		{`git log -p -- ":(glob)src/**"`, true, ""},
		{"git log --oneline -5", true, ""},
		{"git log -p -1", true, ""},
		{"git show HEAD", true, ""},
		{"git show HEAD:src/a.go", true, ""},
		{"git diff HEAD~1 --stat", true, ""},
		{"git log --author Jane --grep '.*env' --oneline", true, ""},
		{"git grep -n '.*env' -- src", true, ""},
		{"git grep -e '*env' src", true, ""},
		{"git blame -L 10,40 src/a.go", true, ""},
		{"cd src && git log -p -- .", true, ""},
		{"cd src && git show HEAD:.env", false, denied},
		{"git status .", true, ""},
	}
	for _, tools := range []agents.Tools{
		{Allow: []string{"read", "shell(git:*)"}, Deny: []string{"read(.env)"}},
		{All: true, Deny: []string{"read(.env)"}},
	} {
		runShell(t, tools, ctx, lines)
	}
	// A deny of a directory's files holds against the directory and any
	// pattern that reaches into it.
	secrets := agents.Tools{Allow: []string{"read", "shell(git log:*)", "shell(git show:*)", "shell(git diff:*)"}, Deny: []string{"read(secrets/*)"}}
	runShell(t, secrets, ctx, []shellCase{
		{"git log -p -- secrets", false, `the pathspec secrets may select secrets/*, which the agent may not read: deny rule "read(secrets/*)"`},
		{"git show HEAD:secrets/key", false, "may not read"},
		{"git show HEAD:secrets", false, `HEAD:secrets names the directory secrets in the repository, which holds secrets/*, which the agent may not read`},
		{"git show HEAD:", false, `HEAD: names the repository's root, which holds secrets/*, which the agent may not read`},
		{`git log -p -- "sec*"`, false, "may not read"},
		{`git log -p -- ":(glob)*/key"`, false, "may not read"},
		{`git log -p -- ":(glob)src/*/key"`, true, ""},
		{`git log -p -- "*/key"`, false, "may not read"},
		{"git log -p -- . ':!secrets'", true, ""},
		{"git log -p -- src ':!secrets/a'", true, ""},
		{"git log -p -- . ':!secrets/a'", false, "may not read"},
		{"git diff -- src/", true, ""},
	})
}
