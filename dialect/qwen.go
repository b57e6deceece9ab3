package dialect

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/enforce"
)

// qwen is Qwen Code: markdown subagents in .qwen/agents and
// ~/.qwen/agents (the project's winning), known by their name field, in
// Claude Code's shape: tools and disallowedTools as lists or comma
// strings of Qwen's tool names or display names (a name it does not know
// is kept and matches nothing; an empty list or * is every tool), MCP
// tools as mcp__server__tool, inline
// mcpServers, approvalMode. Its validator refuses a prompt under 10
// characters and names outside its rule. Per the Qwen Code sources (subagent-manager,
// tool-names), 0.24. Display names (ReadFile, Shell) are read as the
// tools they name and never written.
type qwen struct{}

var qwenInfo = &Info{
	Name: "qwen", Title: "Qwen Code", Dir: ".qwen/agents", Ext: ".md", ReadExts: []string{".md"},
	Marks: []string{".qwen/agents/"},
	MCPKeys: []MCPKey{{"command", "command"}, {"args", "args"}, {"env", "env"}, {"cwd", "cwd"}, {"url", "url"},
		{"headers", "headers"}, {"tools", "includeTools"}, {"exclude-tools", "excludeTools"},
		{"timeout", "timeout"}, {"trust", "trust"}, {"description", "description"}},
	MCPHTTPURL: "httpUrl",
	Signature:  []string{"approvalMode", "modelConfig", "runConfig"},
	Doc:        "`.qwen/agents/*.md`, then `~/.qwen/agents`; known by `name`; a project agent wins over a user one and over a built-in",
	Dirs: func(env Env) []SourceDir {
		return []SourceDir{{Path: filepath.Join(env.RepoRoot, ".qwen", "agents"), Location: ProjectLocation, Format: "qwen"},
			userDir(filepath.Join(env.Home, ".qwen", "agents"), "qwen")}
	},
	BuiltIns: []BuiltIn{{"general-purpose", Replaces}, {"Explore", Replaces}, {"statusline-setup", Replaces}},
	MapID:    qwenID,
	IDRule:   "2 to 50 letters, digits, '-' and '_', neither first nor last a '-' or '_', and no reserved word",
	Own: []string{"cron_create", "cron_list", "cron_delete", "image_gen", "zoom_image", "tool_search", "structured_output", "artifact", "report_findings",
		"send_message", "task_stop"}, // they start no agent and run no command
	Vocabulary: []Word{
		{Name: "read_file", Kinds: []agents.Kind{agents.KindRead}, Write: true},
		{Name: "ReadFile", Kinds: []agents.Kind{agents.KindRead}, Legacy: true},
		{Name: "list_directory", Kinds: []agents.Kind{agents.KindList}, Write: true},
		{Name: "ListFiles", Kinds: []agents.Kind{agents.KindList}, Legacy: true},
		{Name: "glob", Kinds: []agents.Kind{agents.KindGlob}, Write: true},
		{Name: "Glob", Kinds: []agents.Kind{agents.KindGlob}, Legacy: true},
		{Name: "grep_search", Kinds: []agents.Kind{agents.KindGrep}, Write: true},
		{Name: "Grep", Kinds: []agents.Kind{agents.KindGrep}, Legacy: true},
		{Name: "lsp", Kinds: []agents.Kind{agents.KindLSP}, Write: true},
		{Name: "Lsp", Kinds: []agents.Kind{agents.KindLSP}, Legacy: true},
		{Name: "edit", Kinds: []agents.Kind{agents.KindEdit}, Write: true},
		{Name: "Edit", Kinds: []agents.Kind{agents.KindEdit}, Legacy: true},
		{Name: "replace", Kinds: []agents.Kind{agents.KindEdit}, Legacy: true},
		{Name: "write_file", Kinds: []agents.Kind{agents.KindCreate}, Write: true},
		{Name: "WriteFile", Kinds: []agents.Kind{agents.KindCreate}, Legacy: true},
		{Name: "notebook_edit", Kinds: []agents.Kind{agents.KindNotebook}, Write: true},
		{Name: "run_shell_command", Kinds: []agents.Kind{agents.KindShell}, Write: true},
		{Name: "Shell", Kinds: []agents.Kind{agents.KindShell}, Legacy: true},
		{Name: "exec", Kinds: []agents.Kind{agents.KindShell}},
		{Name: "monitor", Kinds: []agents.Kind{agents.KindShell}},
		{Name: "web_fetch", Kinds: []agents.Kind{agents.KindWebFetch}, Write: true},
		{Name: "WebFetch", Kinds: []agents.Kind{agents.KindWebFetch}, Legacy: true},
		{Name: "web_search", Kinds: []agents.Kind{agents.KindWebSearch}, Write: true},
		{Name: "WebSearch", Kinds: []agents.Kind{agents.KindWebSearch}, Legacy: true},
		{Name: "agent", Kinds: []agents.Kind{agents.KindAgent}, Write: true},
		{Name: "Agent", Kinds: []agents.Kind{agents.KindAgent}, Legacy: true},
		{Name: "task", Kinds: []agents.Kind{agents.KindAgent}, Legacy: true},
		{Name: "todo_write", Kinds: []agents.Kind{agents.KindTodo}, Write: true},
		{Name: "TodoList", Kinds: []agents.Kind{agents.KindTodo}, Legacy: true},
		{Name: "task_create", Kinds: []agents.Kind{agents.KindTodo}},
		{Name: "task_update", Kinds: []agents.Kind{agents.KindTodo}},
		{Name: "task_list", Kinds: []agents.Kind{agents.KindTodo}},
		{Name: "save_memory", Kinds: []agents.Kind{agents.KindMemory}, Write: true},
		{Name: "SaveMemory", Kinds: []agents.Kind{agents.KindMemory}, Legacy: true},
		{Name: "skill", Kinds: []agents.Kind{agents.KindSkill}, Write: true},
		{Name: "Skill", Kinds: []agents.Kind{agents.KindSkill}, Legacy: true},
		{Name: "ask_user_question", Kinds: []agents.Kind{agents.KindAsk}, Write: true},
		{Name: "AskUserQuestion", Kinds: []agents.Kind{agents.KindAsk}, Legacy: true},
		{Name: "enter_plan_mode", Kinds: []agents.Kind{agents.KindPlan}, Write: true, Group: "plan"},
		{Name: "exit_plan_mode", Kinds: []agents.Kind{agents.KindPlan}, Write: true, Group: "plan"},
	},
	Fields: []FieldSpec{
		{Key: "tools", Hint: true, Check: checkStrings}, {Key: "disallowedTools", Hint: true, Check: checkStrings},
		{Key: "model", Hint: true, Check: checkString},
		{Key: "approvalMode", Doc: "plan, default, auto-edit, auto, yolo or bubble", Check: checkEnum("plan", "default", "auto-edit", "auto", "yolo", "bubble")},
		// Neither mode narrows: a sub-agent whose file says plan (either
		// key) wrote a file and ran a command, the session's approval
		// mode auto-edit or yolo (testdata/probes/planmode-qwen.json).
		{Key: "permissionMode", Doc: "Claude Code's permission mode, which Qwen Code maps to an approval mode", Check: checkString},
		{Key: "color", Doc: "red, blue, green, yellow, purple, orange, pink, cyan or auto", Check: checkString},
		{Key: "background", Doc: "run in the background", Check: checkBool},
		{Key: "hooks", Doc: "hooks run around the agent's tool calls", Check: checkMap, Runs: true, Narrows: preToolHooks},
		{Key: "runConfig", Doc: "max_turns and max_time_minutes", Check: checkMap},
		{Key: "modelConfig", Doc: "the model and its settings (older files)", Check: checkMap},
		{Key: "executor", Doc: "run the agent in an external ACP agent or Codex", Check: checkMap, Runs: true},
	},
	Partial:    "widen",
	PartialWhy: "Qwen Code's agent files list tool names only: a name grants the whole tool",
	Hook:       qwenHook,
	// Probed: a prompt naming ${id} makes Qwen Code refuse to start the
	// agent ("Missing context values"); there is no escape.
	Template: &PromptTemplate{Name: lazyRegexp(`\$\{([a-zA-Z_]\w*)\}`),
		Values: []string{"task_prompt (the task)", "hook_context"}},
	Exports:  true,
	AgentEnv: []string{"QWEN_CODE"},
	Client:   "@qwen-code/qwen-code@0.24.4",
}

