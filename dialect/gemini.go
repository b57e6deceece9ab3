package dialect

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/emit"
)

// gemini is the Gemini CLI: markdown subagents in .gemini/agents (in a
// trusted folder, each acknowledged) and ~/.gemini/agents, known by a
// slug name (lower-case letters, digits, '-', '_'). Its loader is strict:
// an unknown key or tool name rejects the whole file. Sub-agents cannot
// start other sub-agents. Per gemini-cli docs/core/subagents.md and
// packages/core/src/agents/agentLoader.ts, 2026.
type gemini struct{}

var geminiInfo = &Info{
	Name: "gemini", Title: "Gemini CLI", Dir: ".gemini/agents", Ext: ".md", ReadExts: []string{".md"},
	MCPKeys: []MCPKey{{"command", "command"}, {"args", "args"}, {"env", "env"}, {"cwd", "cwd"}, {"url", "url"},
		{"headers", "headers"}, {"tools", "includeTools"}, {"exclude-tools", "excludeTools"},
		{"timeout", "timeout"}, {"trust", "trust"}, {"description", "description"}},
	MCPHTTPURL: "httpUrl",
	Marks:      []string{".gemini/agents/"},
	Signature:  []string{"kind", "max_turns", "timeout_mins"},
	Doc:        "`.gemini/agents/*.md` (trusted folders, each agent acknowledged), then `~/.gemini/agents`; known by `name`, a lower-case slug; a same-named project agent is ignored",
	Dirs: func(env Env) []SourceDir {
		return []SourceDir{{Path: filepath.Join(env.RepoRoot, ".gemini", "agents"), Location: ProjectLocation, Format: "gemini"},
			userDir(filepath.Join(env.Home, ".gemini", "agents"), "gemini")}
	},
	BuiltIns: []BuiltIn{{"codebase_investigator", Ignored}, {"cli_help", Ignored}, {"generalist", Ignored},
		{"browser_agent", Ignored}},
	MapID:  Slug,
	IDRule: "lower-case letters, digits, '-' and '_'",
	Vocabulary: []Word{
		{Name: "read_file", Kinds: []agents.Kind{agents.KindRead}, Write: true},
		{Name: "list_directory", Kinds: []agents.Kind{agents.KindList}, Write: true},
		{Name: "glob", Kinds: []agents.Kind{agents.KindGlob}, Write: true},
		{Name: "grep_search", Kinds: []agents.Kind{agents.KindGrep}, Write: true},
		{Name: "search_file_content", Kinds: []agents.Kind{agents.KindGrep}, Legacy: true},
		{Name: "replace", Kinds: []agents.Kind{agents.KindEdit}, Write: true},
		{Name: "write_file", Kinds: []agents.Kind{agents.KindCreate}, Write: true},
		{Name: "run_shell_command", Kinds: []agents.Kind{agents.KindShell}, Write: true},
		{Name: "web_fetch", Kinds: []agents.Kind{agents.KindWebFetch}, Write: true},
		{Name: "google_web_search", Kinds: []agents.Kind{agents.KindWebSearch}, Write: true},
		{Name: "write_todos", Kinds: []agents.Kind{agents.KindTodo}, Write: true},
		{Name: "tracker_create_task", Kinds: []agents.Kind{agents.KindTodo}},
		{Name: "tracker_update_task", Kinds: []agents.Kind{agents.KindTodo}},
		{Name: "tracker_get_task", Kinds: []agents.Kind{agents.KindTodo}},
		{Name: "tracker_list_tasks", Kinds: []agents.Kind{agents.KindTodo}},
		{Name: "ask_user", Kinds: []agents.Kind{agents.KindAsk}, Write: true},
		{Name: "activate_skill", Kinds: []agents.Kind{agents.KindSkill}, Write: true},
		{Name: "enter_plan_mode", Kinds: []agents.Kind{agents.KindPlan}, Write: true, Group: "plan"},
		{Name: "exit_plan_mode", Kinds: []agents.Kind{agents.KindPlan}, Write: true, Group: "plan"},
	},
	Fields: []FieldSpec{
		{Key: "tools", Hint: true, Check: checkStrings}, {Key: "model", Hint: true, Check: checkString},
		{Key: "kind", Doc: "local (the default)", Check: checkEnum("local")},
		{Key: "timeout_mins", Doc: "minutes before the agent is stopped", Check: func(v any) error {
			if n, ok := v.(int64); !ok || n < 1 {
				return fmt.Errorf("expects a whole number of minutes")
			}
			return nil
		}},
		{Key: "display_name", Doc: "name shown to the user", Check: checkString},
	},
	Partial:    "widen",
	PartialWhy: "the Gemini CLI asks the user to confirm each shell command unless a policy allows it",
	Setup: "the Gemini CLI loads a project's .gemini/agents only in a trusted folder (~/.gemini/trustedFolders.json), " +
		"and each agent only once acknowledged (~/.gemini/acknowledgments/agents.json); without them it leaves the agent out silently. " +
		"export --trust adds both",
	Trust: geminiTrust,
	// Probed: a prompt naming ${id} makes the CLI refuse to start the
	// agent ("Template validation failed"); there is no escape.
	Template: &PromptTemplate{Name: lazyRegexp(`\$\{(\w+)\}`),
		Values: []string{"query (the task)", "cliVersion", "activeModel", "today"}},
	Exports:  true,
	AgentEnv: []string{"GEMINI_CLI"},
	Client:   "@google/gemini-cli@0.61.0",
}

