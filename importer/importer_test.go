package importer

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadFormats(t *testing.T) {
	tests := []struct {
		name, path, rel, src string
		format               Format
		want                 Agent
		notes                []string
	}{
		{name: "claude, lenient YAML, tool patterns and MCP", path: "a/.claude/agents/rev.md", rel: "rev.md", format: Claude,
			src: "---\nname: rev\ndescription: Use when: reviewing, e.g. 'x'\ntools: Read, Bash(git log:*), mcp__github__get_issue, mcp__linear, Task\ndisallowedTools: [Write]\nmodel: sonnet\neffort: high\ncolor: blue\n---\n\nReview.\n",
			want: Agent{Name: "rev", Description: "Use when: reviewing, e.g. 'x'", Model: "sonnet", ReasoningEffort: "high",
				Allow: []string{"view", "shell(git log:*)", "github(get_issue)", "linear", "task"}, Deny: []string{"write"}, Prompt: "Review."},
			notes: []string{"frontmatter is not strict YAML", "color not modeled by bn; not imported"}},
		{name: "copilot: id is the file stem", path: "r/.github/agents/plan.agent.md", rel: "plan.agent.md", format: Copilot,
			src:   "\uFEFF---\r\nname: Planner Bot\r\ndescription: Plans\r\ntools: ['read', 'search', 'execute', 'github/*', 'user-invocable']\r\nuser-invocable: false\r\n---\r\nPlan it.\r\n",
			want:  Agent{Name: "plan", Description: "Plans", Hidden: true, Allow: []string{"view", "grep", "shell", "github", "user-invocable"}, Prompt: "Plan it."},
			notes: []string{`display name "Planner Bot" not kept`}},
		{name: "opencode: nested path names, permission map", path: "p/.opencode/agents/review/security.md", rel: "review/security.md", format: OpenCode,
			src: "---\ndescription: Security review\nmode: subagent\nmodel: anthropic/claude-sonnet-4.5\npermission:\n  edit: deny\n  read: allow\n  bash:\n    \"*\": deny\n    \"git log *\": allow\n    \"git push\": deny\n---\nCheck.\n",
			want: Agent{Name: "review-security", Description: "Security review", Model: "anthropic/claude-sonnet-4.5",
				Allow: []string{"shell(git log:*)", "view"}, Deny: []string{"shell(git push)", "edit"}, Prompt: "Check."},
			notes: []string{`renamed "review/security" to "review-security"`, `mode "subagent" not modeled`}},
		{name: "opencode: frontmatter name wins", path: "p/.opencode/agent/x.md", rel: "x.md", format: OpenCode,
			src: "---\nname: custom\ndescription: d\n---\nb\n", want: Agent{Name: "custom", Description: "d", Prompt: "b"}},
		{name: "codex TOML", path: "c/.codex/agents/r.toml", rel: "r.toml", format: Codex,
			src:   "name = 'r'\ndescription = \"Reads\"\nmodel = 'gpt-5'\nmodel_reasoning_effort = 'medium'\nsandbox_mode = 'read-only'\nnickname_candidates = ['Ada']\ndeveloper_instructions = \"\"\"\nLook only.\n\"\"\"\n",
			want:  Agent{Name: "r", Description: "Reads", Model: "gpt-5", ReasoningEffort: "medium", Deny: []string{"write", "edit"}, Prompt: "Look only."},
			notes: []string{"nickname_candidates not modeled by bn"}},
		{name: "omp: CSV tools, model list, thinking level", path: "o/.omp/agents/w.md", rel: "w.md", format: OMP,
			src:   "---\nname: w\ndescription: d\ntools: read, bash, find, todo_write\nmodel: [fast, smart]\nthinkingLevel: high\nspawns: [x]\n---\nb\n",
			want:  Agent{Name: "w", Description: "d", Model: "fast", ReasoningEffort: "high", Allow: []string{"view", "shell", "glob", "todo"}, Prompt: "b"},
			notes: []string{`model fallbacks smart not modeled by bn; kept "fast"`, "spawns not modeled by bn"}},
		{name: "gemini tools", path: "g/.gemini/agents/g.md", rel: "g.md", format: Gemini,
			src:  "---\nname: g\ndescription: d\ntools:\n  - read_file\n  - run_shell_command\n  - mcp_github_*\nmodel: inherit\n---\nb\n",
			want: Agent{Name: "g", Description: "d", Allow: []string{"view", "shell", "github"}, Prompt: "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Read(tt.path, tt.rel, []byte(tt.src), tt.format)
			require.NoError(t, err)
			assert.Equal(t, tt.want.Name, got.Name)
			assert.Equal(t, tt.want.Description, got.Description)
			assert.Equal(t, tt.want.Model, got.Model)
			assert.Equal(t, tt.want.ReasoningEffort, got.ReasoningEffort)
			assert.Equal(t, tt.want.Hidden, got.Hidden)
			assert.Equal(t, tt.want.Allow, got.Allow)
			assert.Equal(t, tt.want.Deny, got.Deny)
			assert.Equal(t, tt.want.Prompt, got.Prompt)
			for _, n := range tt.notes {
				found := false
				for _, have := range got.Notes {
					found = found || contains(have, n)
				}
				assert.True(t, found, "note %q missing from %q", n, got.Notes)
			}
		})
	}
}

