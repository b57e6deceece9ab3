package dialect

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// copilot is GitHub Copilot (the CLI, the cloud agent and VS Code):
// markdown agents in .github/agents/*.agent.md at the repository root and
// in $COPILOT_HOME/agents (~/.copilot/agents), known by their file name;
// `name` is only a display name. The tools field takes Copilot's aliases
// (read, edit, search, execute, web, agent, todo), Claude Code's names,
// VS Code's tool names and tool-set paths and their legacy names, and MCP
// tools as server/tool. Per docs.github.com custom-agents-configuration,
// code.visualstudio.com tools reference and the VS Code sources, 2026.
type copilot struct{}

var copilotInfo = &Info{
	Name: "copilot", Title: "Copilot", Dir: ".github/agents", Ext: ".agent.md", ReadExts: []string{".agent.md", ".md"},
	MCPKeys: []MCPKey{{"type", "type"}, {"command", "command"}, {"args", "args"}, {"env", "env"},
		{"cwd", "cwd"}, {"url", "url"}, {"headers", "headers"}, {"tools", "tools"}, {"timeout", "timeout"}},
	MCPTypes:     []string{"local", "stdio", "http", "sse"},
	MCPStarTools: true,
	MCPRequired:  true,
	Marks:        []string{".agent.md", ".github/agents/", ".copilot/agents/"},
	Signature:    []string{"handoffs", "argument-hint", "target", "infer", "user-invocable", "user-invokable", "agents", "mcp-servers", "disable-model-invocation"},
	Doc:          "`.github/agents/*.agent.md` at the repository root (and `.claude/agents`), then `$COPILOT_HOME/agents`; known by file name",
	Dirs: func(env Env) []SourceDir {
		home := env.CopilotHome
		if home == "" {
			home = filepath.Join(env.Home, ".copilot")
		}
		return []SourceDir{
			{Path: filepath.Join(env.RepoRoot, ".github", "agents"), Location: ProjectLocation, Format: "copilot"},
			{Path: filepath.Join(env.RepoRoot, ".claude", "agents"), Location: ProjectLocation, Format: "claude"},
			userDir(filepath.Join(home, "agents"), "copilot"),
		}
	},
	BuiltIns: []BuiltIn{{"explore", Shadowed}, {"task", Shadowed}, {"general-purpose", Shadowed}, {"code-review", Shadowed},
		{"research", Shadowed}, {"rubber-duck", Shadowed}, {"configure-copilot", Shadowed}},
	Vocabulary: []Word{
		// The aliases every Copilot reads; bn writes these. VS Code reads
		// each as the tool set of the same name, which grants a little
		// more (search: also semantic search and usages).
		{Name: "read", Kinds: []agents.Kind{agents.KindRead, agents.KindList, agents.KindLSP}, Write: true},
		{Name: "edit", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate, agents.KindNotebook}, Write: true},
		{Name: "search", Kinds: []agents.Kind{agents.KindGrep, agents.KindGlob, agents.KindCodeSearch, agents.KindLSP}, Write: true},
		{Name: "execute", Kinds: []agents.Kind{agents.KindShell}, Write: true},
		{Name: "web", Kinds: []agents.Kind{agents.KindWebFetch, agents.KindWebSearch}, Write: true},
		{Name: "agent", Kinds: []agents.Kind{agents.KindAgent}, Write: true},
		{Name: "todo", Kinds: []agents.Kind{agents.KindTodo}, Write: true},
		// Compatible aliases (Copilot maps them to the ones above).
		{Name: "shell", Kinds: []agents.Kind{agents.KindShell}}, {Name: "Bash", Kinds: []agents.Kind{agents.KindShell}}, {Name: "powershell", Kinds: []agents.Kind{agents.KindShell}},
		{Name: "Read", Kinds: []agents.Kind{agents.KindRead, agents.KindList, agents.KindLSP}}, {Name: "NotebookRead", Kinds: []agents.Kind{agents.KindRead, agents.KindList, agents.KindLSP}},
		{Name: "Edit", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate, agents.KindNotebook}}, {Name: "MultiEdit", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate, agents.KindNotebook}},
		{Name: "Write", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate, agents.KindNotebook}}, {Name: "NotebookEdit", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate, agents.KindNotebook}},
		{Name: "Grep", Kinds: []agents.Kind{agents.KindGrep, agents.KindGlob, agents.KindList, agents.KindCodeSearch, agents.KindLSP}}, {Name: "Glob", Kinds: []agents.Kind{agents.KindGrep, agents.KindGlob, agents.KindList, agents.KindCodeSearch, agents.KindLSP}},
		{Name: "custom-agent", Kinds: []agents.Kind{agents.KindAgent}}, {Name: "Task", Kinds: []agents.Kind{agents.KindAgent}}, {Name: "Agent", Kinds: []agents.Kind{agents.KindAgent}},
		{Name: "WebSearch", Kinds: []agents.Kind{agents.KindWebFetch, agents.KindWebSearch}}, {Name: "WebFetch", Kinds: []agents.Kind{agents.KindWebFetch, agents.KindWebSearch}},
		{Name: "TodoWrite", Kinds: []agents.Kind{agents.KindTodo}},
		// VS Code tool paths, and the flat and legacy names that resolve
		// to them.
		{Name: "read/readFile", Kinds: []agents.Kind{agents.KindRead}}, {Name: "readFile", Kinds: []agents.Kind{agents.KindRead}, Legacy: true}, {Name: "search/readFile", Kinds: []agents.Kind{agents.KindRead}, Legacy: true},
		{Name: "read/problems", Kinds: []agents.Kind{agents.KindLSP}}, {Name: "problems", Kinds: []agents.Kind{agents.KindLSP}, Legacy: true},
		{Name: "read/getNotebookSummary", Kinds: []agents.Kind{agents.KindRead}}, {Name: "read/readNotebookCellOutput", Kinds: []agents.Kind{agents.KindRead}}, {Name: "read/viewImage", Kinds: []agents.Kind{agents.KindRead}},
		{Name: "edit/editFiles", Kinds: []agents.Kind{agents.KindEdit}}, {Name: "editFiles", Kinds: []agents.Kind{agents.KindEdit}, Legacy: true},
		{Name: "edit/createFile", Kinds: []agents.Kind{agents.KindCreate}}, {Name: "createFile", Kinds: []agents.Kind{agents.KindCreate}, Legacy: true},
		{Name: "edit/createDirectory", Kinds: []agents.Kind{agents.KindCreate}}, {Name: "createDirectory", Kinds: []agents.Kind{agents.KindCreate}, Legacy: true},
		{Name: "edit/editNotebook", Kinds: []agents.Kind{agents.KindNotebook}}, {Name: "edit/createJupyterNotebook", Kinds: []agents.Kind{agents.KindNotebook}}, {Name: "newJupyterNotebook", Kinds: []agents.Kind{agents.KindNotebook}, Legacy: true},
		{Name: "search/codebase", Kinds: []agents.Kind{agents.KindCodeSearch}}, {Name: "codebase", Kinds: []agents.Kind{agents.KindCodeSearch, agents.KindGlob, agents.KindGrep}, Legacy: true}, // the CLI grants glob and grep for it
		{Name: "search/fileSearch", Kinds: []agents.Kind{agents.KindGlob}}, {Name: "fileSearch", Kinds: []agents.Kind{agents.KindGlob}, Legacy: true}, {Name: "findFiles", Kinds: []agents.Kind{agents.KindGlob}, Legacy: true},
		{Name: "search/textSearch", Kinds: []agents.Kind{agents.KindGrep}}, {Name: "textSearch", Kinds: []agents.Kind{agents.KindGrep}, Legacy: true},
		{Name: "search/listDirectory", Kinds: []agents.Kind{agents.KindList}}, {Name: "listDirectory", Kinds: []agents.Kind{agents.KindList}, Legacy: true},
		{Name: "search/usages", Kinds: []agents.Kind{agents.KindLSP}}, {Name: "usages", Kinds: []agents.Kind{agents.KindLSP}, Legacy: true},
		{Name: "execute/runInTerminal", Kinds: []agents.Kind{agents.KindShell}}, {Name: "runInTerminal", Kinds: []agents.Kind{agents.KindShell}, Legacy: true},
		{Name: "runCommands/runInTerminal", Kinds: []agents.Kind{agents.KindShell}, Legacy: true},
		{Name: "execute/getTerminalOutput", Kinds: []agents.Kind{agents.KindShell}}, {Name: "getTerminalOutput", Kinds: []agents.Kind{agents.KindShell}, Legacy: true},
		{Name: "runCommands/getTerminalOutput", Kinds: []agents.Kind{agents.KindShell}, Legacy: true},
		{Name: "execute/killTerminal", Kinds: []agents.Kind{agents.KindShell}}, {Name: "execute/sendToTerminal", Kinds: []agents.Kind{agents.KindShell}}, {Name: "execute/awaitTerminal", Kinds: []agents.Kind{agents.KindShell}},
		{Name: "runCommands", Kinds: []agents.Kind{agents.KindShell}, Legacy: true},
		{Name: "web/fetch", Kinds: []agents.Kind{agents.KindWebFetch}}, {Name: "fetch", Kinds: []agents.Kind{agents.KindWebFetch}, Legacy: true},
		{Name: "agent/runSubagent", Kinds: []agents.Kind{agents.KindAgent}}, {Name: "runSubagent", Kinds: []agents.Kind{agents.KindAgent}, Legacy: true},
		{Name: "todos", Kinds: []agents.Kind{agents.KindTodo}, Legacy: true},
		{Name: "vscode/askQuestions", Kinds: []agents.Kind{agents.KindAsk}}, {Name: "askQuestions", Kinds: []agents.Kind{agents.KindAsk}, Legacy: true},
		{Name: "vscode/memory", Kinds: []agents.Kind{agents.KindMemory}},
	},
	Fields: []FieldSpec{
		{Key: "tools", Hint: true, Check: checkStrings}, {Key: "agents", Hint: true, Check: checkStrings},
		{Key: "model", Hint: true, Check: checkStrings},
		{Key: "user-invocable", Hint: true, Check: checkBool}, {Key: "user-invokable", Hint: true, Check: checkBool},
		{Key: "disable-model-invocation", Hint: true, Check: checkBool}, {Key: "infer", Hint: true, Check: checkBool},
		{Key: "name", Doc: "display name (the file name is the id)", Check: checkString, Naming: true},
		{Key: "target", Doc: "vscode or github-copilot; unset means both", Check: checkEnum("vscode", "github-copilot")},
		{Key: "argument-hint", Doc: "hint shown in the chat input (VS Code)", Check: checkString},
		{Key: "handoffs", Doc: "buttons to hand the conversation to another agent (VS Code)", Check: checkList, AgentKey: "agent"},
		{Key: "metadata", Doc: "annotations (string values)", Check: checkMap},
		{Key: "hooks", Doc: "VS Code hooks (preview)", Check: checkMap, Runs: true},
	},
	// The Copilot CLI's own tools, as it offers them to an agent.
	Runtime: []Word{
		{Name: "bash", Kinds: []agents.Kind{agents.KindShell}}, {Name: "read_bash", Kinds: []agents.Kind{agents.KindShell}},
		{Name: "stop_bash", Kinds: []agents.Kind{agents.KindShell}}, {Name: "list_bash", Kinds: []agents.Kind{agents.KindShell}},
		{Name: "write_bash", Kinds: []agents.Kind{agents.KindShell}},
		{Name: "view", Kinds: []agents.Kind{agents.KindRead, agents.KindList}},
		{Name: "create", Kinds: []agents.Kind{agents.KindCreate}}, {Name: "edit", Kinds: []agents.Kind{agents.KindEdit}},
		{Name: "glob", Kinds: []agents.Kind{agents.KindGlob}}, {Name: "grep", Kinds: []agents.Kind{agents.KindGrep}},
		{Name: "task", Kinds: []agents.Kind{agents.KindAgent}}, {Name: "read_agent", Kinds: []agents.Kind{agents.KindAgent}},
		{Name: "list_agents", Kinds: []agents.Kind{agents.KindAgent}}, {Name: "write_agent", Kinds: []agents.Kind{agents.KindAgent}},
		{Name: "update_todo", Kinds: []agents.Kind{agents.KindTodo}},
		{Name: "web_fetch", Kinds: []agents.Kind{agents.KindWebFetch}},
	},
	Partial: "widen",
	PartialWhy: "Copilot asks the user before each terminal command and each file change it has not been told to allow, " +
		"so an agent file that grants `execute` for a `shell(git diff:*)` rule still stops at every other command; " +
		"`bn config agents launch` starts the Copilot CLI held to the rule by `--allow-tool`/`--deny-tool` flags",
	Exports:  true,
	AgentEnv: []string{"COPILOT_CLI_BINARY_VERSION"},
	Client:   "@github/copilot@1.0.102",
	// The probes (enforcement-copilot.json) saw such a hook run offline
	// and its exit status 2 refuse a bash call, only in a trusted folder;
	// its input named no agent, and a hook in the agent file's own
	// frontmatter did not run at all.
	RepoHook: &RepoHook{
		Path: ".github/hooks/bn.json",
		Config: func(command string) string {
			b, _ := json.Marshal(map[string]any{"version": 1, "hooks": map[string]any{
				"PreToolUse": []map[string]any{{"type": "command", "bash": command}}}})
			return string(b)
		},
		TrustFlag: "--trust-folder",
	},
	// The probes saw a sub-agent offered neither skills nor the session's
	// SQL store.
	SubWithheld: []string{"skill", "sql"},
}

