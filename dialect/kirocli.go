package dialect

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/frontmatter"
)

// kiroCLI is the Kiro CLI's JSON agents (kiro-cli chat --agent, 2.x, the
// successor of the Amazon Q Developer CLI's): .kiro/agents/*.json and
// ~/.kiro/agents (the workspace's winning), named by the file unless name
// says otherwise, the prompt inline. tools lists what the agent can see
// (none when left out); allowedTools those it uses without asking, the
// others asking the user before each use (bn's ask);
// toolsSettings set the built-in tools: the shell's allowedCommands (run
// without asking) and deniedCommands (refused), regular expressions
// anchored at both ends, and the read and write tools' allowedPaths and
// deniedPaths. mcpServers and hooks are the agent's own. Kiro's IDE (and
// the CLI from 3.0) reads markdown profiles: the kiro dialect. Per
// kiro.dev/docs/cli (custom agents: configuration reference; built-in
// tools), 2026; not verified by a client, which no registry here has:
// the settings bn writes are reported as advisory.
type kiroCLI struct{}

var kiroCLIInfo = &Info{
	Name: "kiro-cli", Title: "Kiro CLI", Dir: ".kiro/agents", Ext: ".json", ReadExts: []string{".json"},
	Marks:       []string{".kiro/agents/"},
	NamedByFile: true,
	MCPKeys:     append(slices.Clone(qMCPKeys), MCPKey{"headers", "headers"}),
	MCPTypes:    []string{"stdio", "http"},
	Signature:   []string{"toolsSettings", "allowedTools", "toolAliases", "useLegacyMcpJson", "$comment"},
	Doc:         "`.kiro/agents/*.json`, then `~/.kiro/agents`; named by file or `name`; a workspace agent wins (the CLI 2.x's JSON; Kiro's markdown profiles are the `kiro` target)",
	Dirs: func(env Env) []SourceDir {
		return []SourceDir{{Path: filepath.Join(env.RepoRoot, ".kiro", "agents"), Location: ProjectLocation, Format: "kiro-cli"},
			userDir(filepath.Join(env.Home, ".kiro", "agents"), "kiro-cli")}
	},
	BuiltIns: []BuiltIn{{"kiro_default", Replaces}},
	ModelsAs: "kiro",
	Own:      append([]string{"aws"}, qOwn...),
	// The Kiro CLI reads the Q CLI's names still, and writes its own.
	Vocabulary: slices.Concat([]Word{
		{Name: "read", Kinds: []agents.Kind{agents.KindRead, agents.KindList, agents.KindGlob, agents.KindGrep}, Write: true},
		{Name: "glob", Kinds: []agents.Kind{agents.KindGlob}},
		{Name: "grep", Kinds: []agents.Kind{agents.KindGrep}},
		{Name: "write", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate}, Write: true},
		{Name: "shell", Kinds: []agents.Kind{agents.KindShell}, Write: true},
		{Name: "web_fetch", Kinds: []agents.Kind{agents.KindWebFetch}, Write: true},
		{Name: "web_search", Kinds: []agents.Kind{agents.KindWebSearch}, Write: true},
	}, legacyWords(qRenamed), qKept, []Word{
		{Name: "delegate", Kinds: []agents.Kind{agents.KindAgent}, Legacy: true},
	}),
	Fields: withFields(qFields,
		FieldSpec{Key: "name", Doc: "the agent's name when it differs from the file's", Check: checkString},
		FieldSpec{Key: "resources", Doc: "file://, skill:// and knowledge resources loaded into its context", Check: checkStrings},
		FieldSpec{Key: "hooks", Doc: "commands run at agent events (agentSpawn, userPromptSubmit, preToolUse, postToolUse, stop)", Check: checkMap, Runs: true},
		FieldSpec{Key: "includeMcpJson", Doc: "also use the servers in mcp.json", Check: checkBool, Runs: true},
		FieldSpec{Key: "keyboardShortcut", Doc: "switches to the agent", Check: checkString},
		FieldSpec{Key: "welcomeMessage", Doc: "shown when the agent starts", Check: checkString}),
	Partial: "widen",
	PartialWhy: "the Kiro CLI asks before a shell command no allowedCommands entry matches, so an allow pattern cannot keep the rest out; " +
		"bn writes the patterns as allowedCommands and deniedCommands (advisory: no client here proves them)",
	Exports: true,
	Asks:    true,
}

var kiroCLIFile = func() *listFile {
	f := qListFile(kiroCLIInfo, kiroCLISettings)
	f.mcp, f.writeRules, f.json = kiroMCP, kiroCLIWriteSettings, true
	return f
}()

// legacyWords are words a tool reads under an old name and no longer
// writes.
func legacyWords(words []Word) []Word {
	out := slices.Clone(words)
	for i := range out {
		out[i].Write, out[i].Legacy = false, true
	}
	return out
}

