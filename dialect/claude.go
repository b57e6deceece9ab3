package dialect

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/enforce"
)

// claude is Claude Code: markdown subagents in .claude/agents (every one
// from the working directory up to the repository root, the nearest
// winning) and ~/.claude/agents, found recursively, known by their name
// field. Tool names, permission-rule patterns and deny lists per
// code.claude.com/docs (sub-agents, tools-reference, permissions), 2026.
type claude struct{ info *Info }

var claudeInfo = &Info{
	Name: "claude", Title: claudeInfoTitle, Dir: ".claude/agents", Ext: ".md", ReadExts: []string{".md"}, Recursive: true,
	MCPKeys: []MCPKey{{"type", "type"}, {"command", "command"}, {"args", "args"}, {"env", "env"},
		{"url", "url"}, {"headers", "headers"}},
	MCPTypes: []string{"stdio", "http", "sse"},
	Marks:    []string{".claude/agents/"},
	Partial:  "widen",
	PartialWhy: "Claude Code drops a rule's parentheses in an agent file: `Bash(git diff:*)` in `tools` grants all of Bash, " +
		"and in `disallowedTools` removes all of it",
	Hook:      claudeHook,
	Fallback:  true,
	Signature: []string{"disallowedTools", "permissionMode", "maxTurns", "hooks", "memory", "effort", "isolation", "background"},
	Doc:       "`.claude/agents/**/*.md` from the working directory up to the repository root (nearest wins), then `~/.claude/agents`; known by `name`",
	Dirs: func(env Env) []SourceDir {
		return append(nearestDirs(env, ".claude/agents", "claude"), userDir(filepath.Join(env.Home, ".claude", "agents"), "claude"))
	},
	BuiltIns: []BuiltIn{{"Explore", Replaces}, {"Plan", Replaces}, {"general-purpose", Replaces}, {"statusline-setup", Replaces},
		{"claude-code-guide", Replaces}},
	// SendMessage and the background-task tools (TaskOutput, TaskStop and
	// their old names) start nothing and run no command: the probes saw
	// TaskStop and SendMessage offered to an agent without Bash or Agent.
	Own: []string{"Artifact", "CronCreate", "CronDelete", "CronList", "EndConversation", "EnterWorktree", "ExitWorktree",
		"ListMcpResourcesTool", "PushNotification", "ReadMcpResourceTool", "RemoteTrigger", "ReportFindings", "ScheduleWakeup",
		"SendUserFile", "ShareOnboardingGuide", "ToolSearch", "WaitForMcpServers", "Workflow", "ListAgents",
		"SendMessage", "TaskOutput", "TaskStop", "BashOutput", "KillShell", "KillBash"},
	// The probes saw Claude Code 2.1 offer none of these any more.
	Retired:    []string{"TodoWrite", "TeamCreate", "TeamDelete", "LS", "MultiEdit"},
	Vocabulary: claudeVocabulary,
	// Claude Code 2.1's native builds search inside Bash (its grep and
	// find are embedded ugrep and bfs) and offer no Grep or Glob tool
	// beside it; the probes saw Grep and Glob offered only when listed,
	// to an agent without Bash.
	Runtime: withKinds(claudeVocabulary, "Bash", agents.KindShell, agents.KindGrep, agents.KindGlob, agents.KindList),
	Fields: []FieldSpec{
		{Key: "tools", Hint: true, Check: checkStrings}, {Key: "disallowedTools", Hint: true, Check: checkStrings},
		{Key: "model", Hint: true, Check: checkString}, {Key: "color", Hint: true, Check: checkString},
		{Key: "skills", Hint: true, Check: checkStrings},
		// Claude Code loads a file whatever these hold, ignoring a value
		// it does not take (the probes saw it): such a value is kept and
		// written back, with a warning.
		{Key: "hooks", Doc: "PreToolUse, PostToolUse and Stop hooks", Check: ignored(claudeInfoTitle, checkMap), Runs: true, Narrows: preToolHooks},
		{Key: "permissionMode", Doc: "default, acceptEdits, auto, dontAsk, bypassPermissions, plan (manual is default)",
			Check: ignored(claudeInfoTitle, checkEnum("default", "acceptEdits", "auto", "dontAsk", "bypassPermissions", "plan", "manual")), Narrows: claudePlanMode},
		{Key: "memory", Doc: "user, project or local memory", Check: ignored(claudeInfoTitle, checkEnum("user", "project", "local"))},
		{Key: "isolation", Doc: "worktree: run in its own git worktree", Check: ignored(claudeInfoTitle, checkEnum("worktree"))},
		{Key: "background", Doc: "run in the background", Check: ignored(claudeInfoTitle, checkBool)},
		{Key: "initialPrompt", Doc: "first message when run as the main agent", Check: ignored(claudeInfoTitle, checkString)},
		{Key: "effort", Doc: "a reasoning effort as a whole number (a named level is bn's reasoning-effort)", Check: ignored(claudeInfoTitle, checkInt)},
		{Key: "maxTurns", Doc: "a turn limit Claude Code ignores (a whole number above 0 is bn's max-turns)", Check: ignored(claudeInfoTitle, checkInt)},
	},
	Exports:  true,
	AgentEnv: []string{"CLAUDECODE"},
	Client:   "@anthropic-ai/claude-code@2.1.330",
	// The probes saw a sub-agent offered neither the task list nor the
	// scheduling and workflow tools.
	SubWithheld: []string{"CronCreate", "CronDelete", "CronList", "ListAgents", "ReportFindings", "ScheduleWakeup",
		"TaskCreate", "TaskGet", "TaskList", "TaskUpdate", "Workflow"},
}

