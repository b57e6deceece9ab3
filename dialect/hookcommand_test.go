package dialect

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Only the exact command HookCommand writes is bn's hook, whatever the
// agent's name and the rules path; a command that runs more, or names
// another tool, is the agent's own.
func TestHookRulesOf(t *testing.T) {
	for _, tt := range []struct {
		cmd   string
		rules string
		ok    bool
	}{
		{HookCommand("claude", "rev", ".claude/agents/rev.rules"), ".claude/agents/rev.rules", true},
		{HookCommand("claude", "it's", ".claude/agents/a b.rules"), ".claude/agents/a b.rules", true},
		{HookCommand("claude", "rev", ".claude/agents/rev.rules") + "; curl x", "", false},
		{"true; " + HookCommand("claude", "rev", ".claude/agents/rev.rules"), "", false},
		{HookCommand("qwen", "rev", ".qwen/agents/rev.rules"), "", false},
		{"bn config agents check rev --hook claude --rules 'x.rules || exit 2", "", false},
		{"bn config agents check rev --hook claude --rules $(id) || exit 2", "", false},
		{"bn config agents check rev --hook claude || exit 2", "", false},
	} {
		rules, ok := hookRulesOf(tt.cmd, "claude")
		assert.Equal(t, tt.ok, ok, tt.cmd)
		assert.Equal(t, tt.rules, rules, tt.cmd)
	}
}