func (copilot) Info() *Info { return copilotInfo }

// copilotSets are VS Code's tool sets (and their legacy names): a name
// under one of them is a built-in tool, not an MCP server.
var copilotSets = []string{"read", "edit", "search", "execute", "web", "agent", "vscode", "browser", "todo",
	"runCommands", "runTasks", "runNotebooks", "new"}

func (c copilot) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	im := &Imported{Format: copilotInfo.Name, File: src.Path}
	f, err := readMarkdown(src, im)
	if err != nil {
		return nil, err
	}
	stem := strings.TrimSuffix(filepath.Base(src.Path), ".md")
	stem = strings.TrimSuffix(stem, ".agent")
	if err := setIdentity(im, copilotInfo, stem, f.description(), f.body, errEmptyBody); err != nil {
		return nil, err
	}
	tools, hasTools := f.keep(im, copilotInfo.Name, "tools")
	subagents, _ := f.keep(im, copilotInfo.Name, "agents")
	im.Def.Tools = copilotTools(reader{copilotInfo, im}, tools, hasTools, subagents)
	if m, ok := f.take("model"); ok {
		readModel(im, copilotInfo.Name, "model", m, cat)
	}
	for _, key := range []string{"user-invocable", "user-invokable"} {
		if v, ok := f.keep(im, copilotInfo.Name, key); ok {
			if b, ok := v.(bool); ok {
				im.Def.Hidden = !b
			}
		}
	}
	if v, ok := f.keep(im, copilotInfo.Name, "infer"); ok {
		if b, ok := v.(bool); ok {
			im.Def.ModelInvocable = &b
		}
	}
	if v, ok := f.keep(im, copilotInfo.Name, "disable-model-invocation"); ok {
		if b, ok := v.(bool); ok {
			invocable := !b
			im.Def.ModelInvocable = &invocable
		}
	}
	if v, ok := f.take("mcp-servers"); ok {
		if m, ok := v.(*agents.Map); ok {
			for _, name := range m.Keys {
				server, ok := m.Values[name].(*agents.Map)
				for _, key := range []string{"type", "tools"} {
					if !ok {
						break // not a mapping: readMCPServers says so
					}
					if _, has := server.Get(key); !has {
						return nil, fmt.Errorf("mcp-servers.%s.%s: Required, says the Copilot CLI, which rejects the file; add %s", name, key,
							map[string]string{"type": `type: stdio (or http)`, "tools": `tools: ["*"]`}[key])
					}
				}
			}
		}
		readMCPServers(im, copilotInfo, v)
	}
	noteOwnServers(im)
	f.rest(im, copilotInfo)
	return im, nil
}