// qwenHook: Qwen Code registers an agent file's hooks while the agent
// runs, in Claude Code's shape, and a PreToolUse hook's exit status 2
// refuses the call with stderr as the reason the model reads. It runs
// them for every call in the session meanwhile, and marks a call made
// inside a sub-agent with agent_id; a call without one is the main
// session's, which the agent's limits do not cover (it registers an
// agent's hooks only when it runs the agent as a sub-agent, and sets
// agent_id from the sub-agent's context). A deferred tool
// called through the tool_call bridge (monitor is one) is dispatched
// under its own name, hooks included. Per the Qwen Code docs (hooks,
// sub-agents) and sources (the tool_call bridge), 0.24; the probes saw
// the refusal.
var qwenHook = &Hook{
	Tools: []HookTool{{"run_shell_command", agents.KindShell, "command"}, {"monitor", agents.KindShell, "command"},
		{"read_file", agents.KindRead, "file_path"}, {"edit", agents.KindEdit, "file_path"},
		{"write_file", agents.KindCreate, "file_path"}, {"notebook_edit", agents.KindNotebook, "notebook_path"},
		{"web_fetch", agents.KindWebFetch, "url"}},
	Call: func(input []byte) (HookCall, error) {
		in, err := readPreToolUse("Qwen Code", input)
		if err != nil {
			return HookCall{}, err
		}
		main, err := in.inMainSession("Qwen Code")
		return HookCall{Tool: in.Tool, Input: in.Input, Dir: in.Cwd, NotTheAgents: main}, err
	},
	Refuse: refuseExit2,
	Ask:    askExit0,
	// -p, with no one to answer, refuses the call at once, the hook's
	// reason its answer (enforcement-ask-qwen.json): its scheduler puts
	// an ask to the user only where one can answer, and refuses it
	// elsewhere. It runs an agent's hooks only while the agent is a
	// sub-agent (SubAgent), so there is no top-level answer.
	AskUnattendedSubAgent: "refused",
	WindowsShell:          enforce.Cmd,
	// Set (with CLAUDE_PROJECT_DIR and GEMINI_PROJECT_DIR) to the
	// session's working directory, which only the user's /cd moves; a
	// shell command's cd does not outlive it.
	ProjectDir: "QWEN_PROJECT_DIR",
	// It runs an agent's hooks only while the agent is a sub-agent, the
	// way its probes run every agent (enforcement-qwen.json).
	SubAgent: true,
	// With its folder trust on, Qwen Code still loads a project agent in
	// an untrusted folder but ignores its hooks (a debug line says so):
	// the limits they enforce would not be.
	Setup: "Qwen Code, with folder trust on (security.folderTrust.enabled), ignores the hooks of a project's agents " +
		"until the folder is trusted (~/.qwen/trustedFolders.json); until then the limits they enforce are not enforced. export --trust records it",
	Trust: func(root, home string) []FileEdit {
		return []FileEdit{{Path: filepath.Join(home, ".qwen", "trustedFolders.json"), Edit: func(old []byte) ([]byte, error) {
			return emit.SetMember(old, []string{root}, "TRUST_FOLDER")
		}}}
	},
	// Its agents and settings (hooks, MCP servers) in the project and the
	// home directory, where the folders it trusts are kept too.
	Guard: []string{".qwen", "~/.qwen"},
}

