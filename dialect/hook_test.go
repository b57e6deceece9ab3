package dialect_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The agent's own Claude Code hooks stay as they were: bn's PreToolUse
// entry is added beside them on export and taken out again on import.
func TestClaudeHookKeepsTheAgentsOwn(t *testing.T) {
	cat := catalog(t)
	d, _ := dialect.All().Lookup("claude")
	own := "---\nname: linted\ndescription: d\ntools: Read, Bash\nhooks:\n  PreToolUse:\n  - matcher: Edit\n    hooks:\n    - type: command\n      command: ./check-edit.sh\n" +
		"  PostToolUse:\n  - matcher: Write\n    hooks:\n    - type: command\n      command: ./lint.sh\n---\nLint.\n"
	im, err := d.Read(dialect.Source{Path: filepath.Join(".claude", "agents", "linted.md"), Rel: "linted.md", Data: []byte(own)}, cat)
	require.NoError(t, err)
	before, _ := im.Def.TargetOf("claude").Fields.Get("hooks")

	def := im.Def.Clone()
	def.Tools = agents.Tools{Allow: []string{"read", "shell(git diff:*)"}}
	def.Target("claude").Fields.Delete("tools") // the hint no longer says what the agent has
	out, err := d.Render(def, def.Name, "# marker\n", cat)
	require.NoError(t, err)
	text := string(out.Content)
	assert.Contains(t, text, "command: ./check-edit.sh")
	assert.Contains(t, text, "command: ./lint.sh")
	assert.Contains(t, text, "command: bn config agents check linted --hook claude || exit 2")
	assert.Equal(t, 1, strings.Count(text, "PreToolUse:"), "one PreToolUse list, bn's entry in it")

	back, err := d.Read(dialect.Source{Path: filepath.Join(".claude", "agents", "linted.md"), Rel: "linted.md", Data: out.Content}, cat)
	require.NoError(t, err)
	after, _ := back.Def.TargetOf("claude").Fields.Get("hooks")
	assert.Equal(t, before, after, "the agent's own hooks, without bn's")
	assert.Contains(t, strings.Join(back.Notes, "\n"), "the PreToolUse hook bn wrote")
}
