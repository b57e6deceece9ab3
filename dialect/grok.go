package dialect

import (
	"path/filepath"

	"github.com/binnacle-dev/bn/agents"
)

// grok is Grok Build (xAI's grok CLI): agent definitions, markdown whose
// YAML frontmatter configures the agent and whose body is its prompt, in
// .grok/agents of each directory from the working directory up to the
// repository root (the nearest wins), then ~/.grok/agents; a definition
// named like a built-in subagent type (general-purpose, explore, plan)
// shadows it. name (lower-case, '-') and description are required. tools
// is an allow list, every tool when left out: Grok's own tool ids, or
// Claude Code's names, each granting the Grok tools of its kind; a name
// Grok cannot resolve makes it ignore the whole list and keep every tool,
// so bn reads such a list as every tool and writes only names Grok
// resolves (those of the vocabulary below; an entry with arguments, such
// as Bash(git diff:*), which the documentation does not say Grok
// resolves, is read as unresolved: the wider reading). disallowedTools is a deny list
// that wins over tools. MCP tools are reached through its search_tool and
// use_tool, which a tools list never takes away, and no entry names one
// server's tool, so bn writes none. Unknown keys are ignored. Per the grok-build
// repository's documentation (docs/user-guide/16-subagents.md and the
// xai-grok-agent crate's README, "Frontmatter Schema Reference", with its
// vendor-name table, claude_alias.rs), 2026; not verified by a client,
// which no registry here has.
type grok struct{}

var grokInfo = &Info{
	Name: "grok", Title: "Grok Build", Dir: ".grok/agents", Ext: ".md", ReadExts: []string{".md"},
	Marks:     []string{".grok/agents/"},
	Signature: []string{"promptMode", "agentsMd", "mcpInheritance"},
	Doc: "`.grok/agents/*.md` from the working directory up to the repository root (nearest wins), then `~/.grok/agents`; " +
		"known by `name`; a project agent wins, and one named like a built-in subagent type replaces it; MCP tools stay reachable whatever `tools` says",
	Dirs: func(env Env) []SourceDir {
		return []SourceDir{{Path: filepath.Join(env.RepoRoot, ".grok", "agents"), Location: ProjectLocation, Format: "grok"},
			userDir(filepath.Join(env.Home, ".grok", "agents"), "grok")}
	},
	BuiltIns: []BuiltIn{{"general-purpose", Replaces}, {"explore", Replaces}, {"plan", Replaces}},
	MapID:    kebab,
	IDRule:   "lower-case letters, digits and '-'",
	// Claude Code's names, which Grok resolves by kind (Glob and LS to
	// its directory listing), written; its own tool ids read.
	Vocabulary: []Word{
		{Name: "Read", Kinds: []agents.Kind{agents.KindRead}, Write: true},
		{Name: "Write", Kinds: []agents.Kind{agents.KindCreate}, Write: true},
		{Name: "Edit", Kinds: []agents.Kind{agents.KindEdit}, Write: true},
		{Name: "MultiEdit", Kinds: []agents.Kind{agents.KindEdit}, Legacy: true},
		{Name: "Bash", Kinds: []agents.Kind{agents.KindShell}, Write: true},
		{Name: "Grep", Kinds: []agents.Kind{agents.KindGrep}, Write: true},
		{Name: "Glob", Kinds: []agents.Kind{agents.KindList}, Write: true},
		{Name: "LS", Kinds: []agents.Kind{agents.KindList}, Legacy: true},
		{Name: "LSP", Kinds: []agents.Kind{agents.KindLSP}, Write: true},
		{Name: "WebSearch", Kinds: []agents.Kind{agents.KindWebSearch}, Write: true},
		{Name: "WebFetch", Kinds: []agents.Kind{agents.KindWebFetch}, Write: true},
		{Name: "TodoWrite", Kinds: []agents.Kind{agents.KindTodo}, Write: true},
		{Name: "AskUserQuestion", Kinds: []agents.Kind{agents.KindAsk}, Write: true},
		{Name: "Agent", Kinds: []agents.Kind{agents.KindAgent}, Write: true},
		{Name: "read_file", Kinds: []agents.Kind{agents.KindRead}},
		{Name: "search_replace", Kinds: []agents.Kind{agents.KindEdit}},
		{Name: "grep", Kinds: []agents.Kind{agents.KindGrep}},
		{Name: "list_dir", Kinds: []agents.Kind{agents.KindList}},
		{Name: "web_search", Kinds: []agents.Kind{agents.KindWebSearch}},
		{Name: "web_fetch", Kinds: []agents.Kind{agents.KindWebFetch}},
		{Name: "todo_write", Kinds: []agents.Kind{agents.KindTodo}},
	},
	Fields: []FieldSpec{
		{Key: "tools", Hint: true, Check: checkStrings}, {Key: "disallowedTools", Hint: true, Check: checkStrings},
		{Key: "model", Hint: true, Check: checkString}, {Key: "effort", Hint: true, Check: checkString},
		{Key: "skills", Hint: true, Check: checkStrings},
		{Key: "permissionMode", Doc: "default, acceptEdits, auto, dontAsk, bypassPermissions or plan", Check: checkEnum("default", "acceptEdits", "auto", "dontAsk", "bypassPermissions", "plan"), Narrows: planMode},
		{Key: "promptMode", Doc: "extend (the body follows Grok's base prompt) or full (the body is the whole prompt, a template)", Check: checkEnum("extend", "full")},
		{Key: "agentsMd", Doc: "AGENTS.md files are found and added to the prompt (the default)", Check: checkBool},
		{Key: "mcpInheritance", Doc: "which of the parent session's MCP servers a subagent inherits: all, none, named or except"},
	},
	Partial:    "widen",
	PartialWhy: "Grok Build's tool lists hold tool names only: a name grants the whole tool",
	Exports:    true,
}

var grokFile = &listFile{info: grokInfo, tools: "tools", deny: "disallowedTools", model: "model", effort: "effort",
	efforts: []string{"low", "medium", "high", "xhigh", "max"}, maxTurns: "maxTurns", has: carried{"skills": true}, checkName: kebabName, lenient: true}

func (grok) Info() *Info { return grokInfo }

func (grok) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	im, err := grokFile.read(src, cat, readSkills)
	if err == nil && !im.Def.Tools.All {
		im.note("Grok Build keeps MCP tools reachable whatever tools says; bn's definition has only the tools the file names, so an export to Grok Build reports every MCP tool widened")
	}
	return im, err
}

func (grok) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	return grokFile.render(def, id, marker, cat, func(d *frontmatterDoc) []Loss {
		writeSkills(d, &def, grokInfo)
		return everyMCPTool(def.Tools, "Grok Build reaches MCP tools through search_tool and use_tool, which no tools list takes away")
	})
}
