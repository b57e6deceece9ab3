package dialect

import (
	"path/filepath"

	"github.com/binnacle-dev/bn/agents"
)

// junie is the Junie CLI (JetBrains): custom subagents, markdown files
// whose body is added to the instructions the main agent delegates, in
// .junie/agents and .agents of the project, then ~/.junie/agents and
// ~/.agents. description is required; name, when given, matches
// [a-z][a-z0-9-]* and is otherwise the file's name. tools, when present
// and not empty, is an allow list of tool groups (Read, Bash, Glob, Grep,
// Write, Edit, WebSearch, AskUserQuestion), every group when left out or
// empty; disallowedTools is a deny list applied after it. mcpServers
// narrows the MCP servers whose tools the agent sees; model, maxTurns,
// reasoningLevel and skills are the agent's own. Subagents are only ever
// started by delegation. Per its documentation (junie.jetbrains.com/docs,
// "Custom subagents", 2026), which does not say which directory wins and
// names no built-in subagent; not verified by a client, which no registry
// here has.
type junie struct{}

var junieInfo = &Info{
	Name: "junie", Title: "Junie CLI", Dir: ".junie/agents", Ext: ".md", ReadExts: []string{".md"},
	Marks:       []string{".junie/agents/"},
	Signature:   []string{"allowPromptArgument", "reasoningLevel"},
	NamedByFile: true,
	Doc:         "`.junie/agents/*.md` and `.agents/*.md` of the project, then `~/.junie/agents` and `~/.agents`; known by `name` or the file's name; which copy wins is not documented",
	Dirs: func(env Env) []SourceDir {
		return []SourceDir{{Path: filepath.Join(env.RepoRoot, ".junie", "agents"), Location: ProjectLocation, Format: "junie"},
			{Path: filepath.Join(env.RepoRoot, ".agents"), Location: ProjectLocation, Format: "junie"},
			userDir(filepath.Join(env.Home, ".junie", "agents"), "junie"),
			userDir(filepath.Join(env.Home, ".agents"), "junie")}
	},
	MapID:  kebab,
	IDRule: "lower-case letters, digits and '-', starting with a letter",
	// The tool groups of "Supported tool groups".
	Vocabulary: []Word{
		{Name: "Read", Kinds: []agents.Kind{agents.KindRead}, Write: true},
		{Name: "Bash", Kinds: []agents.Kind{agents.KindShell}, Write: true},
		{Name: "Glob", Kinds: []agents.Kind{agents.KindGlob}, Write: true},
		{Name: "Grep", Kinds: []agents.Kind{agents.KindGrep}, Write: true},
		{Name: "Write", Kinds: []agents.Kind{agents.KindCreate}, Write: true},
		{Name: "Edit", Kinds: []agents.Kind{agents.KindEdit}, Write: true},
		{Name: "WebSearch", Kinds: []agents.Kind{agents.KindWebSearch}, Write: true},
		{Name: "AskUserQuestion", Kinds: []agents.Kind{agents.KindAsk}, Write: true},
	},
	Fields: []FieldSpec{
		{Key: "tools", Hint: true, Check: checkStrings}, {Key: "disallowedTools", Hint: true, Check: checkStrings},
		{Key: "model", Hint: true, Check: checkString}, {Key: "reasoningLevel", Hint: true, Check: checkString},
		{Key: "skills", Hint: true, Check: checkStrings},
		// bn keeps the list as written: its MCP server names are Junie's
		// configuration's, which bn's definition does not hold.
		{Key: "mcpServers", Doc: "the MCP servers whose tools it sees (every configured server when left out or empty)", Check: checkStrings},
		{Key: "effort", Doc: "the reasoning level, winning over reasoningLevel when both are given", Check: checkString},
		{Key: "allowPromptArgument", Doc: "the delegated request is given to the prompt as $prompt, or appended when the prompt has none", Check: checkBool},
	},
	Partial:    "widen",
	PartialWhy: "Junie's tool lists hold tool group names only: a group grants the whole tool",
	Exports:    true,
}

var junieFile = &listFile{info: junieInfo, tools: "tools", deny: "disallowedTools", emptyAll: true, model: "model",
	effort: "reasoningLevel", efforts: []string{"low", "medium", "high"}, maxTurns: "maxTurns",
	has: carried{"skills": true}, checkName: junieName}

// junieName refuses a name Junie refuses.
var junieName = nameRule(`^[a-z][a-z0-9-]*$`, "of the form [a-z][a-z0-9-]* (a lower-case letter, then lower-case letters, digits and '-')")

func (junie) Info() *Info { return junieInfo }

func (junie) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	return junieFile.read(src, cat, readSkills)
}

func (junie) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	return junieFile.render(def, id, marker, cat, func(d *frontmatterDoc) []Loss {
		writeSkills(d, &def, junieInfo)
		return nil
	})
}