func (gemini) Info() *Info { return geminiInfo }

// geminiKeys are every key the loader accepts; any other rejects the file.
var geminiKeys = []string{"name", "description", "kind", "tools", "mcp_servers", "mcpServers", "model", "temperature",
	"max_turns", "timeout_mins", "display_name"}

// slugName refuses a name that is not a slug.
var slugName = nameRule(`^[a-z0-9_-]+$`, "a slug (lower-case letters, digits, '-' and '_')")

func (g gemini) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	im := &Imported{Format: geminiInfo.Name, File: src.Path}
	f, err := readMarkdown(src, im)
	if err != nil {
		return nil, err
	}
	for _, e := range f.entries {
		if !slices.Contains(geminiKeys, e.Key) {
			return nil, fmt.Errorf("unknown key %q: the Gemini CLI rejects the whole file", e.Key)
		}
	}
	name := f.str("name")
	if err := slugName(name); err != nil {
		return nil, fmt.Errorf("%v: the Gemini CLI rejects the file", err)
	}
	if err := setIdentity(im, geminiInfo, name, f.description(), f.body, errEmptyBody); err != nil {
		return nil, err
	}
	if _, err := geminiInfo.checkTemplate(f.body); err != nil {
		return nil, err
	}
	if kind, ok := f.keep(im, geminiInfo.Name, "kind"); ok && kind != "local" {
		return nil, fmt.Errorf("kind %v: bn holds local agents, not remote ones", kind)
	}
	tools, hasTools := f.keep(im, geminiInfo.Name, "tools")
	if list, ok := tools.([]any); ok {
		for _, e := range list {
			if name, ok := e.(string); !ok || !geminiValidTool(name) {
				return nil, fmt.Errorf("invalid tool name %q: the Gemini CLI rejects the whole file", fmt.Sprint(e))
			}
		}
	} else if hasTools {
		return nil, fmt.Errorf("tools %v is not a list: the Gemini CLI rejects the whole file", tools)
	}
	im.Def.Tools = geminiTools(reader{geminiInfo, im}, tools, hasTools)
	if m, ok := f.take("model"); ok {
		readModel(im, geminiInfo.Name, "model", m, cat)
	}
	if v, ok := f.take("temperature"); ok {
		if n, ok := number(v); ok {
			im.Def.Temperature = &n
		}
	}
	if v, ok := f.take("max_turns"); ok {
		if n, ok := v.(int64); ok && n > 0 {
			im.Def.MaxTurns = &n
		}
	}
	for _, key := range []string{"mcp_servers", "mcpServers"} {
		if v, ok := f.take(key); ok {
			readMCPServers(im, geminiInfo, v)
		}
	}
	f.rest(im, geminiInfo)
	return im, nil
}

func geminiTools(r reader, tools any, hasTools bool) agents.Tools {
	t := agents.Tools{All: !hasTools}
	names, _ := r.names("tools", tools, false)
	for _, name := range names {
		if name == "*" {
			t.All = true
			continue
		}
		t.Allow = appendNew(t.Allow, geminiPattern(r, name))
	}
	if t.All {
		t.Allow = nil
	}
	return t
}

// geminiValidTool is the loader's check: a built-in or legacy name, *,
// an MCP name, or a discovered tool.
func geminiValidTool(name string) bool {
	if name == "*" || strings.HasPrefix(name, "discovered_tool_") || geminiMCPName().MatchString(name) {
		return true
	}
	return slices.ContainsFunc(geminiInfo.Vocabulary, func(w Word) bool { return w.Name == name }) || slices.Contains(geminiOtherTools, name)
}

var geminiMCPName = lazyRegexp(`(?i)^(mcp_(\*|[a-z0-9_.:-]+_(\*|[a-z0-9_.:-]+))|[a-z0-9_.:-]+__[a-z0-9_.:-]+)$`)

// geminiOtherTools are Gemini tools bn has no kind for. read_many_files
// reads the files a user's prompt names with @; the CLI never offers it
// to a model, so an agent given it reads nothing (the probes saw it).
var geminiOtherTools = []string{"read_many_files", "get_internal_docs", "update_topic", "complete_task", "read_mcp_resource", "list_mcp_resources",
	"tracker_add_dependency", "tracker_visualize", "invoke_agent"}

