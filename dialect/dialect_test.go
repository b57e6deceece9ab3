package dialect_test

import (
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/dialect/dialecttest"
	"github.com/binnacle-dev/bn/embedded"
	"github.com/binnacle-dev/bn/emit"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// catalog is bn's built-in model catalog.
func catalog(t testing.TB) *agents.Catalog {
	src, err := fs.ReadFile(embedded.Agents(), "models.kdl")
	require.NoError(t, err)
	res := config.Decoder{Sections: dialect.All()}.KDL("models.kdl", src)
	require.Empty(t, res.Diags)
	return agents.NewCatalog(res.Models)
}

func read(t *testing.T, tool, path, src string) *dialect.Imported {
	t.Helper()
	d, ok := dialect.All().Lookup(tool)
	require.True(t, ok)
	rel := path[strings.LastIndex(path, "agents/")+len("agents/"):]
	im, err := d.Read(dialect.Source{Path: path, Rel: rel, Data: []byte(src)}, catalog(t))
	require.NoError(t, err, "%s: %s", tool, path)
	return im
}

// meaningFixtures are agent files written from each tool's documentation
// (and, where a client runs here, what it did), with what they mean in
// bn's terms.
var meaningFixtures = []struct {
	name, tool, path, src string
	tools                 agents.Tools
	model                 string
	notes                 []string
}{
	{name: "claude: no tools field is every tool", tool: "claude", path: ".claude/agents/r.md",
		src:   "---\nname: r\ndescription: Reviews\n---\nReview.\n",
		tools: agents.Tools{All: true}},
	{name: "claude: list, patterns, MCP, newer tools, deny list", tool: "claude", path: ".claude/agents/r.md",
		src: "---\nname: r\ndescription: Use when: reviewing, e.g. 'x'\ntools: Read, Grep, Glob, Bash(git diff:*), mcp__github__get_issue, mcp__linear, TaskList, TaskCreate, Agent(explore, plan), CronCreate\n" +
			"disallowedTools: [Write, Bash(rm:*)]\nmodel: sonnet\neffort: high\n---\nReview.\n",
		// Claude Code offers Bash whole for Bash(git diff:*) in tools.
		tools: agents.Tools{Allow: []string{"read", "grep", "glob", "list", "shell", "github(get_issue)", "linear", "todo",
			"agent(explore)", "agent(plan)", "@claude(CronCreate)"}, Deny: []string{"create", "shell"}},
		model: "sonnet", notes: []string{"frontmatter is not strict YAML", "CronCreate is a Claude Code tool no other tool has",
			"Bash(git diff:*) in tools: Claude Code ignores the parentheses there and grants Bash whole",
			"Bash(rm:*) in disallowedTools: Claude Code ignores the parentheses there and removes Bash whole"}},
	{name: "claude: an empty list is no tools", tool: "claude", path: ".claude/agents/r.md",
		src: "---\nname: r\ndescription: d\ntools: []\nmodel: inherit\n---\nb\n", tools: agents.Tools{}},
	// Junie: "If present and non-empty: an allowlist of tool groups"; no
	// name is the file's name.
	{name: "junie: an empty list is every group", tool: "junie", path: ".junie/agents/r.md",
		src: "---\ndescription: d\ntools: []\n---\nb\n", tools: agents.Tools{All: true}},
	{name: "junie: groups allowed, then denied", tool: "junie", path: ".junie/agents/r.md",
		src:   "---\nname: r\ndescription: d\ntools: [Read, Grep, Bash]\ndisallowedTools: [Bash]\nmodel: opus\n---\nb\n",
		tools: agents.Tools{Allow: []string{"read", "grep", "shell"}, Deny: []string{"shell"}}, model: "opus"},
	{name: "copilot: no tools field is every tool", tool: "copilot", path: ".github/agents/plan.agent.md",
		src: "---\ndescription: Plans\nmodel: Claude Sonnet 4.5\n---\nPlan.\n", tools: agents.Tools{All: true}, model: "claude-sonnet-4-5-20250929"},
	{name: "copilot: VS Code names and tool sets", tool: "copilot", path: ".github/agents/x.agent.md",
		src: "---\ndescription: d\ntools: ['codebase', 'search', 'editFiles', 'runCommands', 'fetch', 'problems', 'usages', 'githubRepo', 'edit/createFile', 'web/fetch', 'github/*', 'playwright/browser_click']\n" +
			"model: ['Claude Sonnet 4.5 (copilot)', 'GPT-5 (copilot)']\n---\nb\n",
		tools: agents.Tools{Allow: []string{"codesearch", "glob", "grep", "lsp", "edit", "shell", "webfetch", "@copilot(githubRepo)",
			"create", "github", "playwright(browser_click)"}},
		model: "claude-sonnet-4-5-20250929", notes: []string{`tool "githubRepo" is not one bn knows`, "model fallbacks GPT-5 (copilot) are kept for copilot only"}},
	{name: "copilot: aliases, case-insensitive; * is every tool", tool: "copilot", path: ".github/agents/x.agent.md",
		src: "---\ndescription: d\ntools: ['Read', 'EXECUTE', '*']\n---\nb\n", tools: agents.Tools{All: true}},
	{name: "copilot: [] is no tools; agents list names sub-agents", tool: "copilot", path: ".github/agents/x.agent.md",
		src:   "---\ndescription: d\ntools: [agent, read]\nagents: [planner, critic]\nmodel: gpt-4.1\n---\nb\n",
		tools: agents.Tools{Allow: []string{"read", "list", "lsp", "agent(planner)", "agent(critic)"}}, model: "gpt-4.1"},
	{name: "opencode: the deprecated tools map", tool: "opencode", path: ".opencode/agents/rev.md",
		src:   "---\ndescription: Reviews\nmode: subagent\ntools:\n  read: true\n  bash: false\n  edit: false\n  write: false\n---\nb\n",
		tools: agents.Tools{All: true, Deny: []string{"ask", "plan", "shell", "edit", "create", "notebook"}}},
	{name: "opencode: permission with bash patterns, last match wins", tool: "opencode", path: ".opencode/agents/review/security.md",
		src:   "---\ndescription: Security review\nmodel: anthropic/claude-sonnet-4-5\npermission:\n  edit: deny\n  bash:\n    \"*\": ask\n    \"git push\": deny\n    \"git log*\": allow\n---\nb\n",
		tools: agents.Tools{All: true, Deny: []string{"ask", "plan", "edit", "create", "notebook", "shell(git push)"}, Ask: []string{"shell"}},
		model: "claude-sonnet-4-5-20250929", notes: []string{`renamed "review/security" to "review-security"`, "asks the user before each use", `allows bash "git log*" without asking; bn asks before it`}},
	{name: "opencode: * deny makes a list", tool: "opencode", path: ".opencode/agents/ro.md",
		src:   "---\ndescription: d\npermission:\n  \"*\": deny\n  read: allow\n  grep: allow\n  bash:\n    \"git log *\": allow\n---\nb\n",
		tools: agents.Tools{Allow: []string{"read", "grep", "shell(git log *)"}}},
	{name: "opencode: capitalised keys match no tool", tool: "opencode", path: ".opencode/agent/x.md",
		src:   "---\ndescription: d\ntools:\n  Read: true\n  Glob: true\n---\nb\n",
		tools: agents.Tools{All: true, Deny: []string{"ask", "plan"}}, notes: []string{`OpenCode matches tool ids exactly: "Read" is not "read"`}},
	{name: "gemini: its tool names and MCP", tool: "gemini", path: ".gemini/agents/g.md",
		src:   "---\nname: g\ndescription: d\ntools: [read_file, grep_search, run_shell_command, mcp_github_*]\nmodel: gemini-2.5-pro\n---\nb\n",
		tools: agents.Tools{Allow: []string{"read", "grep", "shell", "github"}}, model: "gemini-2.5-pro"},
	{name: "codex: a read-only sandbox", tool: "codex", path: ".codex/agents/r.toml",
		src: "name = 'r'\ndescription = 'Reads'\nmodel = 'gpt-5'\nsandbox_mode = 'read-only'\ndeveloper_instructions = \"\"\"\nLook.\n\"\"\"\n",
		// Codex does not apply an agent file's sandbox; bn keeps the
		// limit the file asks for, and says so.
		tools: agents.Tools{All: true, Deny: []string{"write", "notebook", "shell"}}, model: "gpt-5",
		notes: []string{`sandbox_mode "read-only": bn denies shell, edit, create and notebook, as the file asks, though Codex does not apply it`}},
	{name: "codex: a workspace-write sandbox", tool: "codex", path: ".codex/agents/w.toml",
		src:   "name = 'w'\ndescription = 'Writes'\nsandbox_mode = 'workspace-write'\ndeveloper_instructions = \"\"\"\nWork.\n\"\"\"\n",
		tools: agents.Tools{All: true},
		notes: []string{`sandbox_mode "workspace-write" has no effect`}},
	{name: "codex: any config.toml key is kept", tool: "codex", path: ".codex/agents/k.toml",
		src:   "name = 'k'\ndescription = 'Keys'\nallow_login_shell = false\ndeveloper_instructions = 'Work.'\n[shell_environment_policy]\ninherit = 'core'\n",
		tools: agents.Tools{All: true}},
	{name: "omp: comma tools, legacy names, spawns", tool: "omp", path: ".omp/agents/w.md",
		src:   "---\nname: w\ndescription: d\ntools: read, bash, find, todo_write, task\nspawns: [x]\nmodel: [fast, smart]\nthinkingLevel: high\n---\nb\n",
		tools: agents.Tools{Allow: []string{"read", "shell", "glob", "todo", "agent(x)"}}, model: "fast"},
	{name: "cursor: no tool list is every tool; readonly takes writes and the shell away", tool: "cursor", path: ".cursor/agents/r.md",
		src:   "---\nname: r\ndescription: Reviews\nmodel: inherit\nreadonly: true\nis_background: false\n---\nReview.\n",
		tools: agents.Tools{All: true, Deny: []string{"edit", "create", "notebook", "shell"}}, notes: []string{"readonly: true"}},
	{name: "kiro: tags, MCP, and a shell deny rule", tool: "kiro", path: ".kiro/agents/team/backend.md",
		src: "---\ndescription: Backend\nmodel: claude-sonnet-4.5\nwelcomeMessage: Ready\nresources: [\"file://README.md\"]\ntools: [read, shell, \"@postgres\"]\npermissions:\n  - capability: shell\n    effect: allow\n    match: [\"npm *\"]\n" +
			"  - capability: shell\n    effect: deny\n    match: [\"rm\", \"rm *\", \"sudo *\"]\n---\nb\n",
		tools: agents.Tools{Allow: []string{"read", "list", "glob", "grep", "shell", "postgres"}, Deny: []string{"shell(rm:*)", "shell(sudo *)"}},
		model: "claude-sonnet-4-5-20250929", notes: []string{`renamed "team/backend" to "team-backend"`}},
	{name: "kiro: no tools is none", tool: "kiro", path: ".kiro/agents/x.md", src: "---\ndescription: d\n---\nb\n",
		tools: agents.Tools{}, notes: []string{"no tools: Kiro gives the agent no tool"}},
	{name: "kiro: a CLI JSON agent", tool: "kiro", path: ".kiro/agents/j.json",
		src:   `{"name": "j", "description": "d", "prompt": "Work.", "tools": ["fs_read", "shell", "@git"], "allowedTools": ["fs_read"]}`,
		tools: agents.Tools{Allow: []string{"read", "list", "glob", "grep", "shell", "git"}}},
	{name: "qwen: names, display names, MCP, deny list", tool: "qwen", path: ".qwen/agents/q.md",
		src:   "---\nname: qh\ndescription: d\ntools: [read_file, Grep, run_shell_command, mcp__github__get_issue]\ndisallowedTools: write_file\napprovalMode: plan\n---\nHelp with the work.\n",
		tools: agents.Tools{Allow: []string{"read", "grep", "shell", "github(get_issue)"}, Deny: []string{"create"}}},
	{name: "qwen: an empty list is every tool (the probes saw it)", tool: "qwen", path: ".qwen/agents/h.md",
		src: "---\nname: helper\ndescription: d\ntools: []\n---\nHelp with the work.\n", tools: agents.Tools{All: true}},
	{name: "droid: a category", tool: "droid", path: ".factory/droids/r.md",
		src:   "---\nname: r\ndescription: d\nmodel: inherit\ntools: read-only\n---\nb\n",
		tools: agents.Tools{Allow: []string{"read", "list", "grep", "glob"}}},
	{name: "augment: disabled_tools wins over tools", tool: "augment", path: ".augment/agents/a.md",
		src:   "---\nname: a\ndescription: d\ntools: [view]\ndisabled_tools: [launch-process]\ncolor: blue\nreplace_system_prompt: true\n---\nb\n",
		tools: agents.Tools{All: true, Deny: []string{"shell"}}, notes: []string{"Auggie ignores it"}},
	{name: "augment: an empty list is every tool", tool: "augment", path: ".augment/agents/a.md",
		src: "---\nname: a\ndescription: d\ntools: []\n---\nb\n", tools: agents.Tools{All: true}},
	{name: "antigravity: its tool names", tool: "antigravity", path: ".agents/agents/g.md",
		src:   "---\nname: g\ndescription: d\ntools: [view_file, grep_search, run_command]\nsubagent: true\n---\nb\n",
		tools: agents.Tools{Allow: []string{"read", "grep", "shell"}}},
	{name: "grok: names Grok resolves", tool: "grok", path: ".grok/agents/g.md",
		src:   "---\nname: g\ndescription: d\ntools: [Read, grep, Bash]\n---\nb\n",
		tools: agents.Tools{Allow: []string{"read", "grep", "shell"}}},
	{name: "grok: a name Grok cannot resolve makes it ignore the list", tool: "grok", path: ".grok/agents/g.md",
		src:   "---\nname: g\ndescription: d\ntools: [Read, frobnicate]\n---\nb\n",
		tools: agents.Tools{All: true}, notes: []string{`tools names "frobnicate", which Grok Build does not resolve, so it ignores the whole list and gives the agent every tool`}},
	{name: "grok: an entry with arguments is one entry, read as unresolved", tool: "grok", path: ".grok/agents/g.md",
		src:   "---\nname: g\ndescription: d\ntools: Agent(worker, researcher), read_file\n---\nb\n",
		tools: agents.Tools{All: true}, notes: []string{`tools names "Agent(worker, researcher)", which Grok Build does not resolve (bn reads an entry with arguments as unresolved`}},
	{name: "kilo: OpenCode's permission map", tool: "kilo", path: ".kilo/agents/rev.md",
		src:   "---\ndescription: d\npermission:\n  edit: deny\n---\nb\n",
		tools: agents.Tools{All: true, Deny: []string{"ask", "plan", "edit", "create", "notebook"}}},
	{name: "amazonq: JSON, no tools field is none; denied commands", tool: "amazonq", path: ".amazonq/cli-agents/aws.json",
		src: `{"description": "d", "prompt": "Work.", "tools": ["fs_read", "execute_bash", "@git/git_status"], "toolsSettings": {"execute_bash": {"deniedCommands": ["git push .*", "rm -rf( .*)?", "a|b"]}}, "model": "claude-sonnet-4"}`,
		tools: agents.Tools{Allow: []string{"read", "list", "glob", "grep", "shell", "git(git_status)"}, Deny: []string{"shell(git push *)", "shell(rm -rf)", "shell"},
			Ask: []string{"read", "list", "glob", "grep", "shell", "git(git_status)"}},
		model: "claude-sonnet-4-20250514", notes: []string{`deniedCommands "a|b" is a regular expression bn has no pattern for`, "not in allowedTools"}},
	// A tool in tools and not in allowedTools asks before each use.
	{name: "kiro-cli: a tool not in allowedTools asks", tool: "kiro-cli", path: ".kiro/agents/ky.json",
		src:   `{"description": "d", "prompt": "Work.", "tools": ["read", "shell", "@git"], "allowedTools": ["fs_read", "@git"]}`,
		tools: agents.Tools{Allow: []string{"read", "list", "glob", "grep", "shell", "git"}, Ask: []string{"shell"}},
		notes: []string{"shell not in allowedTools: Kiro CLI asks the user before each use, which bn reads as ask"}},
	{name: "kiro-cli: every tool, one trusted", tool: "kiro-cli", path: ".kiro/agents/ky.json",
		src:   `{"description": "d", "prompt": "Work.", "tools": ["*"], "allowedTools": ["read", "web_*"]}`,
		tools: agents.Tools{All: true, Ask: []string{"glob", "grep", "edit", "create", "shell", "todo", "memory", "agent"}}},
}

// TestReadMeaning reads each fixture.
func TestReadMeaning(t *testing.T) {
	for _, tt := range meaningFixtures {
		t.Run(tt.name, func(t *testing.T) {
			im := read(t, tt.tool, tt.path, tt.src)
			assert.True(t, tt.tools.Equal(im.Def.Tools), "tools: got %+v, want %+v", im.Def.Tools, tt.tools)
			assert.Equal(t, tt.model, im.Def.Model)
			for _, n := range tt.notes {
				assert.True(t, slices.ContainsFunc(im.Notes, func(s string) bool { return strings.Contains(s, n) }), "no note %q in %q", n, im.Notes)
			}
		})
	}
}

func TestReadRejectsWhatTheToolRejects(t *testing.T) {
	tests := []struct{ tool, path, src, want string }{
		{"gemini", ".gemini/agents/x.md", "---\nname: CSharp\ndescription: d\n---\nb\n", "not a slug"},
		{"gemini", ".gemini/agents/x.md", "---\nname: x\ndescription: d\ntools: [Read]\n---\nb\n", `invalid tool name "Read"`},
		{"gemini", ".gemini/agents/x.md", "---\nname: x\ndescription: d\ncolor: red\n---\nb\n", `unknown key "color"`},
		{"claude", ".claude/agents/x.md", "---\nname: x\n---\nb\n", "no description"},
		{"opencode", ".opencode/agents/x.md", "---\ndescription: d\nmode: sideways\n---\nb\n", "mode"},
		{"codex", ".codex/agents/x.toml", "name = 'x'\ndescription = 'd'\n", "no developer_instructions"},
		{"gemini", ".gemini/agents/x.md", "---\nname: x\ndescription: d\ntools: [5]\n---\nb\n", `invalid tool name "5"`},
		{"opencode", ".opencode/agents/x.md", "---\ndescription: d\npermission:\n  bash: allowed\n---\nb\n", "permission bash: allowed is not allow, ask or deny"},
		{"opencode", ".opencode/agents/x.md", "---\ndescription: d\ntools:\n  bash: no\n---\nb\n", "tools: bash is no, not true or false"},
		// A deny bn cannot read would be a grant if left out.
		{"claude", ".claude/agents/x.md", "---\nname: x\ndescription: d\ndisallowedTools: [Bash, {x: y}]\n---\nb\n", "disallowedTools: map[x:y] is not a tool name"},
		{"droid", ".factory/droids/x.md", "---\nname: x\ndescription: d\ntools: [Read, Frobnicate]\n---\nb\n", `unknown tool "Frobnicate"`},
		{"droid", ".factory/droids/x.md", "---\nname: Big\ndescription: d\n---\nb\n", "not a slug"},
		{"qwen", ".qwen/agents/x.md", "---\nname: main\ndescription: d\n---\nHelp with the work.\n", "reserved word"},
		{"qwen", ".qwen/agents/x.md", "---\nname: helper\ndescription: d\n---\nHelp.\n", "fewer than 10"},
		{"kiro", ".kiro/agents/x.md", "---\ndescription: d\npermissions:\n  - capability: rocket\n    effect: deny\n---\nb\n", "capability rocket"},
		{"cursor", ".cursor/agents/x.md", "---\nname: x\ndescription: d\nreadonly: yes please\n---\nb\n", "readonly"},
		{"amazonq", ".amazonq/cli-agents/x.json", `{"description": "d", "prompt": "p", "tool": ["fs_read"]}`, "tool is not a key"},
		{"amazonq", ".amazonq/cli-agents/x.json", `{"description": "d", "prompt": "file://p.md"}`, "copy it in"},
		{"amazonq", ".amazonq/cli-agents/x.json", `{"description": "d", "prompt": "p", "hooks": ` + strings.Repeat("[", 65) + strings.Repeat("]", 65) + "}", "line 1: nests more than 64 levels deep"},
		{"kiro", ".kiro/agents/x.json", `{"description": "d", "prompt": "p", "hooks": ` + strings.Repeat(`{"a":`, 100000) + "1" + strings.Repeat("}", 100000) + "}", "nests more than 64"},
		// A key given twice means what the reader keeps, which differs.
		{"amazonq", ".amazonq/cli-agents/x.json", "{\"description\": \"d\", \"prompt\": \"p\",\n\"tools\": [\"*\"],\n\"tools\": [\"fs_read\"]}", `line 3: key "tools" is given twice in one object (first at line 2)`},
		{"kiro", ".kiro/agents/x.json", `{"description": "d", "prompt": "p", "toolsSettings": {"shell": {"deniedCommands": ["rm .*"], "deniedCommands": []}}}`, `line 1: key "deniedCommands" is given twice`},
		{"kiro", ".kiro/agents/x.json", `{"description": "d", "prompt": "p", "hooks": {"a": [{"x": 1}, {"x": 2}]}, "prompt": "q"}`, `key "prompt" is given twice`},
		{"kiro", ".kiro/agents/x.json", `{"description": "d", "prompt": "p", "tools": ["*"], "to\u006fls": []}`, `key "tools" is given twice`},
	}
	for _, tt := range tests {
		d, _ := dialect.All().Lookup(tt.tool)
		_, err := d.Read(dialect.Source{Path: tt.path, Rel: "x.md", Data: []byte(tt.src)}, catalog(t))
		assert.ErrorContains(t, err, tt.want, tt.src)
	}
}

// crossings are agents that exercise meaning: unrestricted, unrestricted
// with denies, read-only lists, pattern-limited shell, MCP, models.
var crossings = []struct {
	name string
	def  agents.Definition
}{
	{"unrestricted", agents.Definition{Description: "d", Tools: agents.Tools{All: true}, Model: "claude-sonnet-4-5-20250929"}},
	{"unrestricted-no-shell", agents.Definition{Description: "d", Tools: agents.Tools{All: true, Deny: []string{"shell"}}, Model: "gpt-5"}},
	{"unrestricted-no-push", agents.Definition{Description: "d", Tools: agents.Tools{All: true, Deny: []string{"shell(git push)"}}}},
	{"read-only", agents.Definition{Description: "d", Tools: agents.Tools{Allow: []string{"read", "grep", "glob"}}, Model: "sonnet"}},
	{"diff-only", agents.Definition{Description: "d", Tools: agents.Tools{Allow: []string{"read", "shell(git diff:*)"}, Deny: []string{"edit", "create"}}}},
	{"editor", agents.Definition{Description: "d", Tools: agents.Tools{Allow: []string{"read", "edit", "create", "shell", "github"}, Deny: []string{"shell(rm:*)"}}, Model: "gemini-2.5-pro"}},
	{"none", agents.Definition{Description: "d", Tools: agents.Tools{}}},
	{"delegates", agents.Definition{Description: "d", Tools: agents.Tools{Allow: []string{"read", "agent(reviewer)"}}}},
	{"foreign-deny", agents.Definition{Description: "d", Tools: agents.Tools{All: true, Deny: []string{"@claude(Frobnicate)"}}}},
	{"no-web", agents.Definition{Description: "d", Tools: agents.Tools{All: true, Deny: []string{"webfetch", "websearch", "github(delete_repo)"}}, Model: "opus"}},
}

// TestCrossingKeepsMeaning writes each agent for every tool, reads the
// file back with that tool's reader, and checks meaning: an unrestricted
// agent stays unrestricted, read access survives, a denied or
// pattern-limited capability is never granted without a reported
// widening, and a model is written in the tool's own spelling or left
// out with a loss.
func TestCrossingKeepsMeaning(t *testing.T) {
	cat := catalog(t)
	for _, c := range crossings {
		for _, d := range dialect.All().Exporters() {
			info := d.Info()
			t.Run(c.name+"/"+info.Name, func(t *testing.T) {
				def := c.def.Clone()
				def.Name, def.Prompt = c.name, "Do the job."
				out, err := d.Render(def, c.name, emit.Marker("bn export"), cat)
				require.NoError(t, err)
				back, err := d.Read(out.Source(info.Dir+"/"+c.name+info.Ext, c.name+info.Ext), cat)
				require.NoError(t, err, "%s does not read its own file:\n%s", info.Name, out.Content)
				for _, p := range dialecttest.Meaning(def, info, out, back, cat) {
					t.Errorf("%s\n%s\nlosses: %+v", p, out.Content, out.Losses)
				}
			})
		}
	}
}

// TestRoundTripSameTool: a file written for a tool and read back by it
// means what the definition says, for every tool and crossing agent that
// tool can express exactly.
func TestRoundTripSameTool(t *testing.T) {
	cat := catalog(t)
	for _, d := range dialect.All().Exporters() {
		info := d.Info()
		for _, c := range crossings {
			def := c.def.Clone()
			def.Name, def.Prompt = c.name, "Do the job."
			out, err := d.Render(def, c.name, emit.Marker("bn export"), cat)
			require.NoError(t, err)
			back, err := d.Read(out.Source(info.Dir+"/x"+info.Ext, c.name+info.Ext), cat)
			require.NoError(t, err)
			exact := !slices.ContainsFunc(out.Losses, func(l dialect.Loss) bool { return l.Field == "tools" })
			if exact {
				assert.True(t, def.Tools.Equal(back.Def.Tools), "%s/%s: %+v became %+v", info.Name, c.name, def.Tools, back.Def.Tools)
			}
			assert.Equal(t, "Do the job.", back.Def.Prompt)
		}
	}
}

func TestVocabularyTablesAreConsistent(t *testing.T) {
	for _, d := range dialect.All() {
		info := d.Info()
		seen := map[string]bool{}
		for _, w := range info.Vocabulary {
			assert.False(t, seen[w.Name], "%s: %s listed twice", info.Name, w.Name)
			seen[w.Name] = true
			assert.NotEmpty(t, w.Kinds, "%s: %s grants nothing", info.Name, w.Name)
			assert.False(t, w.Write && w.Legacy, "%s: %s is both written and legacy", info.Name, w.Name)
		}
		keys := map[string]bool{}
		for _, f := range info.Fields {
			assert.False(t, keys[f.Key], "%s: field %s twice", info.Name, f.Key)
			keys[f.Key] = true
		}
		for _, b := range info.BuiltIns {
			assert.NotEmpty(t, b.On, fmt.Sprintf("%s: %s", info.Name, b.Name))
		}
	}
}

func TestSlug(t *testing.T) {
	for in, want := range map[string]string{"CSharpExpert": "csharp-expert", "HTMLParser": "html-parser", "powershell-5.1-expert": "powershell-5-1-expert",
		"already_ok": "already_ok", "RPI Agent": "rpi-agent"} {
		assert.Equal(t, want, dialect.Slug(in), in)
	}
}

// TestEachLossReportedOnce sets every common field a tool may lack and
// checks that no field is reported dropped twice: the summary counts
// losses, so a double report would overstate them.
func TestEachLossReportedOnce(t *testing.T) {
	cat := catalog(t)
	no, temp, turns := false, 0.2, int64(7)
	def := agents.Definition{
		Name: "full", Description: "d", Prompt: "Do the job well.", Model: "sonnet",
		Execution: agents.Container, Lifecycle: agents.Stateful, Hidden: true, Mode: "primary",
		ModelInvocable: &no, Temperature: &temp, MaxTurns: &turns, Color: "blue",
		Tags: []string{"a"}, ReasoningEffort: "high", Tools: agents.Tools{All: true},
	}
	for _, d := range dialect.All().Exporters() {
		out, err := d.Render(def.Clone(), "full", "# marker\n", cat)
		require.NoError(t, err)
		seen := map[string]bool{}
		for _, l := range out.Losses {
			key := l.Field + "/" + l.Kind
			assert.False(t, seen[key], "%s reports %s twice: %+v", d.Info().Name, key, out.Losses)
			seen[key] = true
		}
	}
}

// TestMCPServersCross: a per-agent MCP server keeps its settings under
// each tool's own keys, and a setting a tool has no key for is reported,
// never written under a name the tool rejects.
func TestMCPServersCross(t *testing.T) {
	cat := catalog(t)
	copilotFile := "---\nname: a\ndescription: d\nmcp-servers:\n  pw:\n    type: local\n    command: npx\n    args: [pw, serve]\n    tools: [\"*\"]\n  web:\n    type: http\n    url: https://example.com/mcp\n    headers: {X-Key: k}\n    tools: [search]\n---\nBody.\n"
	im := read(t, "copilot", ".github/agents/a.agent.md", copilotFile)
	render := func(tool string) (string, []dialect.Loss) {
		d, _ := dialect.All().Lookup(tool)
		out, err := d.Render(im.Def.Clone(), "a", "# m\n", cat)
		require.NoError(t, err)
		return string(out.Content), out.Losses
	}
	codex, losses := render("codex")
	assert.Contains(t, codex, "[mcp_servers.pw]\nargs = ['pw', 'serve']\ncommand = 'npx'\n")
	assert.Contains(t, codex, "enabled_tools = ['search']")
	assert.Contains(t, codex, "[mcp_servers.web.http_headers]\nX-Key = 'k'")
	assert.NotContains(t, codex, "type =")
	assert.Empty(t, losses)

	gemini, _ := render("gemini")
	assert.Contains(t, gemini, "httpUrl: https://example.com/mcp")
	assert.Contains(t, gemini, "includeTools:\n    - search")
	assert.NotContains(t, gemini, `"*"`, "every tool is what Gemini gives without includeTools")
	assert.NotContains(t, gemini, "type:")

	claude, losses := render("claude")
	assert.Contains(t, claude, "type: stdio", "Copilot's local is stdio elsewhere")
	assert.Contains(t, claude, "type: http\n    url: https://example.com/mcp")
	assert.True(t, slices.ContainsFunc(losses, func(l dialect.Loss) bool {
		return l.Field == "mcp-servers" && strings.Contains(l.Detail, `"tools" has no place in Claude Code`)
	}), "a tool filter Claude cannot hold is reported: %+v", losses)

	back, _ := render("copilot")
	again := read(t, "copilot", ".github/agents/a.agent.md", back)
	require.Len(t, again.Def.MCPServers, 2)
	for i, srv := range im.Def.MCPServers {
		assert.True(t, agents.EqualData(srv.Config, again.Def.MCPServers[i].Config), "Copilot → bn → Copilot keeps server %s as written", srv.Name)
	}
}

// A tools entry that is not a name is left out of the allow list (which
// narrows it) and reported, never dropped unseen.
func TestReadReportsEntriesThatAreNotNames(t *testing.T) {
	for _, tt := range []struct{ tool, path, src string }{
		{"claude", ".claude/agents/x.md", "---\nname: x\ndescription: d\ntools: [Read, 5]\n---\nb\n"},
		{"copilot", ".github/agents/x.agent.md", "---\ndescription: d\ntools: [read, 5]\n---\nb\n"},
	} {
		im := read(t, tt.tool, tt.path, tt.src)
		assert.False(t, im.Def.Tools.All)
		assert.Contains(t, strings.Join(im.Dropped, "\n"), "tools: 5 is not a tool name; left out", tt.tool)
	}
	// A whole mapping leaves the agent no tool, and the report says so.
	for _, tt := range []struct{ tool, path, src string }{
		{"claude", ".claude/agents/x.md", "---\nname: x\ndescription: d\ntools:\n  Read: true\n  Bash: false\n---\nb\n"},
		{"copilot", ".github/agents/x.agent.md", "---\ndescription: d\ntools:\n  read: true\n  Bash: false\n---\nb\n"},
	} {
		im := read(t, tt.tool, tt.path, tt.src)
		assert.False(t, im.Def.Tools.All)
		assert.Empty(t, im.Def.Tools.Allow, tt.tool)
		assert.Contains(t, strings.Join(im.Dropped, "\n"), "tools: a mapping (", tt.tool)
		assert.Contains(t, strings.Join(im.Dropped, "\n"), "Bash), not a list of tool names: bn reads the agent as having no tool; write the tools it has as a list", tt.tool)
	}
}

// Detect tells a file's tool by where it lives, then by the keys only one
// tool uses; a file nothing claims is Claude Code's.
func TestDetect(t *testing.T) {
	for _, tt := range []struct{ path, src, want string }{
		{"x/.github/agents/a.md", "---\nname: a\n---\n", "copilot"},
		{"x/a.agent.md", "---\nname: a\n---\n", "copilot"},
		{"x/.opencode/agents/a.md", "---\nname: a\n---\n", "opencode"},
		{"x/a.toml", "name = 'a'\n", "codex"},
		{"in/a.md", "---\ndescription: d\n---\n", "opencode"},
		{"in/a.md", "---\nname: a\ndescription: d\nhandoffs: []\n---\n", "copilot"},
		{"in/a.md", "---\nname: a\ndescription: d\nkind: local\n---\n", "gemini"},
		{"in/a.md", "---\nname: a\ndescription: d\n---\n", "claude"},
		{"in/a.md", "no frontmatter", "claude"},
		// A directory several tools read: the file's keys say whose it is.
		{"x/.agents/agents/a.md", "---\nname: a\ndescription: d\nwhenToUse: reviews\n---\n", "kimi"},
		{"x/.agents/agents/a.md", "---\nname: a\ndescription: d\nmainAgent: true\n---\n", "antigravity"},
		{"x/.agents/agents/a.md", "---\nname: a\ndescription: d\navatar: x.png\n---\n", "goose"},
		{"x/.agents/agents/a.md", "---\nname: a\ndescription: d\n---\n", "antigravity"},
		// Kiro's markdown and JSON profiles, and the CLI's JSON agents.
		{"x/.kiro/agents/a.md", "---\ndescription: d\n---\n", "kiro"},
		{"x/.kiro/agents/a.json", `{"description": "d", "permissions": []}`, "kiro"},
		{"x/.kiro/agents/a.json", `{"description": "d", "toolsSettings": {}}`, "kiro-cli"},
		{"x/.kiro/agents/ky.json", `{"name":"ky","description":"d","prompt":"hello prompt","tools":["read"]}`, "kiro-cli"},
		{"x/.cline/agents/a.yaml", "---\nname: a\n---\n", "cline"},
		{"x/.pi/agents/a.md", "---\nname: a\n---\n", "pi"},
		{"x/.junie/agents/a.md", "---\ndescription: d\n---\n", "junie"},
		{"in/a.md", "---\nname: a\ndescription: d\nallowPromptArgument: true\n---\n", "junie"},
		// Vibe's TOML in its directory, not Codex's, which any .toml marks.
		{"x/.vibe/agents/a.toml", "description = 'd'\nsystem_prompt_id = 'a'\n", "vibe"},
		{"x/.vibe/agents/a.toml", "active_model = 'm'\n", "vibe"},
	} {
		assert.Equal(t, tt.want, dialect.All().Detect(tt.path, []byte(tt.src)).Info().Name, "%s %q", tt.path, tt.src)
	}
}

// Claude Code's documented tools without a counterpart elsewhere are
// known: kept for Claude Code, and said to be its own.
func TestClaudeOwnTools(t *testing.T) {
	im := read(t, "claude", ".claude/agents/x.md", "---\nname: x\ndescription: d\ntools: Read, ScheduleWakeup\n---\nb\n")
	assert.Contains(t, im.Def.Tools.Allow, "@claude(ScheduleWakeup)")
	assert.Contains(t, strings.Join(im.Notes, "\n"), "ScheduleWakeup is a Claude Code tool no other tool has")
}

// TestClaudeSearchBesideBash: Claude Code 2.1 offers Glob and Grep only
// to an agent without Bash (the probes saw it), so Glob written beside
// Bash grants nothing more, and one written alone grants glob and list.
func TestClaudeSearchBesideBash(t *testing.T) {
	d, _ := dialect.All().Lookup("claude")
	for _, tc := range []struct {
		name  string
		allow []string
		want  []dialect.Loss
	}{
		{"without Bash, Glob also grants glob", []string{"read", "list"},
			[]dialect.Loss{{Field: "tools", Kind: dialect.Widened, Detail: `"Glob", written for list, also grants glob`, Grants: []string{"glob"}}}},
		{"beside Bash, Glob is not offered", []string{"read", "list", "shell"}, nil},
		{"beside a limited Bash, search is left out beyond its patterns", []string{"read", "glob", "shell(git diff:*)"},
			[]dialect.Loss{{Field: "tools", Kind: dialect.Dropped, Detail: "glob left out beyond the shell's patterns: beside Bash, Claude Code offers no Grep or Glob (it searches inside Bash), " +
				"and the hook bn writes lets Bash run only the commands the agent's shell patterns allow", Drops: []string{"glob"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			def := agents.Definition{Name: "s", Description: "d", Prompt: "Search.", Tools: agents.Tools{Allow: tc.allow}}
			out, err := d.Render(def, "s", "# marker\n", catalog(t))
			require.NoError(t, err)
			var got []dialect.Loss
			for _, l := range out.Losses {
				if l.Kind == dialect.Widened || l.Kind == dialect.Dropped {
					got = append(got, l)
				}
			}
			assert.Equal(t, tc.want, got)
		})
	}
}

// TestRoundTripKeepsTheFile: a tool's file read into bn and written back
// for the same tool reads as the same agent, its own fields included.
func TestRoundTripKeepsTheFile(t *testing.T) {
	cat := catalog(t)
	for _, tt := range meaningFixtures {
		d, _ := dialect.All().Lookup(tt.tool)
		info := d.Info()
		if !info.Exports {
			continue
		}
		t.Run(tt.name, func(t *testing.T) {
			im := read(t, tt.tool, tt.path, tt.src)
			id := im.Def.Name
			if tid := im.Def.TargetOf(tt.tool).ID; tid != "" {
				id = tid
			}
			out, err := d.Render(im.Def.Clone(), id, "# marker\n", cat)
			require.NoError(t, err)
			back := read(t, tt.tool, info.Dir+"/"+id+info.Ext, string(out.Content))
			assert.True(t, im.Def.Tools.Equal(back.Def.Tools), "tools: %+v became %+v\n%s", im.Def.Tools, back.Def.Tools, out.Content)
			assert.Equal(t, im.Def.Model, back.Def.Model)
			assert.Equal(t, im.Def.Prompt, back.Def.Prompt)
			assert.Equal(t, strings.TrimSpace(im.Def.Description), strings.TrimSpace(back.Def.Description))
			// A hint key (the tool's own spelling of what bn models) may
			// be written more explicitly: Kiro's tools: [] for a profile
			// that left none out. Its meaning is checked above.
			own := func(m agents.Map) *agents.Map {
				out := &agents.Map{}
				for _, k := range m.Keys {
					if !info.IsHint(k) {
						out.Set(k, m.Values[k])
					}
				}
				return out
			}
			was, now := own(im.Def.TargetOf(tt.tool).Fields), own(back.Def.TargetOf(tt.tool).Fields)
			assert.True(t, agents.EqualData(was, now), "%s's own fields: %v became %v\n%s", info.Title, agents.Plain(was), agents.Plain(now), out.Content)
		})
	}
}

// TestRenamedIDStaysAFile: a tool's name bn renames is kept as the
// agent's id there only when, as a file name, it stays in the tool's
// directory, and names a subdirectory only where the file read is in it.
func TestRenamedIDStaysAFile(t *testing.T) {
	for _, tt := range []struct {
		name, tool, path, agent, id string
	}{
		{"a nested file keeps its path", "opencode", ".opencode/agents/review/security.md", "", "review/security"},
		{"a slash in a flat file's name makes no directory", "claude", ".claude/agents/slash.md", "a/b", ""},
		{"a slash in a nested file's name that is its path", "claude", ".claude/agents/a/b.md", "a/b", "a/b"},
		{"a space is kept", "claude", ".claude/agents/x.md", "RPI Agent", "RPI Agent"},
		{"a backslash is no file name", "claude", ".claude/agents/x.md", `a\b`, ""},
		{"climbing out is no file name", "claude", ".claude/agents/x.md", "../../x", ""},
		{"a trailing dot is no file name", "claude", ".claude/agents/x.md", "x.", ""},
		{"a device is no file name", "claude", ".claude/agents/x.md", "aux .x", ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			src := "---\ndescription: d\n---\nb\n"
			if tt.agent != "" {
				src = "---\nname: " + strconv.Quote(tt.agent) + "\ndescription: d\n---\nb\n"
			}
			im := read(t, tt.tool, tt.path, src)
			assert.Equal(t, tt.id, im.Def.TargetOf(tt.tool).ID)
		})
	}
}

// TestOneReportPerKind: a kind an allow pattern limits that the tool has
// no tool for is reported once, as left out, never also as widened; and
// a pattern of a kind another allow grants whole widens nothing.
func TestOneReportPerKind(t *testing.T) {
	cat := catalog(t)
	def := agents.Definition{Name: "caller", Description: "d", Prompt: "Do the job.",
		Tools: agents.Tools{Allow: []string{"read", "agent(powershell-5-1-expert)"}}}
	asker := agents.Definition{Name: "asker", Description: "d", Prompt: "Do the job.",
		Tools: agents.Tools{Allow: []string{"read", "shell", "shell(git push:*)"}, Ask: []string{"shell(git push:*)"}}}
	for _, d := range dialect.All().Exporters() {
		out, err := d.Render(asker.Clone(), "asker", "# marker\n", cat)
		require.NoError(t, err)
		for _, l := range out.Losses {
			assert.NotContains(t, l.Detail, `allow "shell(git push:*)"`, "%s: shell is allowed whole", d.Info().Name)
		}
	}
	for _, d := range dialect.All().Exporters() {
		info := d.Info()
		t.Run(info.Name, func(t *testing.T) {
			out, err := d.Render(def.Clone(), "caller", "# marker\n", cat)
			require.NoError(t, err)
			widened, dropped := map[agents.Kind]bool{}, map[agents.Kind]bool{}
			for _, l := range out.Losses {
				for _, k := range l.Kinds() {
					switch l.Kind {
					case dialect.Widened:
						widened[k] = true
					case dialect.Dropped:
						dropped[k] = true
					}
				}
			}
			for k := range widened {
				assert.False(t, dropped[k], "%s reported both widened and dropped: %+v", k, out.Losses)
			}
		})
	}
}