var claudeVocabulary = []Word{
	{Name: "Read", Kinds: []agents.Kind{agents.KindRead}, Write: true},
	{Name: "NotebookRead", Kinds: []agents.Kind{agents.KindRead}, Legacy: true},
	// Claude Code 2.1 offers no Glob or Grep beside Bash (Runtime): its
	// Bash searches, as far as the shell's patterns allow.
	{Name: "Glob", Kinds: []agents.Kind{agents.KindGlob, agents.KindList}, Write: true, HiddenBy: agents.KindShell},
	{Name: "Grep", Kinds: []agents.Kind{agents.KindGrep}, Write: true, HiddenBy: agents.KindShell},
	{Name: "LSP", Kinds: []agents.Kind{agents.KindLSP}, Write: true},
	{Name: "Edit", Kinds: []agents.Kind{agents.KindEdit}, Write: true},
	{Name: "Write", Kinds: []agents.Kind{agents.KindCreate}, Write: true},
	{Name: "NotebookEdit", Kinds: []agents.Kind{agents.KindNotebook}, Write: true},
	{Name: "Bash", Kinds: []agents.Kind{agents.KindShell}, Write: true},
	{Name: "PowerShell", Kinds: []agents.Kind{agents.KindShell}},
	{Name: "Monitor", Kinds: []agents.Kind{agents.KindShell}},
	{Name: "WebFetch", Kinds: []agents.Kind{agents.KindWebFetch}, Write: true},
	{Name: "WebSearch", Kinds: []agents.Kind{agents.KindWebSearch}, Write: true},
	{Name: "Agent", Kinds: []agents.Kind{agents.KindAgent}, Write: true},
	{Name: "Task", Kinds: []agents.Kind{agents.KindAgent}, Legacy: true},
	{Name: "TaskCreate", Kinds: []agents.Kind{agents.KindTodo}, Write: true, Group: "tasks"},
	{Name: "TaskGet", Kinds: []agents.Kind{agents.KindTodo}, Write: true, Group: "tasks"},
	{Name: "TaskList", Kinds: []agents.Kind{agents.KindTodo}, Write: true, Group: "tasks"},
	{Name: "TaskUpdate", Kinds: []agents.Kind{agents.KindTodo}, Write: true, Group: "tasks"},
	{Name: "Skill", Kinds: []agents.Kind{agents.KindSkill}, Write: true},
	{Name: "AskUserQuestion", Kinds: []agents.Kind{agents.KindAsk}, Write: true},
	{Name: "EnterPlanMode", Kinds: []agents.Kind{agents.KindPlan}, Write: true, Group: "plan"},
	{Name: "ExitPlanMode", Kinds: []agents.Kind{agents.KindPlan}, Write: true, Group: "plan"},
}

const claudeInfoTitle = "Claude Code"

func (c claude) Info() *Info { return c.info }

var claudeColors = []string{"red", "blue", "green", "yellow", "purple", "orange", "pink", "cyan"}

var claudeEfforts = []string{"low", "medium", "high", "xhigh", "max"}

