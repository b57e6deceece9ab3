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

// The agent's own hooks stay as they were: bn's PreToolUse entry is added
// beside them on export and taken out again on import, for every tool
// whose agent files carry bn's hook.
func TestHookKeepsTheAgentsOwn(t *testing.T) {
	cat := catalog(t)
	for _, tt := range []struct{ tool, tools, edit, write string }{
		{"claude", "Read, Bash", "Edit", "Write"},
		{"qwen", "[read_file, run_shell_command]", "edit", "write_file"},
	} {
		t.Run(tt.tool, func(t *testing.T) {
			d, _ := dialect.All().Lookup(tt.tool)
			require.NotNil(t, d.Info().Hook)
			own := "---\nname: linted\ndescription: d\ntools: " + tt.tools + "\nhooks:\n  PreToolUse:\n  - matcher: " + tt.edit + "\n    hooks:\n    - type: command\n      command: ./check-edit.sh\n" +
				"  PostToolUse:\n  - matcher: " + tt.write + "\n    hooks:\n    - type: command\n      command: ./lint.sh\n---\nLint what you are asked to lint.\n"
			src := dialect.Source{Path: filepath.Join(filepath.FromSlash(d.Info().Dir), "linted.md"), Rel: "linted.md", Data: []byte(own)}
			im, err := d.Read(src, cat)
			require.NoError(t, err)
			before, _ := im.Def.TargetOf(tt.tool).Fields.Get("hooks")
			require.NotNil(t, before)

			def := im.Def.Clone()
			def.Tools = agents.Tools{Allow: []string{"read", "shell(git diff:*)"}}
			def.Target(tt.tool).Fields.Delete("tools") // the hint no longer says what the agent has
			out, err := d.Render(def, def.Name, "# marker\n", cat)
			require.NoError(t, err)
			text := string(out.Content)
			assert.Contains(t, text, "command: ./check-edit.sh")
			assert.Contains(t, text, "command: ./lint.sh")
			assert.Contains(t, text, "command: bn config agents check linted --hook "+tt.tool+" --rules "+d.Info().Dir+"/linted.rules || exit 2")
			assert.Equal(t, 1, strings.Count(text, "PreToolUse:"), "one PreToolUse list, bn's entry in it")
			assert.True(t, strings.Contains(fmtLosses(out.Losses), "enforced"), "the limit is reported as enforced: %v", out.Losses)

			src.Data = out.Content
			back, err := d.Read(src, cat)
			require.NoError(t, err)
			after, _ := back.Def.TargetOf(tt.tool).Fields.Get("hooks")
			assert.Equal(t, before, after, "the agent's own hooks, without bn's")
			assert.Equal(t, strings.TrimSuffix(src.Path, ".md")+dialect.RulesExt, back.HookRules, "the rules file bn's hook enforced, for import to read")
		})
	}
}

func fmtLosses(losses []dialect.Loss) string {
	var b strings.Builder
	for _, l := range losses {
		b.WriteString(string(l.Kind) + ": " + l.Detail + "\n")
	}
	return b.String()
}

// The hook input's keys are read exactly, as Claude Code and Qwen Code
// read them: a key that differs only in case is another key, never the
// one bn decides from.
func TestHookCallExactKeys(t *testing.T) {
	for _, tool := range []string{"claude", "qwen"} {
		d, _ := dialect.All().Lookup(tool)
		h := d.Info().Hook
		require.NotNil(t, h)
		for _, tt := range []struct {
			input   string
			tool    string
			command any
			cwd     string
			err     string
		}{
			{`{"hook_event_name":"PreToolUse","tool_name":"T","tool_input":{"command":"rm x"},"Tool_Input":{"command":"git diff"}}`, "T", "rm x", "", ""},
			{`{"hook_event_name":"PreToolUse","tool_name":"T","TOOL_INPUT":{"command":"git diff"}}`, "T", nil, "", ""},
			{`{"hook_event_name":"PreToolUse","tool_name":"T","Tool_Name":"U","tool_input":{"command":"rm x","Command":"git diff"}}`, "T", "rm x", "", ""},
			{`{"hook_event_name":"PreToolUse","tool_name":"T","cwd":"/a","CWD":"/b"}`, "T", nil, "/a", ""},
			{`{"Hook_Event_Name":"PreToolUse","tool_name":"T"}`, "", nil, "", "not a"},
			{`{"hook_event_name":"PreToolUse","tool_name":"T","tool_input":"rm x"}`, "", nil, "", "the hook input's tool_input is not"},
			{`{"hook_event_name":"PreToolUse","tool_name":"T","Agent_ID":null}`, "T", nil, "", ""},
		} {
			c, err := h.Call([]byte(tt.input))
			if tt.err != "" {
				require.Error(t, err, tt.input)
				assert.Contains(t, err.Error(), tt.err, tt.input)
				continue
			}
			require.NoError(t, err, tt.input)
			assert.Equal(t, tt.tool, c.Tool, tt.input)
			assert.Equal(t, tt.command, c.Input["command"], tt.input)
			assert.Equal(t, tt.cwd, c.Dir, tt.input)
		}
	}
}
