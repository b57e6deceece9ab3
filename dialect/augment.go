package dialect

import (
	"path/filepath"

	"github.com/binnacle-dev/bn/agents"
)

// augment is Augment's Auggie CLI: markdown subagents in .augment/agents
// and ~/.augment/agents, known by their name field. tools lists the tools
// the agent has and disabled_tools those it has not; an empty tools list
// is read as none given, so every tool, and with both keys Auggie reads
// only disabled_tools. Per the Auggie 0.36 sources (SubAgentConfigLoader)
// and docs.augmentcode.com/cli/subagents.
type augment struct{}

var augmentInfo = &Info{
	Name: "augment", Title: "Auggie", Dir: ".augment/agents", Ext: ".md", ReadExts: []string{".md"},
	Marks:     []string{".augment/agents/"},
	Signature: []string{"disabled_tools", "finish_tool", "replace_system_prompt"},
	Doc:       "`.augment/agents/*.md`, then `~/.augment/agents`; known by `name`; a project agent wins",
	Dirs: func(env Env) []SourceDir {
		return []SourceDir{{Path: filepath.Join(env.RepoRoot, ".augment", "agents"), Location: ProjectLocation, Format: "augment"},
			userDir(filepath.Join(env.Home, ".augment", "agents"), "augment")}
	},
	Own: []string{"render-mermaid"},
	Vocabulary: []Word{
		{Name: "view", Kinds: []agents.Kind{agents.KindRead, agents.KindList}, Write: true},
		{Name: "grep-search", Kinds: []agents.Kind{agents.KindGrep}, Write: true},
		{Name: "codebase-retrieval", Kinds: []agents.Kind{agents.KindCodeSearch}, Write: true},
		{Name: "diagnostics", Kinds: []agents.Kind{agents.KindLSP}, Write: true},
		{Name: "str-replace-editor", Kinds: []agents.Kind{agents.KindEdit}, Write: true},
		{Name: "remove-files", Kinds: []agents.Kind{agents.KindEdit}},
		{Name: "save-file", Kinds: []agents.Kind{agents.KindCreate}, Write: true},
		{Name: "launch-process", Kinds: []agents.Kind{agents.KindShell}, Write: true, Group: "process"},
		{Name: "read-process", Kinds: []agents.Kind{agents.KindShell}, Write: true, Group: "process"},
		{Name: "write-process", Kinds: []agents.Kind{agents.KindShell}, Write: true, Group: "process"},
		{Name: "kill-process", Kinds: []agents.Kind{agents.KindShell}, Write: true, Group: "process"},
		{Name: "list-processes", Kinds: []agents.Kind{agents.KindShell}, Write: true, Group: "process"},
		{Name: "web-fetch", Kinds: []agents.Kind{agents.KindWebFetch}, Write: true},
		{Name: "web-search", Kinds: []agents.Kind{agents.KindWebSearch}, Write: true},
		{Name: "sub-agent", Kinds: []agents.Kind{agents.KindAgent}, Write: true},
		{Name: "view_tasklist", Kinds: []agents.Kind{agents.KindTodo}, Write: true, Group: "tasks"},
		{Name: "add_tasks", Kinds: []agents.Kind{agents.KindTodo}, Write: true, Group: "tasks"},
		{Name: "update_tasks", Kinds: []agents.Kind{agents.KindTodo}, Write: true, Group: "tasks"},
		{Name: "reorganize_tasklist", Kinds: []agents.Kind{agents.KindTodo}, Write: true, Group: "tasks"},
		{Name: "remember", Kinds: []agents.Kind{agents.KindMemory}, Write: true},
	},
	Fields: []FieldSpec{
		{Key: "tools", Hint: true, Check: checkStrings}, {Key: "disabled_tools", Hint: true, Check: checkStrings},
		{Key: "model", Hint: true, Check: checkString},
		{Key: "color", Doc: "the agent's colour in the CLI", Check: checkString},
		{Key: "finish_tool", Doc: "the tool the agent ends with", Check: checkString},
		{Key: "provider_model", Doc: "a model of the provider below", Check: checkString},
		{Key: "provider_base_url", Doc: "an OpenAI-compatible endpoint for the agent", Check: checkString},
		{Key: "provider_api_key", Doc: "that endpoint's key (better kept out of files)", Check: checkString},
		{Key: "replace_system_prompt", Doc: "the body replaces Auggie's own prompt", Check: checkBool},
		{Key: "disable_rules", Doc: "leave the workspace rules out", Check: checkBool},
		{Key: "disable_workspace_guidelines", Doc: "leave the workspace guidelines out", Check: checkBool},
		{Key: "disable_skills", Doc: "leave skills out", Check: checkBool},
		{Key: "tool_description", Doc: "how the agent is described to the model as a tool", Check: checkString},
		{Key: "instruction_description", Doc: "how its instruction parameter is described", Check: checkString},
	},
	Partial:    "widen",
	PartialWhy: "Auggie's tool lists hold tool names only: a name grants the whole tool",
	Exports:    true,
}

var augmentFile = &listFile{info: augmentInfo, tools: "tools", deny: "disabled_tools", model: "model",
	emptyAll: true, denyWins: true}

func (augment) Info() *Info { return augmentInfo }

func (augment) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	return augmentFile.read(src, cat, nil)
}

func (augment) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	return augmentFile.render(def, id, marker, cat, nil)
}