func (c claude) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	im := &Imported{Format: c.info.Name, File: src.Path}
	f, err := readMarkdown(src, im)
	if err != nil {
		return nil, err
	}
	for _, key := range c.info.Ignores {
		if _, ok := f.take(key); ok {
			im.drop("%s is not a field %s reads: not imported", key, c.info.Title)
		}
	}
	if err := setIdentity(im, c.info, f.str("name"), f.description(), f.body, errEmptyBody); err != nil {
		return nil, err
	}
	tools, hasTools := f.keep(im, c.info.Name, "tools")
	if hasTools && tools == nil {
		im.note("tools has no value, which Claude Code reads as an empty list: the agent has no tool")
	}
	denied, _ := f.keep(im, c.info.Name, "disallowedTools")
	if im.Def.Tools, err = claudeTools(reader{c.info, im}, tools, hasTools, denied); err != nil {
		return nil, err
	}
	if m, ok := f.take("model"); ok {
		readModel(im, c.info.Name, "model", m, cat)
	}
	// A value bn has no field for, which Claude Code takes (an effort as
	// a number) or loads the file with and ignores, stays in its section.
	if v, ok := f.take("effort"); ok {
		if s, isString := v.(string); isString && slices.Contains(claudeEfforts, strings.TrimSpace(s)) {
			readEffort(im, c.info.Name, "effort", strings.TrimSpace(s))
		} else {
			im.Def.Target(c.info.Name).Fields.Set("effort", v)
			im.note("effort %v is kept for Claude Code only: bn's reasoning effort is one of %s", agents.Plain(v), strings.Join(claudeEfforts, ", "))
		}
	}
	if v, ok := f.take("maxTurns"); ok {
		if n, ok := v.(int64); ok && n > 0 {
			im.Def.MaxTurns = &n
		} else {
			im.Def.Target(c.info.Name).Fields.Set("maxTurns", v)
			im.note("maxTurns %v is not a whole number above 0: Claude Code ignores it; kept for Claude Code only", agents.Plain(v))
		}
	}
	if v, ok := f.keep(im, c.info.Name, "color"); ok {
		readColor(im, c.info.Name, v)
	}
	readSkills(f, im)
	if v, ok := f.take("mcpServers"); ok {
		readMCPServers(im, c.info, v)
	}
	takeOwnHook(f, im, c.info, src)
	f.rest(im, c.info)
	return im, nil
}

// claudeTools reads tools and disallowedTools.
func claudeTools(r reader, tools any, hasTools bool, denied any) (agents.Tools, error) {
	t := agents.Tools{All: !hasTools}
	allow, err := r.names("tools", tools, false)
	if err != nil {
		return t, err
	}
	for _, name := range allow {
		if name == "*" {
			t.All = true
			continue
		}
		t.Allow = appendNew(t.Allow, claudePattern(r, name, true)...)
	}
	if t.All {
		t.Allow = nil
	}
	deny, err := r.names("disallowedTools", denied, true)
	if err != nil {
		return t, err
	}
	for _, name := range deny {
		t.Deny = appendNew(t.Deny, claudePattern(r, name, false)...)
	}
	if t.All && !t.Uses(agents.KindShell) {
		// Every tool but Bash: Claude Code 2.1 searches inside Bash, and
		// offers Grep and Glob only to an agent whose tools lists them.
		var lost []string
		for _, k := range claudeSearch {
			if t.Uses(k) {
				t.Deny = append(t.Deny, string(k))
				lost = append(lost, string(k))
			}
		}
		if len(lost) > 0 {
			r.im.note("without Bash and without a tools list, Claude Code offers no Grep or Glob (it searches inside Bash, and offers those tools only when tools names them), so bn reads %s as denied", strings.Join(lost, ", "))
		}
	}
	return t, nil
}

// claudeSearch are the kinds Claude Code 2.1 serves inside Bash, and with
// tools of their own (Grep, Glob) only when an agent's tools lists them.
var claudeSearch = []agents.Kind{agents.KindGrep, agents.KindGlob, agents.KindList}