var qwenFile = &listFile{info: qwenInfo, tools: "tools", deny: "disallowedTools", model: "model", servers: "mcpServers",
	maxTurns: "maxTurns", mcp: claudeMCP, entry: qwenEntry, emptyAll: true, star: "*", checkName: qwenName, minPrompt: 10}

// qwenName is Qwen Code's validator: 2 to 50 letters, digits, '-' and
// '_', neither first nor last a '-' or '_', and not a reserved word.
func qwenName(name string) error {
	n := []rune(name)
	ok := len(n) >= 2 && len(n) <= 50 && !strings.ContainsAny(string(n[0])+string(n[len(n)-1]), "-_")
	for _, r := range n {
		ok = ok && (unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_')
	}
	if !ok || slices.Contains([]string{"self", "system", "user", "model", "tool", "config", "default", "main"}, strings.ToLower(name)) {
		return fmt.Errorf("name %q is not 2 to 50 letters, digits, '-' and '_' (neither first nor last a '-' or '_'), or is a reserved word (self, system, user, model, tool, config, default, main)", name)
	}
	return nil
}

// qwenID maps a name to one Qwen Code accepts: each run of other
// characters becomes '-' (powershell-5.1-expert: powershell-5-1-expert),
// leading and trailing '-' and '_' go, and a name is cut to 50. A name
// that is still refused (too short, a reserved word) comes back as it
// was, and is not written.
func qwenID(name string) string {
	var b strings.Builder
	dash := false
	for _, r := range name {
		if unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_' {
			b.WriteRune(r)
			dash = false
		} else if !dash {
			b.WriteByte('-')
			dash = true
		}
	}
	id := []rune(strings.Trim(b.String(), "-_"))
	if len(id) > 50 {
		id = []rune(strings.TrimRight(string(id[:50]), "-_"))
	}
	if qwenName(string(id)) != nil {
		return name
	}
	return string(id)
}

func (qwen) Info() *Info { return qwenInfo }

func (qwen) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	return qwenFile.read(src, cat, nil)
}

func (qwen) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	return qwenFile.render(def, id, marker, cat, nil)
}

// qwenEntry reads an MCP name: mcp__server__tool, or mcp__server for
// all of a server's tools.
func qwenEntry(_ reader, name string) ([]string, bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok || rest == "" || strings.Contains(rest, "*") {
		return nil, false
	}
	if server, tool, ok := strings.Cut(rest, "__"); ok && tool != "" {
		return []string{agents.MCPPattern(server, tool)}, true
	}
	return []string{agents.MCPPattern(strings.TrimSuffix(rest, "__"), "")}, true
}