func contains(s, sub string) bool {
	return len(sub) <= len(s) && (s[:len(sub)] == sub || contains(s[1:], sub))
}

func TestReadRejects(t *testing.T) {
	for _, tt := range []struct{ src, want string }{
		{"no frontmatter", "no YAML frontmatter"},
		{"---\nname: a\ndescription: b\n", "never closed"},
		{"---\ndescription: b\n---\nbody", "no name"},
		{"---\nname: a\n---\nbody", "no description"},
		{"---\nname: a\ndescription: b\n---\n\n  \n", "empty body"},
		{"---\nname: \"---\"\ndescription: b\n---\nbody", "invalid agent name"},
		{"---\nname: a\n  - stray: [\nno colon here\n---\nbody", "is not `key: value`"},
	} {
		_, err := Read("x.md", "x.md", []byte(tt.src), Claude)
		assert.ErrorContains(t, err, tt.want, tt.src)
	}
}

func TestDetect(t *testing.T) {
	for path, want := range map[string]Format{
		"/r/.claude/agents/a.md": Claude, "/r/.github/agents/a.md": Copilot, "/x/a.agent.md": Copilot,
		"/h/.copilot/agents/a.md": Copilot, "/r/.opencode/agent/a.md": OpenCode, "/h/.config/opencode/agents/x/y.md": OpenCode,
		"/r/.gemini/agents/a.md": Gemini, "/anywhere/a.md": Claude, "/r/.codex/agents/a.toml": Codex,
		"/r/.omp/agents/a.md": OMP, "/h/.omp/agent/agents/a.md": OMP,
	} {
		assert.Equal(t, want, Detect(path), path)
	}
}

func TestCompareBodies(t *testing.T) {
	d := CompareBodies("a\nb\nc\n", "\na\nb\nc\n\n", "s", "t")
	assert.Equal(t, "identical", d.Status())
	assert.Equal(t, 100.0, d.Fidelity())

	d = CompareBodies("a  b\nc\nd\n", "a b\nc \nd\n", "s", "t")
	assert.Equal(t, 0, d.Changed)
	assert.Equal(t, 2, d.Whitespace)
	assert.Equal(t, "whitespace only (2 lines)", d.Status())
	assert.Equal(t, 100.0, d.Fidelity())

	d = CompareBodies("1\n2\n3\n4\n", "1\nX\n3\n4\nY\n", "s", "t")
	assert.Equal(t, 5, d.Total)
	assert.Equal(t, 2, d.Changed)
	assert.Equal(t, "2 lines differ", d.Status())
	assert.InDelta(t, 60.0, d.Fidelity(), 0.001)
	assert.Contains(t, d.Unified, "-2\n+X\n")
}

func FuzzRead(f *testing.F) {
	f.Add([]byte("---\nname: a\ndescription: b: c\ntools: Read, Bash(x:*)\n---\nbody"), "claude")
	f.Add([]byte("---\ndescription: d\npermission:\n  bash:\n    \"*\": deny\n---\nb"), "opencode")
	f.Add([]byte("---\nname: g\ndescription: d\ntools:\n  - mcp_x_*\n---\nb"), "gemini")
	f.Fuzz(func(t *testing.T, src []byte, format string) {
		Read("f.md", "f.md", src, Format(format))
	})
}