// claudePattern maps one tool entry (Read, Bash(git diff:*), mcp__gh__x)
// to bn patterns.
func claudePattern(r reader, name string, allow bool) []string {
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		server, tool, hasTool := strings.Cut(rest, "__")
		if server == "*" {
			return []string{r.native(name)}
		}
		if !hasTool {
			tool = ""
		}
		return []string{agents.MCPPattern(server, tool)}
	}
	base, arg, hasArg := strings.Cut(name, "(")
	if hasArg {
		arg = strings.TrimSuffix(arg, ")")
	}
	w, ok := r.word(base, false)
	if !ok {
		return []string{r.native(name)}
	}
	if !hasArg {
		return kindPatterns(w.Kinds, "")
	}
	if !slices.Contains(w.Kinds, agents.KindAgent) {
		// What Claude Code does with a rule in an agent's tools or
		// disallowedTools: it drops the parentheses.
		if allow {
			r.im.note("%s in tools: Claude Code ignores the parentheses there and grants %s whole, so bn reads it as %s; "+
				"to limit it, write the pattern in bn (export then enforces it with bn's hook where the hook sees the tool, and reports it as widened where it does not)", name, base, strings.Join(kindPatterns(w.Kinds, ""), ", "))
		} else {
			r.im.note("%s in disallowedTools: Claude Code ignores the parentheses there and removes %s whole, so bn reads it as a deny of %s",
				name, base, strings.Join(kindPatterns(w.Kinds, ""), ", "))
		}
		return kindPatterns(w.Kinds, "")
	}
	switch {
	case slices.Contains(w.Kinds, agents.KindShell):
		if allow && !strings.Contains(arg, "*") {
			r.im.note("%s matches the command %q exactly; bn reads shell(%s) as that command and its arguments", name, arg, arg)
		}
		return []string{"shell(" + arg + ")"}
	case slices.Contains(w.Kinds, agents.KindAgent):
		var out []string
		for _, a := range strings.Split(arg, ",") {
			if a = strings.TrimSpace(a); a != "" {
				out = append(out, "agent("+a+")")
			}
		}
		return out
	case slices.Contains(w.Kinds, agents.KindWebFetch):
		return []string{"webfetch(" + strings.TrimPrefix(arg, "domain:") + ")"}
	}
	return kindPatterns(w.Kinds, arg)
}

// claudeArg writes a bn pattern's argument in Claude's rule syntax.
func claudeArg(k agents.Kind, arg string) (string, bool) {
	switch k {
	case agents.KindShell:
		if arg == "*" {
			return "Bash", true
		}
		if !strings.Contains(arg, "*") {
			arg += ":*" // bn's shell(git push) is the command and its arguments
		}
		return "Bash(" + arg + ")", true
	case agents.KindRead:
		return "Read(" + arg + ")", true
	case agents.KindEdit:
		return "Edit(" + arg + ")", true
	case agents.KindCreate:
		return "Write(" + arg + ")", true
	case agents.KindWebFetch:
		return "WebFetch(domain:" + arg + ")", true
	case agents.KindSkill:
		return "Skill(" + arg + ")", true
	case agents.KindAgent:
		return "", false // collected into one Agent(a, b)
	}
	return "", false
}

func (c claude) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	d := &frontmatterDoc{}
	d.set("name", id)
	d.set("description", def.Description)
	var losses []Loss
	hooked := hookedKinds(c.info, &def)
	tools, deny, toolLosses := c.tools(&def, hooked)
	losses = append(losses, toolLosses...)
	if tools != nil {
		d.set("tools", tools)
	}
	if deny != nil {
		d.set("disallowedTools", deny)
	}
	model, ml := writeModel(&def, c.info, "model", cat)
	losses = append(losses, ml...)
	if model != nil {
		d.set("model", model)
	}
	effort, el := writeEffort(def.ReasoningEffort, claudeEfforts, "effort", c.info)
	losses = append(losses, el...)
	if effort != "" {
		d.set("effort", effort)
	}
	if def.MaxTurns != nil {
		d.set("maxTurns", *def.MaxTurns)
	}
	hints := def.TargetOf(c.info.Name).Fields
	if hint, ok := hints.Get("color"); ok && hint == def.Color {
		d.set("color", hint) // as written, whether or not Claude Code knows it
	} else if def.Color != "" {
		color, cl := writeColor(&def, c.info, claudeColors)
		losses = append(losses, cl...)
		if color != "" {
			d.set("color", color)
		}
	}
	writeSkills(d, &def, c.info)
	mcp := c.info.MCPKeys != nil
	if len(def.MCPServers) > 0 && mcp {
		list, l := mcpServerList(&def, c.info)
		d.set("mcpServers", list)
		losses = append(losses, l...)
	}
	losses = append(losses, ownFields(d, &def, c.info, id)...)
	losses = append(losses, otherLosses(&def, c.info, carried{"max-turns": true, "reasoning-effort": true, "color": true,
		"skills": true, agents.NodeMCPServer: mcp, "mode": def.Mode != "primary", "hidden": true, "model-invocable": true})...)
	if def.Mode == "primary" {
		losses = append(losses, Loss{Field: "mode", Kind: Changed, Detail: "Claude Code runs agent files as sub-agents; a primary agent runs with claude --agent"})
	}
	if def.Hidden {
		losses = append(losses, Loss{Field: "hidden", Kind: Dropped, Detail: "Claude Code has no hidden sub-agents"})
	}
	if def.ModelInvocable != nil && !*def.ModelInvocable {
		losses = append(losses, modelStarts("Claude Code sub-agents can always be started by the model"))
	}
	content, err := d.markdown(marker, def.Prompt)
	return Rendered{Content: content, Losses: losses}, err
}

