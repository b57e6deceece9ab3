package dialect_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/dialect/dialecttest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDocFixtures reads the agent files copied from the documentation of
// the tools no client here runs (testdata/docs, with their sources) to
// the meaning their documentation gives, and writes each back to the
// same meaning.
func TestDocFixtures(t *testing.T) {
	cat := catalog(t)
	for _, tt := range []struct {
		tool, file, name, id string
		tools                agents.Tools
		model, effort        string
		maxTurns             int64
		skills               []string
		section              map[string]any // the tool's own fields kept
		// widens: what writing the file back reports granted beyond
		// the definition, where the tool grants more than its file says.
		widens []string
	}{
		// "tools: Allowlist … MCP tools are matched with globs";
		// "disallowedTools: Denylist … applied after tools".
		{tool: "kimi", file: "kimi/reviewer.md", name: "reviewer",
			tools:   agents.Tools{Allow: []string{"read", "grep", "glob", "github"}, Deny: []string{"shell"}},
			section: map[string]any{"whenToUse": "Code reviews and PR checks", "override": false, "mode": "replace"}},
		// "name: Display name for the agent"; no tools field: the
		// session's tools.
		{tool: "goose", file: "goose/code-reviewer.md", name: "Code-Reviewer", id: "Code Reviewer",
			tools: agents.Tools{All: true}, model: "claude-sonnet-4-20250514"},
		// "tools: If present and non-empty: an allowlist of tool groups";
		// "disallowedTools: … Applied after the tools filtering";
		// mcpServers names Junie's configured servers, kept as written.
		{tool: "junie", file: "junie/code-review-helper.md", name: "code-review-helper",
			tools: agents.Tools{Allow: []string{"read", "grep", "edit"}, Deny: []string{"shell", "websearch"}}, model: "sonnet",
			effort: "high", maxTurns: 20, skills: []string{"kotlin", "writerside"},
			section: map[string]any{"mcpServers": []any{"github"}, "allowPromptArgument": true}},
		// "tools: Tool allowlist. Omit = all tools"; Grok's own tool ids
		// (read_file, grep, list_dir: its directory listing);
		// permissionMode kept as written.
		{tool: "grok", file: "grok/code-reviewer.md", name: "code-reviewer",
			tools:   agents.Tools{Allow: []string{"read", "grep", "list"}},
			section: map[string]any{"permissionMode": "plan"}, widens: []string{dialect.EveryMCPTool}},
		// "disabled_tools = [\"edit\", \"write_file\"]": every other tool;
		// [tools.*] permissions kept as written; the model an alias of
		// Vibe's config, not in bn's catalog; the prompt the file
		// system_prompt_id names, in the prompts directory beside.
		{tool: "vibe", file: "vibe/agents/redteam.toml", name: "redteam",
			tools: agents.Tools{All: true, Deny: []string{"edit", "create"}}, model: "mistral-medium-3.5",
			section: map[string]any{"tools": &agents.Map{Keys: []string{"bash", "read"}, Values: map[string]any{
				"bash": &agents.Map{Keys: []string{"permission"}, Values: map[string]any{"permission": "always"}},
				"read": &agents.Map{Keys: []string{"permission"}, Values: map[string]any{"permission": "always"}}}}}},
	} {
		t.Run(tt.tool, func(t *testing.T) {
			d, ok := dialect.All().Lookup(tt.tool)
			require.True(t, ok)
			info := d.Info()
			// On disk where it was copied to: a tool's companion files
			// (Vibe's prompts) are read beside it.
			path := filepath.Join("testdata", "docs", filepath.FromSlash(tt.file))
			data, err := os.ReadFile(path)
			require.NoError(t, err)
			rel := filepath.Base(tt.file)
			im, err := d.Read(dialect.Source{Path: path, Rel: rel, Data: data}, cat)
			require.NoError(t, err)
			assert.Equal(t, tt.name, im.Def.Name)
			assert.Equal(t, tt.id, im.Def.TargetOf(tt.tool).ID)
			assert.Equal(t, tt.tools.Normalize(), im.Def.Tools.Normalize())
			assert.Equal(t, tt.model, im.Def.Model)
			assert.Equal(t, tt.effort, im.Def.ReasoningEffort)
			if tt.maxTurns != 0 {
				require.NotNil(t, im.Def.MaxTurns)
				assert.Equal(t, tt.maxTurns, *im.Def.MaxTurns)
			}
			assert.Equal(t, tt.skills, im.Def.Skills)
			for k, want := range tt.section {
				got, _ := im.Def.TargetOf(tt.tool).Fields.Get(k)
				assert.Equal(t, want, got, k)
			}
			id := im.Def.Name
			if tt.id != "" {
				id = tt.id
			}
			out, err := d.Render(im.Def, id, "", cat)
			require.NoError(t, err)
			back, err := d.Read(out.Source(path, rel), cat)
			require.NoError(t, err, "%s", out.Content)
			for _, p := range dialecttest.Meaning(im.Def, info, out, back, cat) {
				t.Errorf("%s\n%s", p, out.Content)
			}
			var widens []string
			for _, l := range out.Losses {
				if l.Kind == dialect.Widened {
					widens = append(widens, l.Grants...)
				} else {
					t.Errorf("a file of the tool's own, written back to it, loses nothing: %s", l.Detail)
				}
			}
			assert.Equal(t, tt.widens, widens, "what the tool grants beyond its file")
		})
	}
}
