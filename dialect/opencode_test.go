package dialect_test

import (
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A pattern of a kind the agent has whole is no limit: OpenCode and Kilo
// keep the whole key, and an ask or deny of a pattern goes after "*".
func TestOpenCodeWholeAndPattern(t *testing.T) {
	cat := catalog(t)
	for _, target := range []string{"opencode", "kilo"} {
		for _, tt := range []struct {
			tools   agents.Tools
			written []string
		}{
			{agents.Tools{Allow: []string{"read", "shell", "shell(git status)"}}, []string{"bash: allow"}},
			{agents.Tools{Allow: []string{"read", "shell", "edit", "create", "notebook"}, Ask: []string{"shell(git push:*)", "edit(src/*)"}},
				[]string{"bash:\n    \"*\": allow\n    git push: ask", "edit:\n    \"*\": allow\n    src/*: ask"}},
			{agents.Tools{Allow: []string{"read", "shell", "shell(git status)"}, Deny: []string{"shell(rm:*)"}},
				[]string{"bash:\n    \"*\": allow\n    rm: deny"}},
		} {
			d, ok := dialect.All().Lookup(target)
			require.True(t, ok)
			def := agents.Definition{Name: "both", Description: "Whole and a pattern", Prompt: "Do what you are asked.", Tools: tt.tools}
			out, err := d.Render(def, "both", "# marker\n", cat)
			require.NoError(t, err)
			for _, w := range tt.written {
				assert.Contains(t, string(out.Content), w, target)
			}
			back := read(t, target, d.Info().Dir+"/both.md", string(out.Content))
			assert.True(t, agents.Decide(back.Def.Tools, agents.ToolPattern{Kind: "shell", Arg: "ls -la", HasArg: true}).Allowed, "%s: the whole shell is lost:\n%s", target, out.Content)
		}
	}
}