// tools returns the tools and disallowedTools values (nil: leave out).
// tools writes the allow and deny lists; hooked are the kinds a hook
// written with the file decides.
func (c claude) tools(def *agents.Definition, hooked []agents.Kind) (any, any, []Loss) {
	hints := def.TargetOf(c.info.Name).Fields
	toolsHint, hasTools := hints.Get("tools")
	denyHint, hasDeny := hints.Get("disallowedTools")
	if hasTools || hasDeny {
		im := &Imported{}
		if hinted, err := claudeTools(reader{c.info, im}, toolsHint, hasTools, denyHint); err == nil && hinted.Equal(def.Tools) {
			return toolsHint, denyHint, nil
		}
	}
	// No pattern writer for the allow list: Claude Code drops a rule's
	// parentheses in an agent's tools and grants the tool whole.
	w := listWriter{info: c.info, mcp: claudeMCP, denyList: true, partial: c.info.Partial, enforced: hooked}
	if p := def.TargetOf(c.info.Name).Partial; p != "" {
		w.partial = p
	}
	plan := w.write(def.Tools)
	searches := slices.ContainsFunc(claudeSearch, def.Tools.Uses)
	switch {
	case plan.all && searches && !def.Tools.Uses(agents.KindShell):
		// Without Bash, Claude Code searches only with the Grep and Glob
		// a tools list names: the agent's tools are listed.
		plan = c.listAll(def, w, plan.losses)
	case !plan.all && searches && slices.Contains(hooked, agents.KindShell):
		var lost []string
		for _, k := range claudeSearch {
			if def.Tools.Uses(k) {
				lost = append(lost, string(k))
			}
		}
		plan.losses = append(plan.losses, Loss{Field: "tools", Kind: Dropped, Detail: fmt.Sprintf("%s left out beyond the shell's patterns: "+
			"beside Bash, Claude Code offers no Grep or Glob (it searches inside Bash), and the hook bn writes lets Bash run only the commands the agent's shell patterns allow",
			strings.Join(lost, ", ")), Drops: lost})
	}
	var tools any
	if !plan.all {
		names := plan.names
		if len(plan.agents) > 0 {
			// Agent(a, b) limits the agents a main-thread agent starts
			// (claude --agent); a sub-agent ignores the names.
			names = slices.DeleteFunc(names, func(n string) bool { return n == "Agent" })
			names = appendNew(names, "Agent("+strings.Join(plan.agents, ", ")+")")
		}
		tools = strings.Join(names, ", ")
		if len(names) == 0 {
			tools = []string{} // none: an empty list, not a missing field
		}
	}
	// Claude Code drops a rule's parentheses in disallowedTools:
	// Bash(rm:*) there removes Bash whole.
	deny, dl := w.deny(def, claudeWords, " (a rule there removes it whole)")
	plan.losses = append(plan.losses, dl...)
	var denyValue any
	if len(deny) > 0 {
		denyValue = strings.Join(deny, ", ")
	}
	return tools, denyValue, plan.losses
}

