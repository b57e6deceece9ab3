package dialect

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// omp is oh-my-pi: markdown task agents in .omp/agents (the nearest one up
// from the working directory) and ~/.omp/agent/agents, known by name, the
// first found winning over the agents of installed Claude Code plugins and
// its bundled ones; it does not read .claude/agents, .codex/agents or
// .gemini/agents (their frontmatter is not its contract). tools is a list
// or a comma string of its own tool names (a built-in's in any case;
// unknown ones are dropped silently, and yield is always added), spawns
// the sub-agents it may start, model a list of patterns tried in order;
// main and sub are names it refuses. Per the omp 18.2 sources
// (task/discovery, discovery/helpers, tools/builtin-names) and what the
// probes saw.
type omp struct{}

var ompInfo = &Info{
	Name: "omp", Title: "oh-my-pi", Dir: ".omp/agents", Ext: ".md", ReadExts: []string{".md"},
	Marks: []string{".omp/agents/", ".omp/agent/agents/"},
	Doc: "`.omp/agents/*.md` (the nearest up from the working directory), then `~/.omp/agent/agents`, then the agents of installed Claude Code plugins; " +
		"not `.claude/agents`, `.codex/agents` or `.gemini/agents`; known by `name`; a project agent replaces a bundled one",
	Dirs: func(env Env) []SourceDir {
		var out []SourceDir
		for _, d := range nearestDirs(env, ".omp/agents", "omp") {
			if fi, err := os.Stat(d.Path); err == nil && fi.IsDir() {
				out = append(out, d)
				break
			}
		}
		out = append(out, userDir(filepath.Join(env.Home, ".omp", "agent", "agents"), "omp"))
		// The agents of the Claude Code plugins installed, read as omp's
		// (their Claude model names dropped).
		return append(out, pluginAgentDirs(env.Home, "omp")...)
	},
	BuiltIns: []BuiltIn{{"scout", Replaces}, {"reviewer", Replaces}, {"security-reviewer", Replaces}, {"task", Replaces},
		{"sonic", Replaces}},
	Own: []string{"debug", "github", "checkpoint", "rewind", "context_notes", "new_context", "security_scan", "hub"},
	Vocabulary: []Word{
		{Name: "read", Kinds: []agents.Kind{agents.KindRead}, Write: true},
		{Name: "ls", Kinds: []agents.Kind{agents.KindList}, Legacy: true},
		{Name: "glob", Kinds: []agents.Kind{agents.KindGlob}, Write: true},
		{Name: "find", Kinds: []agents.Kind{agents.KindGlob}, Legacy: true},
		{Name: "grep", Kinds: []agents.Kind{agents.KindGrep}, Write: true},
		{Name: "search", Kinds: []agents.Kind{agents.KindGrep}, Legacy: true},
		{Name: "ast_grep", Kinds: []agents.Kind{agents.KindCodeSearch}, Write: true},
		{Name: "lsp", Kinds: []agents.Kind{agents.KindLSP}, Write: true},
		{Name: "edit", Kinds: []agents.Kind{agents.KindEdit}, Write: true},
		{Name: "ast_edit", Kinds: []agents.Kind{agents.KindEdit}},
		{Name: "write", Kinds: []agents.Kind{agents.KindCreate}, Write: true},
		{Name: "notebook", Kinds: []agents.Kind{agents.KindNotebook}, Legacy: true},
		{Name: "bash", Kinds: []agents.Kind{agents.KindShell}, Write: true},
		{Name: "eval", Kinds: []agents.Kind{agents.KindShell}},
		{Name: "python", Kinds: []agents.Kind{agents.KindShell}, Legacy: true},
		{Name: "web_fetch", Kinds: []agents.Kind{agents.KindWebFetch}, Legacy: true},
		{Name: "web_search", Kinds: []agents.Kind{agents.KindWebSearch}, Write: true},
		{Name: "task", Kinds: []agents.Kind{agents.KindAgent}, Write: true},
		{Name: "todo", Kinds: []agents.Kind{agents.KindTodo}, Write: true},
		{Name: "todo_write", Kinds: []agents.Kind{agents.KindTodo}, Legacy: true},
		{Name: "ask", Kinds: []agents.Kind{agents.KindAsk}, Write: true},
		{Name: "manage_skill", Kinds: []agents.Kind{agents.KindSkill}, Write: true},
		{Name: "memory_edit", Kinds: []agents.Kind{agents.KindMemory}, Write: true, Group: "memory"},
		{Name: "retain", Kinds: []agents.Kind{agents.KindMemory}, Write: true, Group: "memory"},
		{Name: "recall", Kinds: []agents.Kind{agents.KindMemory}, Write: true, Group: "memory"},
		{Name: "reflect", Kinds: []agents.Kind{agents.KindMemory}},
		{Name: "learn", Kinds: []agents.Kind{agents.KindMemory}},
	},
	Fields: []FieldSpec{
		{Key: "tools", Hint: true, Check: checkStrings}, {Key: "spawns", Hint: true, Check: checkStrings},
		{Key: "model", Hint: true, Check: checkStrings},
		{Key: "thinkingLevel", Hint: true, Check: checkString}, {Key: "thinking-level", Hint: true, Check: checkString},
		{Key: "thinking", Hint: true, Check: checkString},
		{Key: "output", Doc: "JTD schema of the agent's structured output", Check: checkMap},
		{Key: "blocking", Doc: "the caller waits for it", Check: checkBool},
		{Key: "autoloadSkills", Doc: "skills loaded when it starts", Check: checkStrings},
	},
	Partial:    "narrow",
	PartialWhy: "oh-my-pi runs the tools an agent file lists without asking, so a partly granted capability is left out",
	Client:     "@oh-my-pi/pi-coding-agent@18.2.3",
	Exports:    true,
}

