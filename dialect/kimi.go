package dialect

import (
	"path/filepath"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// kimi is Kimi Code CLI: markdown agents in .kimi-code/agents and
// .agents/agents of the project (its root, the nearest directory holding
// .git), then ~/.kimi-code/agents and ~/.agents/agents, each read with
// its subdirectories, the project's winning. name (kebab-case) and
// description are required; tools is an allow list of Kimi's tool names,
// MCP tools matched by globs (mcp__github__*), every tool when left out
// and none when empty; disallowedTools is applied after it. A file does
// not replace a built-in agent (coder, explore, plan) unless it says
// override: true. There is no model key. Per its documentation
// (docs/en/customization/agents.md, docs/en/reference/tools.md, 2026);
// not verified by a client, which no registry here has.
type kimi struct{}

var kimiInfo = &Info{
	Name: "kimi", Title: "Kimi Code", Dir: ".kimi-code/agents", Ext: ".md", ReadExts: []string{".md"}, Recursive: true,
	Marks:     []string{".kimi-code/agents/", ".agents/agents/"},
	Signature: []string{"whenToUse", "override"},
	Doc:       "`.kimi-code/agents/**/*.md` and `.agents/agents/**/*.md` of the project, then `~/.kimi-code/agents` and `~/.agents/agents`; known by `name`; a project agent wins",
	Dirs: func(env Env) []SourceDir {
		return []SourceDir{{Path: filepath.Join(env.RepoRoot, ".kimi-code", "agents"), Location: ProjectLocation, Format: "kimi"},
			{Path: filepath.Join(env.RepoRoot, ".agents", "agents"), Location: ProjectLocation, Format: "kimi"},
			userDir(filepath.Join(env.Home, ".kimi-code", "agents"), "kimi"),
			userDir(filepath.Join(env.Home, ".agents", "agents"), "kimi")}
	},
	BuiltIns: []BuiltIn{{"coder", Replaces}, {"explore", Replaces}, {"plan", Replaces}},
	MapID:    kebab,
	IDRule:   "kebab-case: lower-case letters and digits, words joined by '-'",
	Own:      []string{"CronCreate", "CronList", "CronDelete"},
	Vocabulary: []Word{
		{Name: "Read", Kinds: []agents.Kind{agents.KindRead}, Write: true},
		{Name: "ReadMediaFile", Kinds: []agents.Kind{agents.KindRead}},
		{Name: "Glob", Kinds: []agents.Kind{agents.KindGlob}, Write: true},
		{Name: "Grep", Kinds: []agents.Kind{agents.KindGrep}, Write: true},
		{Name: "Edit", Kinds: []agents.Kind{agents.KindEdit}, Write: true},
		{Name: "Write", Kinds: []agents.Kind{agents.KindCreate}, Write: true},
		{Name: "Bash", Kinds: []agents.Kind{agents.KindShell}, Write: true},
		{Name: "TaskList", Kinds: []agents.Kind{agents.KindShell}},
		{Name: "TaskOutput", Kinds: []agents.Kind{agents.KindShell}},
		{Name: "TaskStop", Kinds: []agents.Kind{agents.KindShell}},
		{Name: "FetchURL", Kinds: []agents.Kind{agents.KindWebFetch}, Write: true},
		{Name: "WebSearch", Kinds: []agents.Kind{agents.KindWebSearch}, Write: true},
		{Name: "Agent", Kinds: []agents.Kind{agents.KindAgent}, Write: true},
		{Name: "TodoList", Kinds: []agents.Kind{agents.KindTodo}, Write: true},
		{Name: "Skill", Kinds: []agents.Kind{agents.KindSkill}, Write: true},
		{Name: "AskUserQuestion", Kinds: []agents.Kind{agents.KindAsk}, Write: true},
		{Name: "EnterPlanMode", Kinds: []agents.Kind{agents.KindPlan}, Write: true, Group: "plan"},
		{Name: "ExitPlanMode", Kinds: []agents.Kind{agents.KindPlan}, Write: true, Group: "plan"},
	},
	Fields: []FieldSpec{
		{Key: "tools", Hint: true, Check: checkStrings}, {Key: "disallowedTools", Hint: true, Check: checkStrings},
		{Key: "whenToUse", Doc: "when the agent should be used", Check: checkString},
		{Key: "override", Doc: "the file replaces a built-in agent of its name", Check: checkBool},
		{Key: "mode", Doc: "replace (the body is the whole system prompt) or append (added to the default one)", Check: checkEnum("replace", "append")},
	},
	Partial:    "widen",
	PartialWhy: "Kimi Code's tool lists hold tool names only: a name grants the whole tool",
	Exports:    true,
}

var kimiFile = &listFile{info: kimiInfo, tools: "tools", deny: "disallowedTools", mcp: claudeMCP, entry: kimiEntry, checkName: kebabName}

// kimiEntry reads an MCP glob: mcp__server__tool, mcp__server__* or
// mcp__server.
func kimiEntry(_ reader, name string) ([]string, bool) {
	rest, ok := strings.CutPrefix(name, "mcp__")
	if !ok || rest == "" || rest == "*" {
		return nil, false
	}
	if server, tool, ok := strings.Cut(rest, "__"); ok && tool != "" && tool != "*" {
		return []string{server + "(" + tool + ")"}, true
	}
	return []string{strings.TrimSuffix(strings.TrimSuffix(rest, "*"), "__")}, true
}

// kebabName refuses a name that is not kebab-case.
var kebabName = nameRule(`^[a-z0-9]+(-[a-z0-9]+)*$`, "kebab-case (lower-case letters and digits, words joined by '-')")

// kebab maps a name to kebab-case: Slug's words, '_' a '-' too
// (CSharpExpert: csharp-expert, powershell-5.1-expert:
// powershell-5-1-expert).
func kebab(name string) string {
	return strings.Trim(dashes().ReplaceAllString(Slug(name), "-"), "-")
}

var dashes = lazyRegexp(`[-_]+`)

func (kimi) Info() *Info { return kimiInfo }

func (kimi) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	return kimiFile.read(src, cat, nil)
}

func (kimi) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	return kimiFile.render(def, id, marker, cat, func(d *frontmatterDoc) []Loss {
		// A directory file replaces a built-in only when it says so.
		if _, builtIn := kimiInfo.BuiltIn(id); builtIn {
			if _, ok := def.TargetOf(kimiInfo.Name).Fields.Get("override"); !ok {
				d.set("override", true)
			}
		}
		return nil
	})
}