func geminiPattern(r reader, name string) string {
	if w, ok := r.word(name, false); ok {
		return kindPatterns(w.Kinds, "")[0]
	}
	if rest, ok := strings.CutPrefix(name, "mcp_"); ok && rest != "*" {
		if server, ok := strings.CutSuffix(rest, "_*"); ok {
			return agents.MCPPattern(server, "")
		}
		if server, tool, ok := strings.Cut(rest, "_"); ok {
			return agents.MCPPattern(server, tool)
		}
	}
	if server, tool, ok := strings.Cut(name, "__"); ok && server != "" && tool != "" {
		return agents.MCPPattern(server, tool)
	}
	return r.native(name)
}

func (g gemini) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	losses, err := geminiInfo.checkTemplate(def.Prompt)
	if err != nil {
		return Rendered{}, err
	}
	d := &frontmatterDoc{}
	d.set("name", id)
	d.set("description", def.Description)
	if tools, tl := g.tools(&def); tools != nil || len(tl) > 0 {
		losses = append(losses, tl...)
		if tools != nil {
			d.set("tools", tools)
		}
	}
	model, ml := writeModel(&def, geminiInfo, "model", cat)
	losses = append(losses, ml...)
	if model != nil {
		d.set("model", model)
	}
	if def.Temperature != nil {
		d.set("temperature", *def.Temperature)
	}
	if def.MaxTurns != nil {
		d.set("max_turns", *def.MaxTurns)
	}
	if len(def.MCPServers) > 0 {
		m, l := mcpServerMap(&def, geminiInfo)
		losses = append(losses, l...)
		if m.Len() > 0 {
			d.set("mcp_servers", m)
		}
	}
	losses = append(losses, sectionFields(d, &def, geminiInfo)...)
	losses = append(losses, otherLosses(&def, geminiInfo, carried{"temperature": true, "max-turns": true, agents.NodeMCPServer: true, "mode": true})...)
	if def.Mode == "primary" {
		losses = append(losses, Loss{Field: "mode", Kind: Changed, Detail: "the Gemini CLI runs agent files as sub-agents"})
	}
	content, err := d.markdown(marker, def.Prompt)
	return Rendered{Content: content, Losses: losses}, err
}

func (g gemini) tools(def *agents.Definition) (any, []Loss) {
	hint, has := def.TargetOf(geminiInfo.Name).Fields.Get("tools")
	if has && geminiTools(reader{geminiInfo, &Imported{}}, hint, true).Equal(def.Tools) {
		return hint, nil
	}
	partial := geminiInfo.Partial
	if p := def.TargetOf(geminiInfo.Name).Partial; p != "" {
		partial = p
	}
	t := def.Tools.Clone()
	var losses []Loss
	// Gemini sub-agents never start other agents.
	if agents.Decide(t, agents.ToolPattern{Kind: string(agents.KindAgent)}).Allowed || slices.ContainsFunc(t.Allow, func(s string) bool {
		return strings.HasPrefix(s, string(agents.KindAgent)+"(") || s == "task"
	}) {
		losses = append(losses, Loss{Field: "tools", Kind: Dropped, Detail: "agent: Gemini CLI sub-agents cannot start other agents", Drops: []string{string(agents.KindAgent)}})
	}
	t.Allow = slices.DeleteFunc(t.Allow, func(s string) bool {
		p, _ := agents.ParseToolPattern(s)
		return slices.Contains(p.Kinds(), agents.KindAgent)
	})
	w := listWriter{info: geminiInfo, mcp: geminiMCP, partial: partial}
	plan := w.write(t)
	losses = append(losses, plan.losses...)
	if plan.all {
		return nil, losses
	}
	return plan.names, losses
}

func geminiMCP(server, tool string) (string, bool) {
	if tool == "" {
		return "mcp_" + server + "_*", true
	}
	return "mcp_" + server + "_" + tool, true
}

// geminiTrust trusts the folder and acknowledges each agent written, by
// the SHA-256 of its file, as the Gemini CLI records it.
func geminiTrust(root, home string, written []Written) []FileEdit {
	dir := filepath.Join(home, ".gemini")
	return []FileEdit{
		{Path: filepath.Join(dir, "trustedFolders.json"), Edit: func(old []byte) ([]byte, error) {
			return emit.SetMember(old, []string{root}, "TRUST_FOLDER")
		}},
		{Path: filepath.Join(dir, "acknowledgments", "agents.json"), Edit: func(old []byte) ([]byte, error) {
			out := old
			for _, w := range written {
				sum := sha256.Sum256(w.Content)
				name := strings.TrimSuffix(filepath.Base(w.Path), ".md") // the agent's name: bn writes NAME.md
				var err error
				if out, err = emit.SetMember(out, []string{root, name}, hex.EncodeToString(sum[:])); err != nil {
					return nil, err
				}
			}
			return out, nil
		}},
	}
}
