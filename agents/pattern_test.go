package agents

import (
	"strings"
	"testing"

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
		// An MCP server named like a kind is the server only with a slash.
		{"fetch/*", "fetch/fetch", true},
		{"fetch", "fetch/fetch", false},
		{"webfetch", "fetch/fetch", false},
		{"fetch/*", "webfetch(example.com)", false},
		{"fetch", "webfetch(example.com)", true},
		{"memory/create_entities", "memory/create_entities", true},
		{"memory", "memory/create_entities", false},
	}
	for _, tt := range tests {
		p, err := ParseToolPattern(tt.pattern)
		require.NoError(t, err, tt.pattern)
		req, err := ParseToolPattern(tt.tool)
		require.NoError(t, err, tt.tool)
		assert.Equal(t, tt.want, p.Matches(req), "%s matches %s", tt.pattern, tt.tool)
	}
}

// A slash names an MCP server whatever it is called, and String writes it
// so again; MCPPattern spells one for the readers.
func TestMCPPatterns(t *testing.T) {
	p, err := ParseToolPattern("fetch/fetch")
	require.NoError(t, err)
	assert.Equal(t, ToolPattern{Kind: "fetch", Arg: "fetch", HasArg: true, MCP: true}, p)
	assert.Nil(t, p.Kinds())
	assert.Equal(t, "fetch/fetch", p.String())
	assert.Equal(t, "fetch/fetch", MCPPattern("fetch", "fetch"))
	assert.Equal(t, "fetch/*", MCPPattern("fetch", ""))
	assert.Equal(t, "github(x)", MCPPattern("github", "x"))
	assert.Equal(t, "github", MCPPattern("github", "*"))
	kind, _ := ParseToolPattern("fetch")
	assert.Equal(t, []Kind{KindWebFetch}, kind.Kinds())
	tools := Tools{Allow: []string{"read", "fetch/fetch"}}
	assert.True(t, tools.Uses(KindRead))
	assert.False(t, tools.Uses(KindWebFetch), "an MCP server named fetch is not bn's web fetch")
	assert.Equal(t, Tools{Allow: []string{"fetch/*", "webfetch"}}, Tools{Allow: []string{"fetch", "fetch/*", "fetch/x"}}.Normalize())
	assert.True(t, Decide(Tools{All: true, Deny: []string{"fetch/*"}}, kind).Allowed, "denying the server leaves web fetch")
}

func TestParseToolPatternRejects(t *testing.T) {
	for _, bad := range []string{"", " view", "view ", "shell(", "shell(git", "shell()", "(git)", "shell)", "a/", "/a", "a/b/c", "sh ell", "shell(x)y"} {
		_, err := ParseToolPattern(bad)
		assert.Error(t, err, "%q", bad)
	}
}

// A slip of the keys for a kind is refused with the kind meant, while
// names real MCP servers have pass as servers, and a slash always names
// one: the refusal's own fix parses and is written back so.
func TestToolPatternTypos(t *testing.T) {
	for _, tc := range []struct{ pattern, meant string }{
		{"shel", `did you mean "shell"?`},
		{"shel(git diff:*)", `did you mean "shell(git diff:*)"?`},
		{"reed", `did you mean "read"?`},
		{"Sehll(ls)", `did you mean "shell(ls)"?`},
		{"grpe", `did you mean "grep"?`},
		{"wirte", `did you mean "write"?`},
		{"lisst", `did you mean "list"?`},
		{"skil", `did you mean "skill"?`},
		{"bsah", `did you mean "bash"?`},
		{"webfetc", `did you mean "webfetch"?`},
	} {
		_, err := ParseToolPattern(tc.pattern)
		require.Error(t, err, tc.pattern)
		assert.Contains(t, err.Error(), tc.meant, tc.pattern)
	}
	_, err := ParseToolPattern("shel(ls)")
	assert.EqualError(t, err, `tool pattern "shel(ls)": "shel" is no tool kind; did you mean "shell(ls)"? An MCP server named "shel" is written "shel/ls"`)

	for _, server := range []string{"github", "git", "tasks", "agents", "plane", "reader", "redis", "code", "head", "gist", "lint", "blob", "spell", "mask", "uri", "lsp2", "context7", "playwright"} {
		p, err := ParseToolPattern(server)
		require.NoError(t, err, server)
		assert.True(t, p.MCP, server)
		assert.Equal(t, server, p.String())
	}
	p, err := ParseToolPattern("shel/*")
	require.NoError(t, err)
	assert.Equal(t, "shel/*", p.String())
	assert.Equal(t, "reed/x", MCPPattern("reed", "x"))
	assert.Equal(t, "shel/*", MCPPattern("shel", ""))
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

// TestToolsBeyond names every rule that grants more than the old rules,
// and nothing the old rules already grant.
func TestToolsBeyond(t *testing.T) {
	for _, tt := range []struct {
		name     string
		old, new Tools
		want     []string
	}{
		{"same", Tools{Allow: []string{"read", "shell(git:*)"}}, Tools{Allow: []string{"read", "shell(git:*)"}}, nil},
		{"narrower", Tools{Allow: []string{"read", "shell"}}, Tools{Allow: []string{"shell(git diff:*)"}}, nil},
		{"a new kind", Tools{Allow: []string{"read"}}, Tools{Allow: []string{"read", "edit"}}, []string{"edit"}},
		{"a wider pattern", Tools{Allow: []string{"shell(git diff:*)"}}, Tools{Allow: []string{"shell(git:*)"}}, []string{"shell(git:*)"}},
		{"every tool", Tools{Allow: []string{"read"}}, Tools{All: true}, []string{"every tool"}},
		{"a deny dropped", Tools{All: true, Deny: []string{"shell(rm:*)"}}, Tools{All: true}, []string{"no longer denies shell(rm:*)"}},
		{"a deny kept wider", Tools{All: true, Deny: []string{"shell(rm:*)"}}, Tools{All: true, Deny: []string{"shell"}}, nil},
		{"no tools to some", Tools{}, Tools{Allow: []string{"view"}}, []string{"view"}},
		{"unrestricted to a list", Tools{All: true}, Tools{Allow: []string{"read"}}, nil},
	} {
		assert.Equal(t, tt.want, tt.new.Beyond(tt.old), tt.name)
	}
}

func TestClosest(t *testing.T) {
	fields := []string{"description", "prompt", "prompt-file", "model", "tools"}
	for _, tc := range []struct{ word, want string }{
		{"promt-file", "prompt-file"},
		{"Descripton", "description"},
		{"modle", "model"},
		{"x", ""},
		{"descriptionnnnnnnnnnnnnnn", ""},
		// Longer than any field by more than the distance allowed: no
		// distance is worked out (a 400 KB name took seconds).
		{strings.Repeat("a", 400000), ""},
	} {
		assert.Equal(t, tc.want, Closest(tc.word, fields), "%.40s", tc.word)
	}
}