// copilotOwnServers are the MCP servers Copilot starts without any
// configuration: elsewhere these names are whatever server, if any, the
// tool's own MCP configuration holds.
var copilotOwnServers = []string{"github", "playwright"}

// noteOwnServers says so for each the agent's tools name and its own
// mcp-servers does not define.
func noteOwnServers(im *Imported) {
	for _, server := range copilotOwnServers {
		named := slices.ContainsFunc(im.Def.Tools.Allow, func(p string) bool { return p == server || strings.HasPrefix(p, server+"(") })
		if named && !slices.ContainsFunc(im.Def.MCPServers, func(s agents.MCPServer) bool { return s.Name == server }) {
			im.note("%s/*: Copilot starts its own %s MCP server for it; other tools have a server %q only where their MCP configuration names one (to carry it, add mcp-server %s { … } to the agent)", server, server, server, server)
		}
	}
}

// copilotTools reads a tools value (with the agents list of sub-agents).
func copilotTools(r reader, tools any, hasTools bool, subagents any) agents.Tools {
	t := agents.Tools{All: !hasTools}
	names, _ := r.names("tools", tools, false)
	for _, name := range names {
		if name == "*" {
			t.All = true
			continue
		}
		t.Allow = appendNew(t.Allow, copilotPattern(r, name)...)
	}
	if t.All {
		t.Allow = nil
		return t
	}
	if list, _ := r.names("agents", subagents, false); len(list) > 0 && !slices.Contains(list, "*") && slices.Contains(t.Allow, string(agents.KindAgent)) {
		t.Allow = slices.DeleteFunc(t.Allow, func(s string) bool { return s == string(agents.KindAgent) })
		for _, a := range list {
			t.Allow = appendNew(t.Allow, "agent("+a+")")
		}
	}
	return t
}

