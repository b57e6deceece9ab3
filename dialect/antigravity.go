package dialect

import (
	"path/filepath"

	"github.com/binnacle-dev/bn/agents"
)

// antigravity is Google's Antigravity (the agy CLI and the IDE, which
// replace the Gemini CLI for subscribers): markdown custom agents in
// .agents/agents (NAME.md or NAME/agent.md) and ~/.gemini/config/agents,
// known by their name field. tools names the agent's tools and defaults
// to none; mainAgent and subagent say where the agent may run. Per
// antigravity.google/docs/subagents (CLI 1.1.6) and its tool reference.
type antigravity struct{}

var antigravityInfo = &Info{
	Name: "antigravity", Title: "Antigravity", Dir: ".agents/agents", Ext: ".md", ReadExts: []string{".md"}, Recursive: true,
	Marks:     []string{".agents/agents/", ".gemini/config/agents/"},
	Signature: []string{"mainAgent", "subagent", "commandExecutionPolicy", "inheritMcp"},
	Doc:       "`.agents/agents/*.md` (or `NAME/agent.md`), then `~/.gemini/config/agents`; known by `name`; a project agent wins",
	Dirs: func(env Env) []SourceDir {
		return []SourceDir{{Path: filepath.Join(env.RepoRoot, ".agents", "agents"), Location: ProjectLocation, Format: "antigravity"},
			userDir(filepath.Join(env.Home, ".gemini", "config", "agents"), "antigravity")}
	},
	BuiltIns: []BuiltIn{{"self", Ignored}, {"research", Ignored}},
	Own:      []string{"browser_subagent", "generate_image", "manage_task"},
	Vocabulary: []Word{
		{Name: "view_file", Kinds: []agents.Kind{agents.KindRead}, Write: true},
		{Name: "list_dir", Kinds: []agents.Kind{agents.KindList, agents.KindGlob}, Write: true},
		{Name: "grep_search", Kinds: []agents.Kind{agents.KindGrep}, Write: true},
		{Name: "replace_file_content", Kinds: []agents.Kind{agents.KindEdit}, Write: true, Group: "edit"},
		{Name: "multi_replace_file_content", Kinds: []agents.Kind{agents.KindEdit}, Write: true, Group: "edit"},
		{Name: "write_to_file", Kinds: []agents.Kind{agents.KindCreate}, Write: true},
		{Name: "run_command", Kinds: []agents.Kind{agents.KindShell}, Write: true, Group: "command"},
		{Name: "command_status", Kinds: []agents.Kind{agents.KindShell}, Write: true, Group: "command"},
		{Name: "read_url_content", Kinds: []agents.Kind{agents.KindWebFetch}, Write: true},
		{Name: "search_web", Kinds: []agents.Kind{agents.KindWebSearch}, Write: true},
		{Name: "invoke_subagent", Kinds: []agents.Kind{agents.KindAgent}, Write: true},
		{Name: "ask_question", Kinds: []agents.Kind{agents.KindAsk}, Write: true},
	},
	Fields: []FieldSpec{
		{Key: "tools", Hint: true, Check: checkStrings}, {Key: "model", Hint: true, Check: checkString},
		{Key: "mainAgent", Doc: "may run as the main agent (true)", Check: checkBool},
		{Key: "subagent", Doc: "may run as a sub-agent (true)", Check: checkBool},
		{Key: "commandExecutionPolicy", Doc: "how its commands run (sandbox)", Check: checkString},
		{Key: "mcpServers", Doc: "the MCP servers it uses", Check: checkList, Runs: true},
		{Key: "skills", Doc: "skills it loads", Check: checkStrings},
		{Key: "plugins", Doc: "plugins it uses", Check: checkStrings, Runs: true},
		{Key: "hidden", Hint: true, Check: checkBool},
		{Key: "inheritMcp", Doc: "it gets the session's MCP servers", Check: checkBool, Runs: true},
	},
	Partial:    "widen",
	PartialWhy: "Antigravity's tool lists hold tool names only: a name grants the whole tool",
	Exports:    true,
}

var antigravityFile = &listFile{info: antigravityInfo, tools: "tools", model: "model", noTools: true, has: carried{"hidden": true}}

func (antigravity) Info() *Info { return antigravityInfo }

func (antigravity) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	return antigravityFile.read(src, cat, func(f *fields, im *Imported) error {
		if v, ok := f.take("hidden"); ok {
			im.Def.Hidden, _ = v.(bool)
		}
		return nil
	})
}

func (antigravity) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	return antigravityFile.render(def, id, marker, cat, func(d *frontmatterDoc) []Loss {
		if def.Hidden {
			d.set("hidden", true)
		}
		return nil
	})
}
