package agents

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestToolPatternMatches(t *testing.T) {
	tests := []struct {
		pattern, tool string
		want          bool
	}{
		{"shell(git:*)", "shell(git:status)", true},
		{"shell(git:*)", "shell(git status --short)", true},
		{"shell(git:*)", "shell(git push origin/main)", true},
		{"shell(git:*)", "shell(git)", true},
		{"shell(git:*)", "shell(gitk)", false},
		{"shell(git push)", "shell(git push)", true},
		{"shell(git push)", "shell(git  push   origin main)", true},
		{"shell(git push)", "shell(git pushy)", false},
		{"shell(git push)", "shell(git)", false},
		{"shell(bn agent terminate:*)", "shell(bn agent terminate 4)", true},
		{"shell(bn agent terminate:*)", "shell(bn agent list)", false},
		{"shell(*)", "shell(rm -rf /)", true},
		{"shell", "shell(anything at all)", true},
		{"shell", "shell", true},
		{"Shell", "shell(ls)", true},
		{"shell(ls)", "shell", false},
		{"write", "write(src/a.go)", true},
		{"write(src/*.go)", "write(src/a.go)", true},
		{"write(src/*.go)", "write(src/a.ts)", false},
		{"write(.env)", "write(.env)", true},
		{"write(.env)", "write(.envrc)", false},
		{"read([abc])", "read([abc])", true},
		{"binnacle/*", "binnacle/task_create", true},
		{"binnacle/*", "binnacle(task_create)", true},
		{"binnacle", "binnacle/task_create", true},
		{"binnacle(binnacle-orient)", "binnacle/binnacle-orient", true},
		{"binnacle(binnacle-orient)", "binnacle/binnacle-goodbye", false},
		{"github/*", "binnacle/x", false},
		{"view", "grep", false},
	}
	for _, tt := range tests {
		p, err := ParseToolPattern(tt.pattern)
		require.NoError(t, err, tt.pattern)
		req, err := ParseToolPattern(tt.tool)
		require.NoError(t, err, tt.tool)
		assert.Equal(t, tt.want, p.Matches(req), "%s matches %s", tt.pattern, tt.tool)
	}
}

func TestParseToolPatternRejects(t *testing.T) {
	for _, bad := range []string{"", " view", "view ", "shell(", "shell(git", "shell()", "(git)", "shell)", "a/", "/a", "a/b/c", "sh ell", "shell(x)y"} {
		_, err := ParseToolPattern(bad)
		assert.Error(t, err, "%q", bad)
	}
}

func TestLintToolPattern(t *testing.T) {
	p, _ := ParseToolPattern("shell(git:log)")
	assert.Contains(t, LintToolPattern(p), `did you mean "shell(git log)" or "shell(git:*)"?`)
	for _, ok := range []string{"shell(git:*)", "shell(git log)", "view", "binnacle(a:b)"} {
		p, _ := ParseToolPattern(ok)
		assert.Empty(t, LintToolPattern(p), ok)
	}
}

func TestDecideDenyWins(t *testing.T) {
	tools := Tools{Allow: []string{"shell(git:*)", "view"}, Deny: []string{"shell(git push)"}}
	req := func(s string) ToolPattern { p, _ := ParseToolPattern(s); return p }
	assert.Equal(t, Decision{Allowed: false, Rule: "shell(git push)", List: "deny"}, Decide(tools, req("shell(git push --force)")))
	assert.Equal(t, Decision{Allowed: true, Rule: "shell(git:*)", List: "allow"}, Decide(tools, req("shell(git status)")))
	assert.Equal(t, Decision{}, Decide(tools, req("write")))
	broken := Tools{Allow: []string{"view", "shell(("}, Deny: []string{"shell("}}
	assert.Equal(t, Decision{Allowed: false, Rule: "shell(", List: "deny"}, Decide(broken, req("view")), "a malformed deny fails closed")
}