// listAll writes an agent with every tool but some as a list of the tools
// it has: bn's names for its kinds, Claude Code's own tools, and the MCP
// servers the agent configures itself.
func (c claude) listAll(def *agents.Definition, w listWriter, losses []Loss) toolList {
	granted, denied := kindSet{}, kindSet{}
	for _, ki := range agents.Kinds {
		switch {
		case !def.Tools.Uses(ki.Kind):
			denied.add(ki.Kind)
		case len(claudeWords(ki.Kind)) > 0:
			granted.add(ki.Kind)
		}
	}
	names := w.cover(granted, denied, &losses)
	for _, own := range c.info.Own {
		if !slices.Contains(claudeAliases, own) && agents.Decide(def.Tools, agents.ToolPattern{Kind: agents.NativePrefix + c.info.Name, Arg: own, HasArg: true}).Allowed {
			names = append(names, own)
		}
	}
	for _, s := range def.MCPServers {
		if agents.Decide(def.Tools, agents.ToolPattern{Kind: s.Name, MCP: true}).Allowed {
			names = append(names, "mcp__"+s.Name)
		}
	}
	losses = append(losses, Loss{Field: "tools", Kind: Dropped, Detail: fmt.Sprintf("the agent has every tool but %s; without Bash, Claude Code offers Grep and Glob only to an agent whose tools lists them, "+
		"so bn lists the tools it knows, and MCP tools of servers the agent does not configure itself are left out", kindNames(denied.sorted())),
		Drops: []string{EveryMCPTool, UnnamedTools}})
	return toolList{names: names, losses: losses}
}

// claudeAliases are old names of Claude Code's own tools, never written.
var claudeAliases = []string{"BashOutput", "KillShell", "KillBash"}

// claudeWords are the tool names bn writes for a kind.
func claudeWords(k agents.Kind) []string {
	var out []string
	for _, w := range claudeInfo.Vocabulary {
		if w.Write && slices.Contains(w.Kinds, k) {
			out = append(out, w.Name)
		}
	}
	return out
}

func claudeMCP(server, tool string) (string, bool) {
	if tool == "" {
		return "mcp__" + server, true
	}
	return "mcp__" + server + "__" + tool, true
}

// claudeHook: a PreToolUse hook in the agent's own frontmatter runs
// before each call of a tool its matcher names, even with permissions
// bypassed; exit status 2 refuses the call, with stderr as the reason
// the model reads (the probes saw both). Per code.claude.com/docs hooks.
var claudeHook = &Hook{
	Tools: []HookTool{{"Bash", agents.KindShell, "command"}, {"Read", agents.KindRead, "file_path"},
		{"Edit", agents.KindEdit, "file_path"}, {"MultiEdit", agents.KindEdit, "file_path"}, {"Write", agents.KindCreate, "file_path"},
		{"NotebookEdit", agents.KindNotebook, "notebook_path"}, {"WebFetch", agents.KindWebFetch, "url"}},
	Call: func(input []byte) (HookCall, error) {
		in, err := readPreToolUse("Claude Code", input)
		return HookCall{Tool: in.Tool, Input: in.Input, Dir: in.Cwd}, err
	},
	Refuse: refuseExit2,
	Ask:    askExit0,
	// -p, with no one to answer, refuses the call at once, the hook's
	// reason its answer, the agent the session's or a sub-agent
	// (enforcement-ask-claude.json).
	AskUnattended: "refused", AskUnattendedSubAgent: "refused",
	WindowsShell: enforce.Bash,
	// Set to the directory the session started in; the Bash tool's cd
	// moves the hook's working directory, not this.
	ProjectDir: "CLAUDE_PROJECT_DIR",
	// The probes saw the hook refuse a sub-agent's call as it does the
	// session agent's (enforcement-claude-subagent.json).
	SubAgent: true,
	// The probes saw an agent's hooks run only in a project whose trust
	// is recorded: -p never asks, and an untrusted project's agent hooks
	// are skipped without a word.
	Setup: "Claude Code runs the hooks in a project's agent files only once it has recorded the project as trusted " +
		"(~/.claude.json, when its trust dialog is accepted); until then the limits they enforce are not enforced. export --trust records it",
	Trust: func(root, home string) []FileEdit {
		return []FileEdit{{Path: filepath.Join(home, ".claude.json"), Edit: func(old []byte) ([]byte, error) {
			return emit.SetMember(old, []string{"projects", root, "hasTrustDialogAccepted"}, true)
		}}}
	},
	// Its agents, settings (hooks, permissions, disableAllHooks), skills
	// and commands (which carry hooks too), the project's MCP servers
	// (commands it starts), and the user's trust and settings.
	Guard: []string{".claude", ".mcp.json", "~/.claude", "~/.claude.json"},
}