// copilotPattern maps one tools entry to bn patterns.
func copilotPattern(r reader, name string) []string {
	if w, ok := r.word(name, false); ok {
		return kindPatterns(w.Kinds, "")
	}
	// Copilot's aliases match case-insensitively; VS Code's paths do not.
	if !strings.Contains(name, "/") {
		if w, ok := r.word(name, true); ok && w.Write {
			return kindPatterns(w.Kinds, "")
		}
	}
	if set, tool, ok := strings.Cut(name, "/"); ok {
		// The Copilot CLI reads server/NAME by its last part: a NAME that
		// is one of its own tools (fs/edit, azure-mcp/search) grants
		// that tool, whatever server names it.
		last := name[strings.LastIndexByte(name, '/')+1:]
		var builtIn []string
		for _, words := range [][]Word{copilotInfo.Runtime, copilotInfo.Vocabulary} {
			if i := slices.IndexFunc(words, func(w Word) bool { return w.Name == last }); i >= 0 && builtIn == nil {
				builtIn = kindPatterns(words[i].Kinds, "")
			}
		}
		if builtIn != nil && !slices.Contains(copilotSets, set) && !strings.Contains(set, ".") {
			r.im.note("%s: the Copilot CLI reads it as its own %s tool, so bn reads it as %s (and as the %s server's tool)", name, last, strings.Join(builtIn, ", "), set)
			return append(builtIn, agents.MCPPattern(set, tool))
		}
		switch {
		case slices.Contains(copilotSets, set):
			return []string{r.native(name)} // a VS Code tool bn has no kind for
		case strings.Contains(set, "."):
			return []string{r.native(name)} // a VS Code extension's tool
		}
		return []string{agents.MCPPattern(set, tool)} // tool * is every tool of an MCP server
	}
	if slices.Contains(copilotSets, name) {
		return []string{r.native(name)}
	}
	return []string{r.native(name)}
}