// withFields are the fields of base with more: one of the same key in
// its place, the others after.
func withFields(base []FieldSpec, more ...FieldSpec) []FieldSpec {
	out := slices.Clone(base)
	for _, f := range more {
		if i := slices.IndexFunc(out, func(b FieldSpec) bool { return b.Key == f.Key }); i >= 0 {
			out[i] = f
		} else {
			out = append(out, f)
		}
	}
	return out
}

func (kiroCLI) Info() *Info { return kiroCLIInfo }

func (kiroCLI) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	f, err := jsonFields(src, func(string) error { return nil })
	if err != nil {
		return nil, err
	}
	// The "$comment" bn marks its files with (or a person's note) is no
	// part of the agent.
	f.entries = slices.DeleteFunc(f.entries, func(e frontmatter.Entry) bool { return e.Key == "$comment" })
	return kiroCLIFile.readFields(&Imported{Format: kiroCLIInfo.Name, File: src.Path}, f, src, cat, nil)
}

func (kiroCLI) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	return kiroCLIFile.render(def, id, marker, cat, nil)
}

// The settings keys of the Kiro CLI's built-in tools, under their names
// and the names they had.
var (
	kiroShellKeys = []string{"shell", "execute_bash", "execute_cmd", "executeCmd"}
	kiroReadKeys  = []string{"read", "fs_read", "fsRead"}
	kiroWriteKeys = []string{"write", "fs_write", "fsWrite"}
)

// kiroCLISettings reads what toolsSettings deny, as the Q CLI's do, under
// any of the names the Kiro CLI reads them by.
func kiroCLISettings(r reader, v any, t *agents.Tools) error {
	return deniedSettings(r, v, t, kiroShellKeys, kiroReadKeys, kiroWriteKeys)
}

// kiroCLIWriteSettings writes the shell patterns of the definition as
// the shell's settings, regular expressions anchored at both ends: the
// commands it allows as allowedCommands (run without asking; others are
// asked about, so the allow list stays widened), the commands it denies
// as deniedCommands, which it takes out of t; and the paths it denies the
// read and write tools as their deniedPaths. Each is reported advisory:
// no client here shows the Kiro CLI applying them.
func kiroCLIWriteSettings(t *agents.Tools) (any, []Loss) {
	var allowed, denied []string
	var readDenied, writeDenied []string
	var losses []Loss
	advisory := func(format string, args ...any) {
		losses = append(losses, Loss{Field: "tools", Kind: Advisory, Detail: fmt.Sprintf(format, args...)})
	}
	for _, s := range t.Allow {
		// A command the agent asks about is no allowedCommands entry,
		// which would run it without asking.
		if p, err := agents.ParseToolPattern(s); err == nil && p.HasArg && p.Arg != "*" && slices.Equal(agents.KindsOf(p.Kind), []agents.Kind{agents.KindShell}) && t.Asks(p) == "" {
			allowed = appendNew(allowed, shellRegexp(p.Arg))
			advisory("allow %q written as the shell's allowedCommands %q: the Kiro CLI runs it without asking (not proven by a client)", s, shellRegexp(p.Arg))
		}
	}
	t.Deny = slices.DeleteFunc(t.Deny, func(s string) bool {
		p, err := agents.ParseToolPattern(s)
		if err != nil || !p.HasArg || p.Arg == "*" {
			return false
		}
		kinds := agents.KindsOf(p.Kind)
		switch {
		case slices.Equal(kinds, []agents.Kind{agents.KindShell}):
			denied = appendNew(denied, shellRegexp(p.Arg))
			advisory("deny %q written as the shell's deniedCommands %q: the Kiro CLI refuses it (not proven by a client)", s, shellRegexp(p.Arg))
		case slices.Equal(kinds, []agents.Kind{agents.KindRead}):
			readDenied = appendNew(readDenied, p.Arg)
			advisory("deny %q written as the read tool's deniedPaths (not proven by a client)", s)
		case slices.Equal(kinds, []agents.Kind{agents.KindEdit}) || slices.Equal(kinds, []agents.Kind{agents.KindCreate}) ||
			slices.Equal(kinds, []agents.Kind{agents.KindEdit, agents.KindCreate}):
			writeDenied = appendNew(writeDenied, p.Arg)
			advisory("deny %q written as the write tool's deniedPaths (not proven by a client)", s)
		default:
			return false
		}
		return true
	})
	settings := &agents.Map{}
	set := func(tool, key string, list []string) {
		if len(list) == 0 {
			return
		}
		m, _ := settings.Get(tool)
		tm, _ := m.(*agents.Map)
		if tm == nil {
			tm = &agents.Map{}
			settings.Set(tool, tm)
		}
		tm.Set(key, stringsAny(list))
	}
	set("shell", "allowedCommands", allowed)
	set("shell", "deniedCommands", denied)
	set("read", "deniedPaths", readDenied)
	set("write", "deniedPaths", writeDenied)
	if settings.Len() == 0 {
		return nil, losses
	}
	return settings, losses
}

func stringsAny(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}
