package dialect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/frontmatter"
)

// amazonq is the Amazon Q Developer CLI (q chat --agent): JSON agent
// configurations in .amazonq/cli-agents and ~/.aws/amazonq/cli-agents
// (the workspace's winning), named by the file unless name says
// otherwise. tools lists what the agent can see and defaults to nothing;
// toolsSettings limit the built-in tools (execute_bash's deniedCommands
// are regular expressions anchored at both ends, evaluated before
// anything else). The schema allows no other key. bn imports these files
// and does not write them: JSON holds no comment, and the schema no key,
// for the line that marks a file as bn's. Per aws/amazon-q-developer-cli
// (docs/agent-format.md, docs/built-in-tools.md, schemas/agent-v1.json).
type amazonq struct{}

var amazonqInfo = &Info{
	Name: "amazonq", Title: "Amazon Q Developer CLI", Dir: ".amazonq/cli-agents", Ext: ".json", ReadExts: []string{".json"},
	Marks:       []string{".amazonq/cli-agents/"},
	NamedByFile: true,
	MCPKeys:     qMCPKeys,
	MCPTypes:    []string{"stdio", "http"},
	Doc:         "`.amazonq/cli-agents/*.json`, then `~/.aws/amazonq/cli-agents`; named by file or `name`; a workspace agent wins (imported, not written)",
	Dirs: func(env Env) []SourceDir {
		return []SourceDir{{Path: filepath.Join(env.Cwd, ".amazonq", "cli-agents"), Location: ProjectLocation, Format: "amazonq"},
			userDir(filepath.Join(env.Home, ".aws", "amazonq", "cli-agents"), "amazonq")}
	},
	BuiltIns:   []BuiltIn{{"q_cli_default", Replaces}},
	Own:        qOwn,
	Vocabulary: slices.Concat(qRenamed, qKept),
	Fields:     qFields,
	Partial:    "widen",
	PartialWhy: "the Q CLI asks before a command no allowedCommands entry matches, so an allow pattern cannot keep the rest out",
}

// The Kiro CLI's JSON agents (kirocli.go) are the Q CLI's renamed and
// grown; the parts they share are these, which both records build on.
var (
	qMCPKeys = []MCPKey{{"type", "type"}, {"command", "command"}, {"args", "args"}, {"env", "env"}, {"url", "url"},
		{"timeout", "timeout"}}
	qOwn = []string{"use_aws", "thinking", "report_issue", "introspect"}
	// qRenamed are the built-in tools the Kiro CLI renamed (it still
	// reads these names); qKept those it kept.
	qRenamed = []Word{
		{Name: "fs_read", Kinds: []agents.Kind{agents.KindRead, agents.KindList, agents.KindGlob, agents.KindGrep}, Write: true},
		{Name: "fs_write", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate}, Write: true},
		{Name: "execute_bash", Kinds: []agents.Kind{agents.KindShell}, Write: true},
		{Name: "execute_cmd", Kinds: []agents.Kind{agents.KindShell}},
	}
	qKept = []Word{
		{Name: "todo_list", Kinds: []agents.Kind{agents.KindTodo}, Write: true},
		{Name: "knowledge", Kinds: []agents.Kind{agents.KindMemory}, Write: true},
		{Name: "use_subagent", Kinds: []agents.Kind{agents.KindAgent}, Write: true},
	}
	qFields = []FieldSpec{
		{Key: "tools", Hint: true, Check: checkStrings}, {Key: "toolsSettings", Hint: true, Check: checkMap},
		{Key: "model", Hint: true, Check: checkString},
		{Key: "allowedTools", Hint: true, Check: checkStrings},
		{Key: "toolAliases", Doc: "tool names remapped", Check: checkMap},
		{Key: "resources", Doc: "file:// resources loaded into its context", Check: checkStrings},
		{Key: "hooks", Doc: "commands whose output is added at agent events", Check: checkMap, Runs: true},
		{Key: "useLegacyMcpJson", Doc: "also use the servers in mcp.json", Check: checkBool, Runs: true},
		{Key: "$schema", Doc: "the schema the file follows", Check: checkString},
	}
)

// amazonqKeys are every key the schema allows.
var amazonqKeys = []string{"$schema", "name", "description", "prompt", "mcpServers", "tools", "toolAliases", "allowedTools",
	"toolsSettings", "resources", "hooks", "useLegacyMcpJson", "model"}

var amazonqFile = qListFile(amazonqInfo, amazonqSettings)