func (c copilot) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	d := &frontmatterDoc{}
	t := def.TargetOf(copilotInfo.Name)
	if name, ok := t.Fields.Get("name"); ok {
		d.set("name", name) // a display name; the file name is the id
	}
	d.set("description", def.Description)
	var losses []Loss
	tools, subagents, tl := c.tools(&def)
	losses = append(losses, tl...)
	if tools != nil {
		d.set("tools", tools)
	}
	if subagents != nil {
		d.set("agents", subagents)
	}
	model, ml := writeModel(&def, copilotInfo, "model", cat)
	losses = append(losses, ml...)
	if model != nil {
		d.set("model", model)
	}
	// Hidden and model-invocable, in the spelling the file used.
	hidden := def.Hidden || def.Mode == "subagent"
	wroteHidden := false
	for _, key := range []string{"user-invocable", "user-invokable"} {
		if v, ok := t.Fields.Get(key); ok && v == !hidden {
			d.set(key, v)
			wroteHidden = true
			break
		}
	}
	if hidden && !wroteHidden {
		d.set("user-invocable", false)
	}
	invocable := def.ModelInvocable == nil || *def.ModelInvocable
	if def.Mode == "primary" {
		invocable = false
	}
	switch v, ok := t.Fields.Get("infer"); {
	case ok && v == invocable:
		d.set("infer", v)
	default:
		if dmi, ok := t.Fields.Get("disable-model-invocation"); ok && dmi == !invocable {
			d.set("disable-model-invocation", dmi)
		} else if !invocable {
			d.set("disable-model-invocation", true)
		}
	}
	if len(def.MCPServers) > 0 {
		m, ml := mcpServerMap(&def, copilotInfo)
		losses = append(losses, ml...)
		if m.Len() > 0 {
			d.set("mcp-servers", m)
		}
	}
	losses = append(losses, sectionFields(d, &def, copilotInfo, "name")...)
	losses = append(losses, otherLosses(&def, copilotInfo, carried{"hidden": true, "model-invocable": true, "mode": true, agents.NodeMCPServer: true, "reasoning-effort": true})...)
	if def.ReasoningEffort != "" {
		losses = append(losses, Loss{Field: "reasoning-effort", Kind: Dropped,
			Detail: "Copilot agent files have no reasoning effort (bn config agents copilot-config carries it for the CLI)"})
	}
	content, err := d.markdown(marker, def.Prompt)
	return Rendered{Content: content, Losses: losses}, err
}