func FuzzToolPattern(f *testing.F) {
	for _, s := range []string{"shell(git:*)", "binnacle/*", "write(src/*.go)", "view", "shell(a b:*)", "x(*a*b*)"} {
		f.Add(s, "shell(git status)")
	}
	f.Fuzz(func(t *testing.T, pattern, tool string) {
		p, err := ParseToolPattern(pattern)
		if err != nil {
			return
		}
		again, err := ParseToolPattern(p.String())
		if err != nil || again != p {
			t.Fatalf("%q: String() = %q does not parse back (%v)", pattern, p.String(), err)
		}
		if !p.HasArg && !p.Matches(p) {
			t.Fatalf("%q does not match itself", pattern)
		}
		if req, err := ParseToolPattern(tool); err == nil {
			p.Matches(req)
			Decide(Tools{Allow: []string{pattern}, Deny: []string{pattern}}, req)
		}
	})
}

func TestCheckName(t *testing.T) {
	for _, ok := range []string{"a", "worker", "powershell-5.1-expert", "A_b-C", "x9"} {
		assert.NoError(t, CheckName(ok), ok)
	}
	for _, bad := range []string{"", "-a", "_a", ".a", "a.", "a..b", "a/b", "a b", "a:b", strings.Repeat("a", 65)} {
		assert.Error(t, CheckName(bad), bad)
	}
}

// A shell line is decided one simple command at a time: a pattern for one
// command never lets another ride along after it, inside it, or hidden
// in a line that does not parse.
func TestDecideShellLines(t *testing.T) {
	diffOnly := Tools{Allow: []string{"read", "shell(git diff:*)"}}
	noRm := Tools{All: true, Deny: []string{"shell(rm:*)"}}
	for _, tt := range []struct {
		tools   Tools
		line    string
		allowed bool
		command string
	}{
		{diffOnly, "git diff --stat", true, ""},
		{diffOnly, "git  diff   HEAD~1", true, ""},
		{diffOnly, "git diff && expr 4000 + 242", false, "expr 4000 + 242"},
		{diffOnly, "git diff; rm -rf ~", false, "rm -rf ~"},
		{diffOnly, "git diff | sh", false, "sh"},
		{diffOnly, "git diff $(rm -rf ~)", false, "rm -rf ~"},
		{diffOnly, "git diff `id`", false, "id"},
		{diffOnly, "if true; then git diff; fi", false, "true"},
		{diffOnly, "PATH=/tmp/evil git diff", false, ""}, // one command: decided as written
		{diffOnly, "git diff > notes.txt && git diff", true, "git diff"},
		{diffOnly, "git diff 'unterminated", false, ""},
		{noRm, "ls && rm -rf ~", false, "rm -rf ~"},
		{noRm, "ls | xargs echo", true, "xargs echo"},
		{noRm, "echo 'unterminated", false, ""},
		{Tools{All: true}, "echo 'unterminated", true, ""},
		{Tools{Allow: []string{"shell(*)"}}, "a && b", true, "b"},
	} {
		d := Decide(tt.tools, ToolPattern{Kind: "shell", Arg: tt.line, HasArg: true})
		assert.Equal(t, tt.allowed, d.Allowed, "%q with %v: %+v", tt.line, tt.tools, d)
		assert.Equal(t, tt.command, d.Command, "%q: the command that decided", tt.line)
	}
}

// A line nested deeper than bn decides is undecided, at once: refused
// unless every command is allowed.
func TestDecideDeepShellLine(t *testing.T) {
	deep := strings.Repeat("$(", 100000) + "x" + strings.Repeat(")", 100000)
	start := time.Now()
	d := Decide(Tools{Allow: []string{"shell(x:*)", "shell($(:*)"}}, ToolPattern{Kind: "shell", Arg: deep, HasArg: true})
	assert.False(t, d.Allowed)
	assert.True(t, d.Unparsed)
	assert.Less(t, time.Since(start), time.Second)
	assert.True(t, Decide(Tools{All: true}, ToolPattern{Kind: "shell", Arg: deep, HasArg: true}).Allowed)
	ok := strings.Repeat("$(", 60) + "x" + strings.Repeat(")", 60)
	assert.False(t, Decide(Tools{Allow: []string{"shell(x)"}}, ToolPattern{Kind: "shell", Arg: "echo " + ok, HasArg: true}).Unparsed)
}