// qListFile reads and writes the tools of a Q CLI or Kiro CLI agent:
// tools lists what it can see (none when left out, "*" all, "@server"
// an MCP server's), allowedTools those it uses without asking (the rest
// ask before each use), toolsSettings beside them.
func qListFile(info *Info, readRules func(reader, any, *agents.Tools) error) *listFile {
	return &listFile{info: info, tools: "tools", model: "model", noTools: true, star: "*", servers: "mcpServers",
		entry: atEntry, rules: "toolsSettings", readRules: readRules, trusted: "allowedTools"}
}

func (amazonq) Info() *Info { return amazonqInfo }

func (amazonq) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	f, err := jsonFields(src, func(k string) error {
		if slices.Contains(amazonqKeys, k) {
			return nil
		}
		msg := fmt.Sprintf("%s is not a key of a Q CLI agent; the Q CLI rejects the file (its schema allows no other)", k)
		if hint := agents.DidYouMean(k, amazonqKeys); hint != "" {
			msg += " (" + hint + ")"
		}
		return errors.New(msg)
	})
	if err != nil {
		return nil, err
	}
	return amazonqFile.readFields(&Imported{Format: amazonqInfo.Name, File: src.Path}, f, src, cat, nil)
}

// jsonFields reads a JSON agent configuration (the Q CLI's, Kiro's) as
// the keys of a markdown file's frontmatter, its prompt as the body;
// check refuses a key the tool refuses.
func jsonFields(src Source, check func(key string) error) (*fields, error) {
	if err := checkJSON(src.Data); err != nil {
		return nil, err
	}
	var doc map[string]any
	if err := json.Unmarshal(src.Data, &doc); err != nil {
		return nil, fmt.Errorf("invalid JSON: %v", err)
	}
	if doc == nil {
		return nil, errors.New("not a JSON object: an agent configuration is one")
	}
	data, err := agents.Data(doc)
	if err != nil {
		return nil, err
	}
	m := data.(*agents.Map)
	f := &fields{}
	for _, k := range m.Keys {
		if err := check(k); err != nil {
			return nil, err
		}
		if k == "prompt" {
			p, _ := m.Values[k].(string)
			if strings.HasPrefix(p, "file://") {
				return nil, fmt.Errorf("prompt %q is a file: bn imports a prompt written in the agent; copy it in", p)
			}
			f.body = strings.TrimSpace(p)
			continue
		}
		f.entries = append(f.entries, frontmatter.Entry{Key: k, Value: m.Values[k]})
	}
	return f, nil
}

func (amazonq) Render(agents.Definition, string, string, *agents.Catalog) (Rendered, error) {
	return Rendered{}, errors.New("bn does not write Amazon Q agents: JSON holds no comment, and the Q CLI's schema no key, for the line that marks a file as bn's")
}

// amazonqSettings reads what toolsSettings deny: execute_bash's
// deniedCommands, and the deniedPaths of fs_read and fs_write. A denied
// command bn cannot write as a pattern denies the shell whole: bn never
// reads a file as granting more than it does.
func amazonqSettings(r reader, v any, t *agents.Tools) error {
	return deniedSettings(r, v, t, []string{"execute_bash"}, []string{"fs_read"}, []string{"fs_write"})
}

// deniedSettings reads what toolsSettings deny (the Q CLI's and the
// Kiro CLI's), the shell's, read tool's and write tool's settings under
// the keys given.
func deniedSettings(r reader, v any, t *agents.Tools, shell, read, write []string) error {
	m, ok := v.(*agents.Map)
	if !ok {
		return fmt.Errorf("toolsSettings: %v is not a mapping of tool names to settings", agents.Plain(v))
	}
	denied := func(tools []string, key string) []string {
		var out []string
		for _, tool := range tools {
			s, _ := m.Get(tool)
			if sm, _ := s.(*agents.Map); sm != nil {
				d, _ := sm.Get(key)
				out = append(out, stringList(d)...)
			}
		}
		return out
	}
	for _, re := range denied(shell, "deniedCommands") {
		if arg, ok := shellGlob(re); ok {
			t.Deny = appendNew(t.Deny, "shell("+arg+")")
			continue
		}
		r.im.note("deniedCommands %q is a regular expression bn has no pattern for: bn denies shell whole", re)
		t.Deny = appendNew(t.Deny, string(agents.KindShell))
	}
	for _, p := range denied(read, "deniedPaths") {
		t.Deny = appendNew(t.Deny, "read("+p+")")
	}
	for _, p := range denied(write, "deniedPaths") {
		t.Deny = appendNew(t.Deny, "edit("+p+")", "create("+p+")")
	}
	return nil
}