func (omp) Info() *Info { return ompInfo }

var ompEfforts = []string{"none", "minimal", "low", "medium", "high", "xhigh"}

func (o omp) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	im := &Imported{Format: ompInfo.Name, File: src.Path}
	f, err := readMarkdown(src, im)
	if err != nil {
		return nil, err
	}
	name := f.str("name")
	if err := ompName(name); err != nil {
		return nil, err
	}
	if err := setIdentity(im, ompInfo, name, f.description(), f.body, errEmptyBody); err != nil {
		return nil, err
	}
	tools, hasTools := f.keep(im, ompInfo.Name, "tools")
	spawns, _ := f.keep(im, ompInfo.Name, "spawns")
	im.Def.Tools = ompTools(reader{ompInfo, im}, tools, hasTools, spawns)
	if m, ok := f.take("model"); ok {
		readModel(im, ompInfo.Name, "model", m, cat)
	}
	for _, key := range []string{"thinkingLevel", "thinking-level", "thinking"} {
		if v, ok := f.keep(im, ompInfo.Name, key); ok {
			readEffort(im, ompInfo.Name, key, fmt.Sprint(v))
		}
	}
	f.rest(im, ompInfo)
	return im, nil
}

func ompTools(r reader, tools any, hasTools bool, spawns any) agents.Tools {
	t := agents.Tools{All: !hasTools}
	names, _ := r.names("tools", tools, false)
	for _, name := range names {
		if name == "yield" {
			continue // added by omp to every list
		}
		if w, ok := r.word(strings.ToLower(name), false); ok {
			t.Allow = appendNew(t.Allow, kindPatterns(w.Kinds, "")...)
			continue
		}
		// mcp__server_tool (mcp_server_tool in older files).
		if server, tool, ok := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(name, "mcp_"), "_"), "_"); ok && strings.HasPrefix(name, "mcp_") {
			t.Allow = appendNew(t.Allow, agents.MCPPattern(server, tool))
			continue
		}
		t.Allow = appendNew(t.Allow, r.native(name))
	}
	if list, _ := r.names("spawns", spawns, false); len(list) > 0 && !slices.Contains(list, "*") && slices.Contains(t.Allow, string(agents.KindAgent)) {
		t.Allow = removeStr(t.Allow, string(agents.KindAgent))
		for _, a := range list {
			t.Allow = appendNew(t.Allow, "agent("+a+")")
		}
	}
	return t
}

// ompName refuses the names omp keeps for its own sessions.
func ompName(name string) error {
	if n := strings.ToLower(strings.TrimSpace(name)); n == "main" || n == "sub" {
		return fmt.Errorf("name %q: oh-my-pi keeps main and sub for its own sessions and does not load an agent so named", name)
	}
	return nil
}

func (o omp) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	if err := ompName(id); err != nil {
		return Rendered{}, fmt.Errorf("%v; give it another name there: omp { id \"…\" }", err)
	}
	d := &frontmatterDoc{}
	d.set("name", id)
	d.set("description", def.Description)
	var losses []Loss
	hints := def.TargetOf(ompInfo.Name).Fields
	th, hasTools := hints.Get("tools")
	sh, _ := hints.Get("spawns")
	if hasTools && ompTools(reader{ompInfo, &Imported{}}, th, true, sh).Equal(def.Tools) {
		d.set("tools", th)
		if sh != nil {
			d.set("spawns", sh)
		}
	} else {
		partial := ompInfo.Partial
		if p := def.TargetOf(ompInfo.Name).Partial; p != "" {
			partial = p
		}
		w := listWriter{info: ompInfo, mcp: func(s, t string) (string, bool) {
			if t == "" {
				return "", false
			}
			return "mcp__" + s + "_" + t, true
		}, partial: partial}
		plan := w.write(def.Tools)
		losses = append(losses, plan.losses...)
		if !plan.all {
			d.set("tools", plan.names)
			if len(plan.agents) > 0 {
				d.set("spawns", plan.agents)
			}
		}
	}
	model, ml := writeModel(&def, ompInfo, "model", cat)
	losses = append(losses, ml...)
	if model != nil {
		d.set("model", model)
	}
	key := "thinkingLevel"
	for _, k := range []string{"thinking-level", "thinking"} {
		if _, ok := hints.Get(k); ok {
			key = k
		}
	}
	effort, el := writeEffort(def.ReasoningEffort, ompEfforts, key, ompInfo)
	losses = append(losses, el...)
	if effort == "none" {
		effort = "off"
	}
	if effort != "" {
		d.set(key, effort)
	}
	losses = append(losses, sectionFields(d, &def, ompInfo)...)
	losses = append(losses, otherLosses(&def, ompInfo, carried{"reasoning-effort": true, "mode": true})...)
	content, err := d.markdown(marker, def.Prompt)
	return Rendered{Content: content, Losses: losses}, err
}