// tools returns the tools and agents values (nil: leave out).
func (c copilot) tools(def *agents.Definition) (any, any, []Loss) {
	hints := def.TargetOf(copilotInfo.Name).Fields
	toolsHint, hasTools := hints.Get("tools")
	agentsHint, hasAgents := hints.Get("agents")
	if hasTools || hasAgents {
		if copilotTools(reader{copilotInfo, &Imported{}}, toolsHint, hasTools, agentsHint).Equal(def.Tools) {
			return toolsHint, agentsHint, nil
		}
	}
	partial := copilotInfo.Partial
	if p := def.TargetOf(copilotInfo.Name).Partial; p != "" {
		partial = p
	}
	w := listWriter{info: copilotInfo, mcp: copilotMCP, partial: partial, agentsApart: true}
	plan := w.write(def.Tools)
	if plan.all {
		return nil, nil, plan.losses
	}
	var sub any
	if len(plan.agents) > 0 {
		sub = plan.agents
	}
	return plan.names, sub, plan.losses
}

func copilotMCP(server, tool string) (string, bool) {
	if tool == "" {
		return server + "/*", true
	}
	return server + "/" + tool, true
}

// copilotApprovals are the Copilot CLI's permission kinds, as
// --allow-tool and --deny-tool take them, and the kinds each approves.
var copilotApprovals = []Word{
	{Name: "read", Kinds: []agents.Kind{agents.KindRead, agents.KindList}},
	{Name: "write", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate}},
	{Name: "shell", Kinds: []agents.Kind{agents.KindShell}},
	{Name: "url", Kinds: []agents.Kind{agents.KindWebFetch}},
	{Name: "memory", Kinds: []agents.Kind{agents.KindMemory}},
}

// CopilotLaunchFlags are the Copilot CLI flags that start a session as
// the agent: its model and reasoning effort, and its tools. The tools are
// held by --deny-tool for every deny (never narrower in Copilot's
// grammar than in bn's) and for each permission kind the agent may not
// use at all, --allow-tool for each allow the CLI can approve without
// approving more (anything else it asks the user about), and
// --excluded-tools for the CLI's own tools the agent may not use. Notes
// name what a flag cannot carry.
func CopilotLaunchFlags(def agents.Definition, cat *agents.Catalog) (args, notes []string) {
	args, notes = CopilotToolFlags(def)
	model, modelNotes := CopilotModel(def, cat)
	if model != "" {
		args = append(args, "--model", model)
	}
	if def.ReasoningEffort != "" {
		args = append(args, "--reasoning-effort", def.ReasoningEffort)
	}
	return args, append(notes, modelNotes...)
}