// shellGlob turns an anchored regular expression of the plain kinds
// people write (git push, git push .*, rm -rf( .*)?) into bn's shell
// pattern argument: the inverse of shellRegexp, which the Kiro CLI's
// writer uses, so that what bn writes it reads back the same.
func shellGlob(re string) (string, bool) {
	if _, err := regexp.Compile(re); err != nil {
		return "", false
	}
	// The command alone or with arguments is bn's plain pattern; with
	// binnacle's cmd:… too, cmd:*.
	for _, tail := range []string{"( .*)?", "(\\s.*)?"} {
		if stem, ok := strings.CutSuffix(re, tail); ok && literal(stem) {
			return unquote(stem), true
		}
	}
	if stem, ok := strings.CutSuffix(re, "([ :].*)?"); ok && literal(stem) {
		return unquote(stem) + ":*", true
	}
	// Literal runs between .* are bn's runs between *.
	parts := strings.Split(re, ".*")
	for i, p := range parts {
		if p != "" && !literal(p) {
			return "", false
		}
		parts[i] = unquote(p)
	}
	if arg := strings.Join(parts, "*"); strings.Trim(arg, "*") != "" {
		return arg, true
	}
	return "", false
}

// shellRegexp writes a bn shell pattern as a regular expression the
// command must match whole, matching what the pattern matches
// (agents.MatchCommand): a plain command is itself or itself with
// arguments, cmd:* also binnacle's cmd:…, and each * any run of
// characters.
func shellRegexp(arg string) string {
	if stem, ok := strings.CutSuffix(arg, ":*"); ok {
		return regexp.QuoteMeta(stem) + "([ :].*)?"
	}
	if !strings.Contains(arg, "*") {
		return regexp.QuoteMeta(arg) + "( .*)?"
	}
	parts := strings.Split(arg, "*")
	for i, p := range parts {
		parts[i] = regexp.QuoteMeta(p)
	}
	return strings.Join(parts, ".*")
}

// literal says whether a regular expression matches only itself (its
// metacharacters escaped).
func literal(re string) bool {
	return re != "" && regexp.QuoteMeta(unquote(re)) == re
}

func unquote(re string) string {
	var b strings.Builder
	for i := 0; i < len(re); i++ {
		if re[i] == '\\' && i+1 < len(re) {
			i++
		}
		b.WriteByte(re[i])
	}
	return b.String()
}

// checkJSON refuses, in one walk over its tokens, a JSON agent that nests
// deeper than frontmatter may (frontmatter.MaxDepth) or whose object gives
// one key twice, at any depth. Its keys become a section of config.kdl,
// which holds no deeper; and encoding/json keeps the last of two keys
// while the tool that reads the file may keep the first, so the agent
// would mean one thing to bn and another to the tool. The walk stops at
// the first syntax error, which the decoding that follows reports.
func checkJSON(data []byte) error {
	type object struct {
		keys    map[string]int64 // key -> offset just past it
		wantKey bool
		array   bool
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []object
	value := func() { // a value ended: an object's next string is a key
		if n := len(stack); n > 0 && !stack[n-1].array {
			stack[n-1].wantKey = true
		}
	}
	line := func(off int64) int { return 1 + bytes.Count(data[:off], []byte("\n")) }
	for {
		t, err := dec.Token()
		if err != nil {
			return nil // the end, or an error the decoding reports
		}
		switch t {
		case json.Delim('{'), json.Delim('['):
			if len(stack) == frontmatter.MaxDepth {
				return fmt.Errorf("line %d: nests more than %d levels deep; agent files nest a few levels", line(dec.InputOffset()), frontmatter.MaxDepth)
			}
			o := object{wantKey: true, array: t == json.Delim('[')}
			if !o.array {
				o.keys = map[string]int64{}
			}
			stack = append(stack, o)
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return nil // past the value, the decoding says what is wrong
			}
			value()
			continue
		}
		if key, ok := t.(string); ok && len(stack) > 0 && !stack[len(stack)-1].array && stack[len(stack)-1].wantKey {
			top := &stack[len(stack)-1]
			if first, twice := top.keys[key]; twice {
				return fmt.Errorf("line %d: key %q is given twice in one object (first at line %d): JSON readers differ on which one they keep, so bn and the tool could read different agents; keep one",
					line(dec.InputOffset()), key, line(first))
			}
			top.keys[key], top.wantKey = dec.InputOffset(), false
			continue
		}
		value()
	}
}
