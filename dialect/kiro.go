package dialect

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// kiro is Kiro (the IDE, and the CLI from 3.0): markdown agent profiles in
// .kiro/agents/**/*.md and ~/.kiro/agents, named by their path under
// agents/ unless a name field says otherwise (the workspace's load only
// once it is trusted). tools holds category tags (read, write, shell,
// web, subagent, …), @builtin, @mcp, @server, @server/tool or *, and
// bn reads a profile without tools as having none, as Kiro's agent
// configuration defaults it; permissions hold capability rules
// (capability, effect allow|ask|deny, match globs; deny wins, and a call
// no rule matches asks). Per kiro.dev/docs (custom agents, agent config,
// permissions), 2026. The CLI's JSON agents (.kiro/agents/*.json, as
// 2.x wrote them) are read too: the same keys, the prompt in prompt.
type kiro struct{}

var kiroInfo = &Info{
	Name: "kiro", Title: "Kiro", Dir: ".kiro/agents", Ext: ".md", ReadExts: []string{".md", ".json"}, Recursive: true,
	Marks:       []string{".kiro/agents/"},
	NamedByFile: true,
	MCPKeys: []MCPKey{{"command", "command"}, {"args", "args"}, {"env", "env"}, {"url", "url"}, {"headers", "headers"},
		{"timeout", "timeout"}},
	Signature: []string{"permissions", "welcomeMessage", "includeMcpJson", "includePowers", "keyboardShortcut"},
	Doc:       "`.kiro/agents/**/*.md` (a trusted workspace), then `~/.kiro/agents`; named by path, or `name`; a workspace agent wins",
	Dirs: func(env Env) []SourceDir {
		return []SourceDir{{Path: filepath.Join(env.RepoRoot, ".kiro", "agents"), Location: ProjectLocation, Format: "kiro"},
			userDir(filepath.Join(env.Home, ".kiro", "agents"), "kiro")}
	},
	BuiltIns: []BuiltIn{{"kiro_default", Replaces}, {"kiro_planner", Replaces}},
	Own:      []string{"context", "@mcp", "aws", "use_aws", "thinking", "introspect", "code", "report_issue"},
	Vocabulary: []Word{
		{Name: "read", Kinds: []agents.Kind{agents.KindRead, agents.KindList, agents.KindGlob, agents.KindGrep}, Write: true},
		{Name: "write", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate}, Write: true},
		{Name: "shell", Kinds: []agents.Kind{agents.KindShell}, Write: true},
		{Name: "web", Kinds: []agents.Kind{agents.KindWebFetch, agents.KindWebSearch}, Write: true},
		{Name: "subagent", Kinds: []agents.Kind{agents.KindAgent}, Write: true},
		{Name: "todo_list", Kinds: []agents.Kind{agents.KindTodo}, Write: true},
		{Name: "knowledge", Kinds: []agents.Kind{agents.KindMemory}, Write: true},
		// The CLI's JSON agents (2.x) name tools one by one.
		{Name: "fs_read", Kinds: []agents.Kind{agents.KindRead, agents.KindList, agents.KindGlob, agents.KindGrep}, Legacy: true},
		{Name: "fs_write", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate}, Legacy: true},
		{Name: "execute_bash", Kinds: []agents.Kind{agents.KindShell}, Legacy: true},
		{Name: "glob", Kinds: []agents.Kind{agents.KindGlob}, Legacy: true},
		{Name: "grep", Kinds: []agents.Kind{agents.KindGrep}, Legacy: true},
		{Name: "web_fetch", Kinds: []agents.Kind{agents.KindWebFetch}, Legacy: true},
		{Name: "web_search", Kinds: []agents.Kind{agents.KindWebSearch}, Legacy: true},
		{Name: "use_subagent", Kinds: []agents.Kind{agents.KindAgent}, Legacy: true},
		{Name: "delegate", Kinds: []agents.Kind{agents.KindAgent}, Legacy: true},
		{Name: "todo", Kinds: []agents.Kind{agents.KindTodo}, Legacy: true},
	},
	Fields: []FieldSpec{
		{Key: "tools", Hint: true, Check: checkStrings}, {Key: "permissions", Hint: true, Check: checkList},
		{Key: "model", Hint: true, Check: checkString},
		{Key: "name", Doc: "the agent's name when it differs from the file's path", Check: checkString},
		{Key: "resources", Doc: "file://, skill:// and knowledge resources loaded into its context", Check: checkStrings},
		{Key: "welcomeMessage", Doc: "shown when the agent starts", Check: checkString},
		{Key: "keyboardShortcut", Doc: "switches to the agent", Check: checkString},
		{Key: "includeMcpJson", Doc: "also use the servers in mcp.json", Check: checkBool, Runs: true},
		{Key: "includePowers", Doc: "also use installed powers", Check: checkBool},
		{Key: "toolAliases", Doc: "tool names remapped", Check: checkMap},
		{Key: "hooks", Doc: "commands run at agent events", Check: checkMap, Runs: true},
		{Key: "allowedTools", Doc: "tools used without asking (JSON agents)", Check: checkStrings},
		{Key: "toolsSettings", Doc: "settings of the built-in tools (JSON agents)", Check: checkMap},
		{Key: "useLegacyMcpJson", Doc: "also use the servers in mcp.json (older JSON agents)", Check: checkBool, Runs: true},
		{Key: "$schema", Doc: "the schema a JSON agent follows", Check: checkString},
	},
	Setup: "Kiro loads a workspace's .kiro/agents only once the workspace is trusted; it asks the first time you open it, " +
		"and export --trust cannot answer for you",
	Partial:    "widen",
	PartialWhy: "Kiro asks the user before a shell command no allow rule matches, so an allow pattern cannot keep the rest out; deny patterns are kept as deny rules",
	Exports:    true,
}

