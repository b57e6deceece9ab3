package dialect

import (
	"path/filepath"

	"github.com/binnacle-dev/bn/agents"
)

// droid is Factory's Droid CLI: custom droids, markdown in
// .factory/droids and ~/.factory/droids (top level only; the project's
// wins), known by a name of lower-case letters, digits, '-' and '_'.
// tools is a list of tool ids, a comma string, or one category
// (read-only, edit, execute, web, mcp); without it the droid has every
// tool; a tool id Droid does not know makes its validator refuse the
// droid. A custom droid named like a built-in (worker, explorer) takes
// its place. Per docs.factory.ai (custom droids), the droid 0.215
// validator, and what droid exec lists to a model.
type droid struct{}

var droidInfo = &Info{
	Name: "droid", Title: "Factory Droid", Dir: ".factory/droids", Ext: ".md", ReadExts: []string{".md"},
	Marks:     []string{".factory/droids/"},
	MCPKeys:   []MCPKey{{"type", "type"}, {"command", "command"}, {"args", "args"}, {"env", "env"}, {"url", "url"}, {"headers", "headers"}},
	MCPTypes:  []string{"stdio", "http"},
	Signature: []string{"reasoningEffort"},
	Doc:       "`.factory/droids/*.md`, then `~/.factory/droids`; known by `name`, lower-case letters, digits, '-' and '_'; a project droid wins",
	Dirs: func(env Env) []SourceDir {
		return []SourceDir{{Path: filepath.Join(env.RepoRoot, ".factory", "droids"), Location: ProjectLocation, Format: "droid"},
			userDir(filepath.Join(env.Home, ".factory", "droids"), "droid")}
	},
	BuiltIns: []BuiltIn{{"worker", Replaces}, {"explorer", Replaces}},
	MapID:    Slug,
	IDRule:   "lower-case letters, digits, '-' and '_'",
	Vocabulary: []Word{
		{Name: "Read", Kinds: []agents.Kind{agents.KindRead}, Write: true},
		{Name: "LS", Kinds: []agents.Kind{agents.KindList}, Write: true},
		{Name: "Grep", Kinds: []agents.Kind{agents.KindGrep}, Write: true},
		{Name: "Glob", Kinds: []agents.Kind{agents.KindGlob}, Write: true},
		{Name: "Edit", Kinds: []agents.Kind{agents.KindEdit}, Write: true},
		{Name: "MultiEdit", Kinds: []agents.Kind{agents.KindEdit}, Legacy: true},
		{Name: "Create", Kinds: []agents.Kind{agents.KindCreate}, Write: true},
		{Name: "ApplyPatch", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate}},
		{Name: "Execute", Kinds: []agents.Kind{agents.KindShell}, Write: true},
		{Name: "FetchUrl", Kinds: []agents.Kind{agents.KindWebFetch}, Write: true},
		{Name: "WebSearch", Kinds: []agents.Kind{agents.KindWebSearch}, Write: true},
		{Name: "Task", Kinds: []agents.Kind{agents.KindAgent}, Write: true},
		{Name: "TodoWrite", Kinds: []agents.Kind{agents.KindTodo}, Write: true},
		{Name: "Skill", Kinds: []agents.Kind{agents.KindSkill}, Write: true},
		{Name: "AskUser", Kinds: []agents.Kind{agents.KindAsk}, Write: true},
	},
	Fields: []FieldSpec{
		{Key: "tools", Hint: true, Check: checkStrings}, {Key: "model", Hint: true, Check: checkString},
		{Key: "reasoningEffort", Hint: true, Check: checkString},
	},
	Partial:    "widen",
	PartialWhy: "Droid's tool lists hold tool ids only: an id grants the whole tool",
	Exports:    true,
}

// droidCategories are the tools a category value grants.
var droidCategories = map[string][]agents.Kind{
	"read-only": {agents.KindRead, agents.KindList, agents.KindGrep, agents.KindGlob},
	"edit":      {agents.KindEdit, agents.KindCreate},
	"execute":   {agents.KindShell}, "execution": {agents.KindShell},
	"web": {agents.KindWebSearch, agents.KindWebFetch},
	"mcp": {},
}

var droidFile = &listFile{info: droidInfo, tools: "tools", model: "model", effort: "reasoningEffort",
	efforts: []string{"low", "medium", "high"}, servers: "mcpServers", strict: true, checkName: slugName,
	entry: func(_ reader, name string) ([]string, bool) {
		kinds, ok := droidCategories[name]
		return kindPatterns(kinds, ""), ok
	}}

func (droid) Info() *Info { return droidInfo }

func (droid) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	return droidFile.read(src, cat, nil)
}

func (droid) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	return droidFile.render(def, id, marker, cat, nil)
}