// CopilotModel is the agent's model as the Copilot CLI spells it, or ""
// with a note when it is left out (Copilot cannot run it, or the catalog
// does not know it); a note also says when an alias is pinned.
func CopilotModel(def agents.Definition, cat *agents.Catalog) (string, []string) {
	var notes []string
	model, losses := writeModel(&def, copilotInfo, "model", cat)
	names := modelNames(model)
	for _, l := range losses {
		if len(names) == 0 {
			l.Detail += "; the Copilot CLI runs its default model"
		}
		notes = append(notes, l.Detail)
	}
	if len(names) > 0 {
		return names[0], notes
	}
	return "", notes
}

// CopilotToolFlags are the Copilot CLI flags that hold a session to the
// agent's tools (CopilotLaunchFlags), and notes on what they cannot say.
func CopilotToolFlags(def agents.Definition) (args, notes []string) {
	seen := map[string]bool{}
	add := func(flag, value string) {
		if !seen[flag+value] {
			seen[flag+value] = true
			args = append(args, flag, value)
		}
	}
	t := def.Tools
	for _, list := range []struct {
		flag  string
		rules []string
		spell func(agents.Tools, string) ([]string, string)
	}{{"--deny-tool", t.Deny, copilotDeny}, {"--allow-tool", t.Allow, copilotAllow}} {
		for _, rule := range list.rules {
			values, note := list.spell(t, rule)
			for _, v := range values {
				add(list.flag, v)
			}
			if note != "" {
				notes = append(notes, note)
			}
		}
	}
	// Uses reads every rule: asked of a kind for each of the CLI's tools
	// that has it, it is answered once per kind.
	used := map[agents.Kind]bool{}
	uses := func(k agents.Kind) bool {
		u, ok := used[k]
		if !ok {
			u = t.Uses(k)
			used[k] = u
		}
		return u
	}
	// Denying a kind whole also holds the CLI's tools bn has no name for
	// (apply_patch, powershell): deny wins over every approval.
	for _, w := range copilotApprovals {
		if !slices.ContainsFunc(w.Kinds, uses) {
			add("--deny-tool", w.Name)
		}
	}
	for _, w := range copilotInfo.Runtime {
		if !slices.ContainsFunc(w.Kinds, uses) {
			add("--excluded-tools", w.Name)
		}
	}
	return args, notes
}

// copilotApproval says whether a name is one of the Copilot CLI's
// permission kinds, which a flag naming an MCP server of that name would
// mean instead.
func copilotApproval(name string) bool {
	return slices.ContainsFunc(copilotApprovals, func(w Word) bool { return strings.EqualFold(w.Name, name) })
}

// sharesKind says whether a Copilot permission kind approves any of kinds.
func (w Word) sharesKind(kinds []agents.Kind) bool {
	return slices.ContainsFunc(w.Kinds, func(k agents.Kind) bool { return slices.Contains(kinds, k) })
}

// useOf is a request for one kind with a rule's argument: what bn decides
// for it says whether the CLI's wider kind approves or refuses more.
func useOf(k agents.Kind, p agents.ToolPattern) agents.ToolPattern {
	return agents.ToolPattern{Kind: string(k), Arg: p.Arg, HasArg: p.HasArg && p.Arg != "*"}
}

// copilotMismatch says why the CLI's grammar would not match a rule's
// argument as bn does, or "" when it would: a flag value is split at
// commas, and a shell rule matches '*' only in a ':*' suffix.
func copilotMismatch(w Word, arg string) string {
	switch {
	case strings.Contains(arg, ","):
		return "a flag value cannot hold a comma"
	case w.Name == "shell" && strings.Contains(strings.TrimSuffix(arg, ":*"), "*"):
		return "the Copilot CLI matches '*' only in a ':*' suffix"
	}
	return ""
}

