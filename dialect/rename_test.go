package dialect

import (
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/stretchr/testify/assert"
)

// Each tool's one rule maps a name it refuses to the nearest it accepts,
// and gives back unchanged a name nothing maps.
func TestMapID(t *testing.T) {
	for _, tt := range []struct {
		mapID      func(string) string
		name, want string
	}{
		{qwenID, "powershell-5.1-expert", "powershell-5-1-expert"},
		{qwenID, "C#-pro", "C--pro"},
		{qwenID, "-lead_", "lead"},
		{qwenID, "x", "x"},       // too short: not mapped, and refused
		{qwenID, "main", "main"}, // a reserved word
		{qwenID, "a.b.c", "a-b-c"},
		{kebab, "CSharpExpert", "csharp-expert"},
		{kebab, "snake_case_name", "snake-case-name"},
		{kebab, "powershell-5.1-expert", "powershell-5-1-expert"},
	} {
		assert.Equal(t, tt.want, tt.mapID(tt.name), tt.name)
	}
	long := strings.Repeat("abcdefghi-", 6)
	assert.Equal(t, strings.Repeat("abcdefghi-", 4)+"abcdefghi", qwenID(long), "cut to 50, without a trailing '-'")
}

// A rename follows the agent into what other agents say of it: the
// sub-agents a tool list lets one start, and a tool's own fields that
// name agents (Copilot's hand-offs).
func TestRenameRefs(t *testing.T) {
	handoff := &agents.Map{}
	handoff.Set("label", "Go")
	handoff.Set("agent", "a.b")
	def := agents.Definition{Tools: agents.Tools{Allow: []string{"read", "agent(a.b)", "agent(other)"}, Deny: []string{"agent(a.b)"}}}
	def.Target("copilot").Fields.Set("handoffs", []any{handoff})
	RenameRefs(&def, copilotInfo, map[string]string{"a.b": "a-b"})
	assert.Equal(t, []string{"read", "agent(a-b)", "agent(other)"}, def.Tools.Allow)
	assert.Equal(t, []string{"agent(a-b)"}, def.Tools.Deny)
	got, _ := def.TargetOf("copilot").Fields.Get("handoffs")
	name, _ := got.([]any)[0].(*agents.Map).Get("agent")
	assert.Equal(t, "a-b", name)
	was, _ := handoff.Get("agent")
	assert.Equal(t, "a.b", was, "the definition it was cloned from is left as it was")
}

// bn's shell patterns as the regular expressions the Kiro CLI matches a
// whole command with, and back as the Q CLI's reader reads them.
func TestShellRegexp(t *testing.T) {
	for _, tt := range []struct{ arg, re string }{
		{"git push:*", `git push([ :].*)?`},
		{"git log *", `git log .*`},
		{"rm -rf", `rm -rf( .*)?`},
		{"npm run test.*", `npm run test\..*`},
		{"git log * --oneline", `git log .* --oneline`},
	} {
		assert.Equal(t, tt.re, shellRegexp(tt.arg), tt.arg)
		back, ok := shellGlob(tt.re)
		assert.True(t, ok, tt.re)
		assert.Equal(t, tt.arg, back, tt.re)
	}
}