// kiroCapabilities are the kinds a permission rule's capability covers.
var kiroCapabilities = map[string][]agents.Kind{
	"shell":      {agents.KindShell},
	"filesystem": {agents.KindRead, agents.KindEdit, agents.KindCreate},
	"read":       {agents.KindRead},
	"write":      {agents.KindEdit, agents.KindCreate},
	"web":        {agents.KindWebFetch, agents.KindWebSearch},
	"subagent":   {agents.KindAgent},
}

var kiroFile = &listFile{info: kiroInfo, tools: "tools", model: "model", noTools: true, star: "*", servers: "mcpServers",
	mcp: kiroMCP, entry: atEntry, rules: "permissions", readRules: kiroReadRules, writeRules: kiroWriteRules}

func (kiro) Info() *Info { return kiroInfo }

func (kiro) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	if !strings.HasSuffix(src.Path, ".json") {
		return kiroFile.read(src, cat, nil)
	}
	// A JSON agent: the same keys, the prompt in prompt; bn writes the
	// markdown form, which Kiro reads alike.
	f, err := jsonFields(src, func(string) error { return nil })
	if err != nil {
		return nil, err
	}
	rel := strings.TrimSuffix(src.Rel, ".json") + kiroInfo.Ext
	return kiroFile.readFields(&Imported{Format: kiroInfo.Name, File: src.Path}, f, Source{Path: src.Path, Rel: rel, Data: src.Data}, cat, nil)
}

func (kiro) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	return kiroFile.render(def, id, marker, cat, nil)
}

// atEntry reads the @ entries of Kiro's and the Q CLI's tool lists:
// @builtin (every built-in tool), @server and @server/tool; @mcp (every
// MCP tool) stays the tool's own.
func atEntry(r reader, name string) ([]string, bool) {
	switch rest, ok := strings.CutPrefix(name, "@"); {
	case name == "@builtin":
		var out []string
		for _, w := range r.info.Vocabulary {
			out = appendNew(out, kindPatterns(w.Kinds, "")...)
		}
		return out, true
	case !ok || rest == "mcp" || rest == "":
		return nil, false
	default:
		if server, tool, ok := strings.Cut(rest, "/"); ok && tool != "" && tool != "*" {
			return []string{agents.MCPPattern(server, tool)}, true
		}
		return []string{agents.MCPPattern(strings.TrimSuffix(rest, "/*"), "")}, true
	}
}

func kiroMCP(server, tool string) (string, bool) {
	if tool == "" {
		return "@" + server, true
	}
	return "@" + server + "/" + tool, true
}

// kiroReadRules reads what permission rules deny. allow and ask change
// only whether Kiro asks; a deny bn cannot read would be a grant if
// left out, so it refuses the file.
func kiroReadRules(r reader, v any, t *agents.Tools) error {
	list, ok := v.([]any)
	if !ok {
		return fmt.Errorf("permissions: %v is not a list of rules", agents.Plain(v))
	}
	for i, e := range list {
		m, ok := e.(*agents.Map)
		if !ok {
			return fmt.Errorf("permissions[%d]: %v is not a rule (capability, effect, match)", i, agents.Plain(e))
		}
		effect, _ := m.Get("effect")
		switch effect {
		case "allow", "ask":
			continue
		case "deny":
		default:
			return fmt.Errorf("permissions[%d]: effect %v is not allow, ask or deny", i, agents.Plain(effect))
		}
		capability, _ := m.Get("capability")
		kinds, ok := kiroCapabilities[fmt.Sprint(capability)]
		if capability == "builtin" {
			kinds, ok = nil, true
			for _, w := range kiroInfo.Vocabulary {
				kinds = append(kinds, w.Kinds...)
			}
		}
		if !ok {
			return fmt.Errorf("permissions[%d]: bn cannot tell what a deny of capability %v covers; write shell, filesystem, read, write, web, subagent or builtin", i, agents.Plain(capability))
		}
		match, _ := m.Get("match")
		globs := pairGlobs(stringList(match))
		if len(globs) == 0 {
			globs = []string{""}
		}
		for _, g := range globs {
			t.Deny = appendNew(t.Deny, kindPatterns(kinds, g)...)
		}
	}
	return nil
}

// pairGlobs reads "cmd" with "cmd *" as bn's cmd:* (the command and its
// arguments), as bn writes it.
func pairGlobs(globs []string) []string {
	var out []string
	for _, g := range globs {
		if stem, ok := strings.CutSuffix(g, " *"); ok && slices.Contains(globs, stem) {
			continue
		}
		if !strings.Contains(g, "*") && slices.Contains(globs, g+" *") {
			g += ":*"
		}
		out = append(out, g)
	}
	return out
}

// kiroWriteRules writes the shell commands the definition denies as a
// deny rule, which wins over any other in Kiro, and takes them out of t
// for the tool list.
func kiroWriteRules(t *agents.Tools) (any, []Loss) {
	var match []string
	t.Deny = slices.DeleteFunc(t.Deny, func(s string) bool {
		p, err := agents.ParseToolPattern(s)
		if err != nil || !p.HasArg || p.Arg == "*" || !slices.Equal(p.Kinds(), []agents.Kind{agents.KindShell}) {
			return false
		}
		match = appendNew(match, opencodeBash(p.Arg)...)
		return true
	})
	if len(match) == 0 || !t.Uses(agents.KindShell) {
		return nil, nil
	}
	rule := &agents.Map{}
	rule.Set("capability", "shell")
	rule.Set("effect", "deny")
	rule.Set("match", match)
	return []any{rule}, nil
}