// copilotDeny spells a deny rule for --deny-tool. Where Copilot's grammar
// would match less than bn's rule, the whole permission kind is denied.
func copilotDeny(t agents.Tools, rule string) ([]string, string) {
	p, err := agents.ParseToolPattern(rule)
	if err != nil { // loading refuses it; should one get here, deny all
		var all []string
		for _, w := range copilotApprovals {
			all = append(all, w.Name)
		}
		return all, fmt.Sprintf("deny %q does not parse, so every Copilot CLI permission is denied", rule)
	}
	if _, _, native := agents.NativeTool(p); native {
		return nil, fmt.Sprintf("deny %q names no Copilot CLI tool: not enforced by a flag", rule)
	}
	kinds := p.Kinds()
	if kinds == nil { // an MCP server, or one of its tools
		switch {
		case copilotApproval(p.Kind):
			return []string{p.Kind}, fmt.Sprintf("deny %q also refuses the Copilot CLI's %s permission: the CLI reads the server's name as that permission", rule, p.Kind)
		case !p.HasArg || p.Arg == "*":
			return []string{p.Kind}, ""
		case strings.Contains(p.Arg, ","):
			return []string{p.Kind}, fmt.Sprintf("deny %q: every tool of %s denied, as a flag value cannot hold a comma", rule, p.Kind)
		}
		return []string{p.Kind + "(" + p.Arg + ")"}, ""
	}
	var values []string
	var note string
	for _, w := range copilotApprovals {
		if !w.sharesKind(kinds) {
			continue
		}
		var more []string
		for _, k := range w.Kinds {
			if !slices.Contains(kinds, k) && agents.Decide(t, useOf(k, p)).Allowed {
				more = append(more, string(k))
			}
		}
		if len(more) > 0 && note == "" {
			note = fmt.Sprintf("deny %q also refuses %s: the Copilot CLI denies %s as a whole", rule, strings.Join(more, " and "), w.Name)
		}
		switch {
		case !p.HasArg || p.Arg == "*":
			values = append(values, w.Name)
		case copilotMismatch(w, p.Arg) != "":
			return []string{w.Name}, fmt.Sprintf("deny %q: all of %s denied, as %s", rule, w.Name, copilotMismatch(w, p.Arg))
		case w.Name != "shell":
			values = append(values, w.Name+"("+p.Arg+")")
		default:
			// bn's shell(git push) also covers "git push origin"; the CLI's
			// needs the :* form for that.
			stem := strings.TrimSuffix(p.Arg, ":*")
			values = append(values, "shell("+stem+")", "shell("+stem+":*)")
		}
	}
	if len(values) == 0 && p.HasArg && p.Arg != "*" {
		return nil, fmt.Sprintf("deny %q: the Copilot CLI has no rule for one use of %s, so no flag refuses it", rule, p.Kind)
	}
	return values, note
}

// copilotAllow spells an allow rule for --allow-tool, only where the
// CLI's permission approves nothing the agent is not allowed.
func copilotAllow(t agents.Tools, rule string) ([]string, string) {
	p, err := agents.ParseToolPattern(rule)
	if err != nil {
		return nil, "" // loading refuses it; an allow that does not parse allows nothing
	}
	if _, _, native := agents.NativeTool(p); native {
		return nil, ""
	}
	kinds := p.Kinds()
	if kinds == nil {
		switch {
		case copilotApproval(p.Kind):
			return nil, fmt.Sprintf("allow %q: not approved ahead, as the Copilot CLI reads the server's name as its %s permission; it asks instead", rule, p.Kind)
		case !p.HasArg || p.Arg == "*":
			return []string{p.Kind}, ""
		case strings.Contains(p.Arg, ","):
			return nil, fmt.Sprintf("allow %q: not approved ahead, as a flag value cannot hold a comma; the Copilot CLI asks instead", rule)
		}
		return []string{p.Kind + "(" + p.Arg + ")"}, ""
	}
	var values []string
	for _, w := range copilotApprovals {
		if !w.sharesKind(kinds) {
			continue
		}
		value := w.Name
		if p.HasArg && p.Arg != "*" {
			if why := copilotMismatch(w, p.Arg); why != "" {
				return nil, fmt.Sprintf("allow %q: not approved ahead, as %s; the Copilot CLI asks instead", rule, why)
			}
			value += "(" + p.Arg + ")"
		}
		// The CLI's kind approves all of its kinds: only when bn allows
		// each of them for this argument.
		if !slices.ContainsFunc(w.Kinds, func(k agents.Kind) bool { return !agents.Decide(t, useOf(k, p)).Allowed }) {
			values = append(values, value)
		}
	}
	return values, ""
}
