package dialect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/frontmatter"
	"github.com/pelletier/go-toml/v2"
)

// Dialect is one tool.
type Dialect interface {
	Info() *Info
	// Read decodes one of the tool's agent files. An error means the tool
	// would not load the file either.
	Read(src Source, cat *agents.Catalog) (*Imported, error)
	// Render writes a definition (its prompt filled) as the tool's agent
	// file under the given id, with marker as its first comment line.
	Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error)
}

// Info describes a tool.
type Info struct {
	Name  string // bn's name for the tool: claude, copilot, …
	Title string // the tool's own name
	// Dir is where the tool reads a repository's agents (relative to the
	// repository root) and where export writes; Ext names the files.
	Dir string
	Ext string
	// ReadExts are the file endings the tool reads as agents.
	ReadExts []string
	// Marks are path fragments or endings only this tool's files have
	// (".github/agents/", ".agent.md"): how import tells whose a file is.
	Marks []string
	// Signature are frontmatter keys only this tool's files use, for
	// files outside any tool's directory. NamedByFile: the tool's agents
	// have no name key (a file without one is this tool's). Fallback: a
	// file nothing else claims is read as this tool's.
	Signature   []string
	NamedByFile bool
	Fallback    bool
	// MCPKeys name the settings of a per-agent MCP server in the tool's
	// agent files, bn's name to the tool's (nil: the files hold none).
	// MCPTypes are the transports its type key takes, and MCPHTTPURL the
	// key a streamable-HTTP server's URL goes under, when not url.
	// MCPStarTools: a server's tools list of "*" is how the tool says
	// every tool (elsewhere that is the list left out).
	MCPKeys      []MCPKey
	MCPTypes     []string
	MCPHTTPURL   string
	MCPStarTools bool
	// MCPRequired: the tool rejects a per-agent MCP server without its
	// type and tools keys (the Copilot CLI: "tools: Required").
	MCPRequired bool
	// Recursive: the tool finds agents in subdirectories too.
	Recursive bool
	// Doc says, for docs/tools.md, how the tool finds agents and what wins.
	Doc string
	// Dirs lists the directories the tool reads agents from, in its own
	// precedence: earlier wins, unless Merges, when later files merge
	// over earlier ones field by field.
	Dirs   func(Env) []SourceDir
	Merges bool
	// LoadsCopies: the tool loads every file it finds for an agent, in
	// its directories and in the other tools' it reads (goose), so
	// another tool's files there are copies of the agent, reported.
	LoadsCopies bool
	// BuiltIns are the tool's own agents and what a project agent of the
	// same name does to them.
	BuiltIns []BuiltIn
	// MapID turns a name into one the tool accepts (nil: every bn name
	// is accepted; a name it cannot map comes back unchanged, and the
	// writer refuses it); IDRule says what the tool accepts.
	MapID  func(string) string
	IDRule string
	// Vocabulary maps the tool's tool names to bn's kinds. Own are the
	// tool's documented tools no other tool has (no bn kind): kept for
	// the tool as @tool(name).
	Vocabulary []Word
	Own        []string
	// Retired are names the tool once had and no longer offers: read as
	// granting nothing, kept for the tool as @tool(name).
	Retired []string
	// Runtime names the tools the running client offers an agent, where
	// they differ from the names its files use (nil: the same): what the
	// probes observe is read through it.
	Runtime []Word
	// Fields are the fields only this tool has, which bn keeps in the
	// tool's section of a definition. OtherKeys are further keys the
	// tool's files may hold, kept as written without documentation
	// (Codex: its config.toml keys).
	Fields    []FieldSpec
	OtherKeys []string
	// Partial is what the tool's files do with a capability the
	// definition grants or denies only in part when the file cannot say
	// so: "widen" or "narrow". Empty when the tool has patterns.
	Partial string
	// PartialWhy documents the choice.
	PartialWhy string
	// Asks: the tool's files can say that a use asks the user first
	// (OpenCode's permission ask), as the definition's ask patterns do
	// (agents.Tools.Ask). A tool that has Asks reads them and writes them
	// back, and reports those it cannot; for every other tool export
	// reports each as widened (Asked).
	Asks bool
	// ShellWords, when set, says how the tool matches a shell pattern:
	// against each command's words as written, seeing neither a
	// redirection nor what a matched program writes by itself, nor a
	// command spelled another way (OpenCode's bash permission). Without a
	// hook, bn reports what such a tool lets through (Honest).
	ShellWords string
	// Hook, when the tool runs a command before each call an agent
	// makes, is how bn enforces what the file cannot say: the tool is
	// written whole and the hook refuses the uses the definition does
	// not allow (nil: the tool has no such hook for one agent).
	Hook *Hook
	// RepoHook is the tool's repository-wide hook, where its agent files
	// carry none bn could write (nil: none the probes ran).
	RepoHook *RepoHook
	// Setup says what, besides the file, the tool needs before it loads
	// a project's agents; empty when nothing. Trust makes those edits to
	// the user's files (export --trust), given the repository root, the
	// home directory and the agent files written.
	Setup string
	Trust func(root, home string, written []Written) []FileEdit
	// Ignores are keys of the tool's format its reader skips in these
	// files (Claude Code ignores hooks, mcpServers and permissionMode in
	// a plugin's agents): read as nothing, and reported.
	Ignores []string
	// Package, when set, are the files the tool needs beside the agent
	// files to load them, given the repository root and the directory
	// the agents are written to, each marked with marker (a Claude Code
	// plugin's manifest, and the marketplace that lists it).
	Package func(root, agentsDir, marker string) []Written
	// ModelsAs names the tool whose model spellings this tool's files
	// take when the catalog has none of its own (Cline, Pi and Goose name
	// a model as OpenCode does, provider/model).
	ModelsAs string
	// Companion, when set, is a second file each agent has, named by its
	// agent file (Mistral Vibe's prompt): export writes both in one write.
	Companion *Companion
	// Exports says whether bn writes this tool's files.
	Exports bool
	// Template, when set, is how the tool fills ${name} in a prompt.
	Template *PromptTemplate
	// AgentEnv are environment variables the tool sets for the commands
	// its agents run (Claude Code's CLAUDECODE), as its client shows: bn
	// run by one of its agents answers in JSON even on a pseudo-terminal,
	// since an agent reads what it prints. TerminalEnv, which the tool
	// also sets in a terminal it opens for its user, undoes that.
	AgentEnv    []string
	TerminalEnv string
	// Client is the npm package, as pinned (name@version), of the tool's
	// client the probes run to see what it makes of bn's files; empty
	// when no client runs here, and then what bn writes for the tool is
	// "not verified by a client" (Verified).
	Client string
	// SubWithheld, when set, are the tools the client may offer an agent
	// it runs at top level and not the same agent started as a sub-agent
	// (the probes' goldens: offered, sub). Where it is set, verify
	// starts many agents at once, as sub-agents of one client run, and
	// does not judge the kinds these tools serve there.
	SubWithheld []string
}

// Beside says whether the tool's files go beside its agents directory too
// (a Companion, or a Package): export --out then writes the tool's tree,
// its directory included, inside the directory it names, as it would into
// the repository, so that nothing lands outside it.
func (info *Info) Beside() bool { return info.Companion != nil || info.Package != nil }

// Companion is where a tool keeps the second file of each agent: in the
// directory Dir beside its agents directory, named by the agent's id and
// Ext; What says what it holds.
type Companion struct{ Dir, Ext, What string }

// CompanionDir is the directory of the companion files of agents written
// to agentsDir.
func (c *Companion) CompanionDir(agentsDir string) string {
	return filepath.Join(filepath.Dir(agentsDir), c.Dir)
}

// Path is the companion file of the agent file at agentFile, whose name
// ends in ext: named after it, in CompanionDir.
func (c *Companion) Path(agentFile, ext string) string {
	return filepath.Join(c.CompanionDir(filepath.Dir(agentFile)), strings.TrimSuffix(filepath.Base(agentFile), ext)+c.Ext)
}

// PromptTemplate is how a tool fills ${name} in an agent's prompt from
// values of its own, refusing to start an agent whose prompt names one it
// has no value for.
type PromptTemplate struct {
	Name   func() *regexp.Regexp // a placeholder; its first group the name (lazyRegexp)
	Values []string              // the names the tool fills, and what with
}

// checkTemplate says what the tool does to a prompt's placeholders: those
// it fills change the prompt (a loss); any other makes it refuse to start
// the agent (an error, so export skips it).
func (info *Info) checkTemplate(prompt string) ([]Loss, error) {
	t := info.Template
	if t == nil {
		return nil, nil
	}
	var filled, missing []string
	for _, m := range t.Name().FindAllStringSubmatch(prompt, -1) {
		list := &missing
		if slices.ContainsFunc(t.Values, func(v string) bool { n, _, _ := strings.Cut(v, " "); return n == m[1] }) {
			list = &filled
		}
		if !slices.Contains(*list, m[0]) {
			*list = append(*list, m[0])
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("the prompt holds %s: %s fills ${name} in a prompt with its own values (%s) and refuses to start an agent whose prompt names another; "+
			"write it another way in the prompt (for example $name), or give the agent a prompt of its own for %s", strings.Join(missing, ", "), info.Title, strings.Join(t.Values, ", "), info.Title)
	}
	if len(filled) > 0 {
		return []Loss{{Field: "prompt", Kind: Changed, Detail: fmt.Sprintf("%s in the prompt: %s fills it with a value of its own (%s)", strings.Join(filled, ", "), info.Title, strings.Join(t.Values, ", "))}}, nil
	}
	return nil, nil
}

// NotVerified is what bn says of a tool no client of which the probes
// run: its files are written from its documentation and sources alone.
const NotVerified = "not verified by a client"

// Verified says how what bn writes for the tool is checked: by the npm
// package of its client, or NotVerified.
func (info *Info) Verified() string {
	if info.Client == "" {
		return NotVerified
	}
	return "verified by its client, npm " + info.Client
}

// ClientPackage is the npm package name of the tool's client, without its
// version ("" when none).
func (info *Info) ClientPackage() string {
	if i := strings.LastIndexByte(info.Client, '@'); i > 0 {
		return info.Client[:i]
	}
	return info.Client
}

// Verifiable lists the tools whose clients the probes run, by name.
func (r Registry) Verifiable() []string {
	var out []string
	for _, d := range r {
		if d.Info().Client != "" {
			out = append(out, d.Info().Name)
		}
	}
	return out
}

// ModelTool is the tool whose spellings name models in this tool's files.
func (info *Info) ModelTool(e *agents.ModelEntry) string {
	if _, ok := e.Spelling(info.Name); !ok && info.ModelsAs != "" {
		return info.ModelsAs
	}
	return info.Name
}

// MCPKey is one setting of a per-agent MCP server: bn's name for it and
// the tool's.
type MCPKey struct{ BN, Native string }

// mcpNative is the tool's name for bn's MCP server setting bn.
func (info *Info) mcpNative(bn string) (string, bool) {
	for _, k := range info.MCPKeys {
		if k.BN == bn {
			return k.Native, true
		}
	}
	return "", false
}

// Written is an agent file an export wrote.
type Written struct {
	Path    string
	Content []byte
}

// FileEdit changes one file of the user's, keeping what else it holds;
// Edit gets the file's content (nil when it does not exist).
type FileEdit struct {
	Path string
	Edit func(old []byte) ([]byte, error)
}

// Collision is what a tool does when a project agent has the name of one
// of its built-in agents.
type Collision string

const (
	// Replaces: the project agent is used instead of the built-in.
	Replaces Collision = "replaces"
	// Merges: the project agent's fields are merged into the built-in.
	Merges Collision = "merges"
	// Ignored: the project agent is not loaded.
	Ignored Collision = "ignored"
	// Shadowed: the project agent is loaded but never invoked.
	Shadowed Collision = "shadowed"
)

// BuiltIn is one of a tool's own agents.
type BuiltIn struct {
	Name string
	On   Collision
}

// Word is one of a tool's tool names and the kinds it grants. Legacy
// names are read, never written. Write marks the names bn writes for the
// kinds; Group names are written together.
type Word struct {
	Name   string
	Kinds  []agents.Kind
	Write  bool
	Legacy bool
	Group  string
	// HiddenBy is a kind whose tool, granted too, makes the client offer
	// this one no more: written beside it, the name grants nothing.
	HiddenBy agents.Kind
}

// FieldSpec is a field only one tool has.
type FieldSpec struct {
	Key   string
	Doc   string
	Check func(v any) error // nil accepts any value
	// Hint marks keys bn models itself (tools, model, …), kept in the
	// section only to write back the tool's own spelling.
	Hint bool
	// Naming marks a key that names the agent for people (Copilot's
	// display name): equal to the agent's name, it says nothing more.
	Naming bool
	// AgentKey, for a list of mappings (Copilot's handoffs), is the key
	// of each entry that names another agent: renamed with it.
	AgentKey string
	// Runs marks a key that makes the tool run a command, load code or
	// start a server of the file's choosing (hooks, an executor, plugins,
	// MCP servers): verify, which may run an untrusted repository's
	// agents, leaves such keys out.
	Runs bool
	// Narrows, given the key's value, says how that value keeps the
	// agent from what its tools allow (Claude Code's plan mode), or "":
	// another tool's file, which cannot say it, widens the agent.
	Narrows func(v any) string
}

// planMode is what a permission mode of plan keeps from the agent, as
// Grok Build's documentation says (no client of it runs here).
func planMode(v any) string {
	return ifPlan(v, "plan mode keeps the agent from editing files and from running commands that change anything")
}

// claudePlanMode is what Claude Code's plan mode was seen to keep
// (testdata/probes/planmode-claude.json): a sub-agent's Write, in a
// session that checks permissions; nothing of the session's own agent
// (--agent) nor of any agent with permissions bypassed; a command a
// permission rule allows ran in every way.
func claudePlanMode(v any) string {
	return ifPlan(v, "plan mode keeps the agent from editing files only when it runs as a sub-agent in a session that checks permissions "+
		"(not as the session's agent, nor with permissions bypassed), and never from running a command the session's rules allow")
}

// ifPlan is keeps when the mode v is plan, else "" (another mode keeps
// nothing from the agent).
func ifPlan(v any, keeps string) string {
	if v == "plan" {
		return keeps
	}
	return ""
}

// preToolHooks is what hooks holding PreToolUse entries keep from the
// agent: Claude Code and Qwen Code run each before the calls it matches,
// and its exit status 2 refuses the call (the probes saw bn's own hook
// refuse, docs/verify.md). Other events refuse nothing.
func preToolHooks(v any) string {
	m, _ := v.(*agents.Map)
	if m == nil {
		return ""
	}
	if pre, _ := m.Get("PreToolUse"); pre != nil {
		return "its PreToolUse hooks may refuse a tool call before it runs"
	}
	return ""
}

// Runs says whether a key of the tool's section makes the tool run
// something of the file's choosing (FieldSpec.Runs).
func (i *Info) Runs(key string) bool {
	for _, f := range i.Fields {
		if f.Key == key {
			return f.Runs
		}
	}
	return false
}

// Source is one agent file to read.
type Source struct {
	Path string // for messages
	Rel  string // the path under the agents directory it was found in
	Data []byte
	// Companion reads a file the agent file names in its tool's companion
	// directory (Info.Companion), by its file name; nil reads it from disk
	// beside Path, the agent file's.
	Companion func(name string) ([]byte, error)
}

// companion reads a companion file of the agent file.
func (src Source) companion(c *Companion, name string) ([]byte, error) {
	if src.Companion != nil {
		return src.Companion(name)
	}
	return files.ReadInto(filepath.Join(c.CompanionDir(filepath.Dir(src.Path)), name), nil, files.MaxAgentFile)
}

// Imported is one agent read from a tool's file.
type Imported struct {
	Def    agents.Definition // Prompt filled; the tool's section holds its own fields
	Format string            // the dialect it was read as
	File   string
	// Name is the agent's name as its tool reads it, before bn made it
	// a name it can hold (Def.Name): two files are one agent only when
	// their tools name them alike, not when two names flatten to one.
	Name string
	// Notes say what was read leniently, renamed, mapped or not carried.
	Notes []string
	// Dropped lists fields the file had that bn does not keep.
	Dropped []string
	// Companion is the file of the tool's own the agent was read with
	// (Vibe's prompt, Info.Companion) and CompanionData its content; ""
	// when none, or when it came from elsewhere than the disk.
	Companion     string
	CompanionData []byte
	// Narrowed are kinds the tool itself grants the agent that bn reads
	// as denied, because the file asks for a limit the tool does not
	// apply (a Codex agent's sandbox_mode); Notes say so. bn never reads
	// a file as granting more than its tool does.
	Narrowed []agents.Kind
	// HookRules is the rules file export wrote beside the file for the
	// PreToolUse hook bn wrote into it (taken out of its hooks): the
	// limits the hook enforced, which the file alone grants whole; ""
	// when the file holds no such hook. It is the file the hook names
	// (--rules), read from the agent file's directory; HookRulesWrong
	// says why it is not read when it names no file there.
	HookRules, HookRulesWrong string
}

func (im *Imported) note(format string, args ...any) {
	im.Notes = append(im.Notes, fmt.Sprintf(format, args...))
}

func (im *Imported) drop(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	im.Notes = append(im.Notes, msg)
	im.Dropped = append(im.Dropped, msg)
}

// Rendered is one agent written for a tool.
type Rendered struct {
	Content []byte
	// Companion is the agent's second file (Info.Companion), without a
	// marker: the tool reads it whole. Content, bn's marked file, records
	// its digest (emit.WithCompanion), which makes it bn's. Nil when the
	// tool has none.
	Companion []byte
	Losses    []Loss
}

// Source is the rendered file as a reader takes it, at path (rel under
// the agents directory), its companion file read from memory.
func (r Rendered) Source(path, rel string) Source {
	return Source{Path: path, Rel: rel, Data: r.Content, Companion: func(string) ([]byte, error) { return r.Companion, nil }}
}

// Loss kinds.
const (
	Dropped  = "dropped"  // left out: the tool cannot hold it
	Widened  = "widened"  // the tool's file grants more than the definition
	Enforced = "enforced" // the file grants more, and a hook bn writes with it refuses the rest
	// Advisory: a limit written (as the tool's own rule, or decided by
	// bn's hook) that does not hold against everything the agent may do:
	// what else it is allowed walks around it, or no probe has shown the
	// tool applying it.
	Advisory = "advisory"
	Changed  = "changed"  // written differently, same meaning or nearest
	Override = "override" // the file replaces or merges into a built-in agent
	Renamed  = "renamed"  // the agent has another name in that tool
	// SelfEdit: a rule lets the agent edit what defines or enforces it
	// (its layers, its tool's files, its compiled rules), so it can widen
	// itself.
	SelfEdit = "self-edit"
)

// Loss is one way a written file differs from the definition.
type Loss struct {
	Field  string `json:"field"`
	Kind   string `json:"kind"`
	Detail string `json:"detail"`
	// Grants is what the difference lets the file grant beyond the
	// definition, as tool patterns, or EveryTool or EveryMCPTool: a
	// tools difference that widens (or that a hook enforces) says it, so
	// that a policy's deny is checked against what is granted, never
	// against how Detail words it.
	Grants []string `json:"grants,omitempty"`
	// Drops is what a tools difference that leaves out (Dropped) takes
	// from the definition, as tool patterns (a kind, a kind limited to an
	// argument, an MCP tool, another tool's own tool), or EveryMCPTool or
	// UnnamedTools: what it concerns is read from these, never from how
	// Detail words it.
	Drops []string `json:"drops,omitempty"`
}

// What a Loss grants or drops when no pattern says it.
const (
	EveryTool    = "every tool"
	EveryMCPTool = "every MCP tool"
	// UnnamedTools are the tool's own tools bn has no name for: a file
	// that lists the tools bn knows leaves them out.
	UnnamedTools = "every tool bn has no name for"
)

// dropping is l, saying it drops d.
func (l Loss) dropping(d ...string) Loss {
	l.Drops = d
	return l
}

// Kinds are the kinds a tools difference concerns: those it lets the
// file grant (Grants, EveryTool being every kind) and those it leaves
// out (Drops). An MCP tool, another tool's own tool and UnnamedTools are
// no kind.
func (l Loss) Kinds() []agents.Kind {
	var out []agents.Kind
	for _, ki := range agents.Kinds {
		p := agents.ToolPattern{Kind: string(ki.Kind)}
		if l.GrantsAny(p) || slices.ContainsFunc(l.Drops, func(d string) bool {
			q, err := agents.ParseToolPattern(d)
			return err == nil && slices.Contains(q.Kinds(), ki.Kind)
		}) {
			out = append(out, ki.Kind)
		}
	}
	return out
}

// granting is l, saying it grants g.
func (l Loss) granting(g ...string) Loss {
	l.Grants = g
	return l
}

// GrantsAny says whether the difference lets the file grant any part of
// what deny covers.
func (l Loss) GrantsAny(deny agents.ToolPattern) bool {
	return slices.ContainsFunc(l.Grants, func(g string) bool {
		switch g {
		case EveryTool:
			return true
		case EveryMCPTool:
			return deny.MCP
		}
		p, err := agents.ParseToolPattern(g)
		return err != nil || deny.Overlaps(p) || p.Overlaps(deny)
	})
}

// BinnacleTool is the tool binnacle's own set-up writes agents for
// (session init, host-init, show --format agent-file).
const BinnacleTool = "copilot"

// Registry is every dialect, in report order.
type Registry []Dialect

// All returns the registry of every tool bn knows.
func All() Registry {
	return Registry{claude{claudeInfo}, copilot{}, opencode{opencodeInfo}, codex{}, gemini{}, omp{},
		cursor{}, kiro{}, qwen{}, droid{}, opencode{kiloInfo}, augment{}, antigravity{}, amazonq{}, cline{}, pi{}, kimi{}, goose{}, kiroCLI{}, junie{}, vibe{}, grok{}, claude{claudePluginInfo}}
}

// AgentHarness names the tool whose agent runs this process, by the
// variables the tool sets for its agents' commands (Info.AgentEnv), or
// says "" when none is set, or when this is a terminal a tool opened for
// its user (Info.TerminalEnv: Kilo's also carries OpenCode's variable).
func (r Registry) AgentHarness(getenv func(string) string) string {
	for _, d := range r {
		if v := d.Info().TerminalEnv; v != "" && getenv(v) != "" {
			return ""
		}
	}
	for _, d := range r {
		for _, v := range d.Info().AgentEnv {
			if getenv(v) != "" {
				return d.Info().Title
			}
		}
	}
	return ""
}

// Lookup finds a dialect by name.
func (r Registry) Lookup(name string) (Dialect, bool) {
	for _, d := range r {
		if d.Info().Name == name {
			return d, true
		}
	}
	return nil, false
}

// Names lists the tools.
func (r Registry) Names() []string {
	out := make([]string, len(r))
	for i, d := range r {
		out[i] = d.Info().Name
	}
	return out
}

// Exporters lists the tools bn writes.
func (r Registry) Exporters() Registry {
	var out Registry
	for _, d := range r {
		if d.Info().Exports {
			out = append(out, d)
		}
	}
	return out
}

// Tools implements config.Sections.
func (r Registry) Tools() []string { return r.Names() }

// CheckDifferenceField implements config.Sections: the field an accept's
// fingerprint names must be one a difference of target's files can name:
// the agent's own (a plain field, tools, prompt, name, mcp-servers), a key
// target's files have (Kiro's permissions), or a tool's section key as
// TOOL.KEY. A mistyped one would accept nothing, ever.
func (r Registry) CheckDifferenceField(target, field string) error {
	d, ok := r.Lookup(target)
	if !ok {
		return fmt.Errorf("unknown tool %q", target)
	}
	fields := []string{agents.NodeTools, agents.NodePrompt, "name", "mcp-servers"}
	for _, f := range agents.Fields {
		fields = append(fields, f.Name)
	}
	fields = append(fields, d.Info().fieldKeys()...)
	if slices.Contains(fields, field) {
		return nil
	}
	if tool, key, ok := strings.Cut(field, "."); ok {
		if other, ok := r.Lookup(tool); ok {
			info := other.Info()
			if key == agents.UnreadKey || slices.Contains(info.fieldKeys(), key) || slices.Contains(info.OtherKeys, key) {
				return nil
			}
			return fmt.Errorf("names the field %q, which no difference names: a %s section has no key %q", field, info.Title, key)
		}
	}
	msg := fmt.Sprintf("names the field %q, which no difference of a %s file names", field, d.Info().Title)
	if hint := agents.DidYouMean(field, fields); hint != "" {
		msg += " (" + hint + ")"
	}
	return fmt.Errorf("%s", msg)
}

// CheckField implements config.Sections: a field in a tool's section must
// be one the tool has.
func (r Registry) CheckField(tool, key string, v any) error {
	d, ok := r.Lookup(tool)
	if !ok {
		return fmt.Errorf("unknown tool %q", tool)
	}
	info := d.Info()
	for _, f := range info.Fields {
		if f.Key == key {
			if f.Check != nil {
				return f.Check(v)
			}
			return nil
		}
	}
	if slices.Contains(info.OtherKeys, key) {
		return nil
	}
	keys := info.fieldKeys()
	msg := fmt.Sprintf("%s has no field %q", info.Title, key)
	if hint := agents.DidYouMean(key, keys); hint != "" {
		msg += "; " + hint
	} else {
		msg += "; its fields are " + strings.Join(keys, ", ")
	}
	return fmt.Errorf("%s", msg)
}

// Detect tells which tool an agent file belongs to: from where it lives
// and how it is named (each tool's Marks), else from the frontmatter keys
// only one tool uses (its Signature; a file without a name is
// OpenCode's), else it is read as Claude Code's format.
func (r Registry) Detect(path string, data []byte) Dialect {
	p := filepath.ToSlash(path)
	var marked Registry
	for _, d := range r {
		for _, m := range d.Info().Marks {
			dir := strings.HasSuffix(m, "/")
			if dir && strings.Contains(p, m) || !dir && strings.HasSuffix(p, m) {
				marked = append(marked, d)
				break
			}
		}
	}
	if len(marked) > 1 {
		// Of the tools that read the directory, those that read the file.
		var reads Registry
		for _, d := range marked {
			if slices.ContainsFunc(d.Info().ReadExts, func(ext string) bool { return strings.HasSuffix(p, ext) }) {
				reads = append(reads, d)
			}
		}
		if len(reads) > 0 {
			marked = reads
		}
		// On a tie of keys, the tool that writes such files owns them: a
		// .json file in .kiro/agents is the Kiro CLI's, unless its keys
		// are Kiro's markdown profiles'.
		slices.SortStableFunc(marked, func(a, b Dialect) int {
			aw, bw := strings.HasSuffix(p, a.Info().Ext), strings.HasSuffix(p, b.Info().Ext)
			switch {
			case aw == bw:
				return 0
			case aw:
				return -1
			}
			return 1
		})
	}
	switch {
	case len(marked) == 1:
		return marked[0]
	case len(marked) > 1:
		// A directory several tools read (.agents/agents): the file's
		// keys tell whose it is, else the first of them.
		return marked.bySignature(topKeys(data))
	}
	return r.bySignature(topKeys(data))
}

// bySignature picks the tool whose own keys the file uses most (a file
// without a name is a tool's that names agents by file); ties go to the
// fallback, else the first.
func (r Registry) bySignature(keys []string) Dialect {
	var best Dialect
	score := -1
	for _, d := range r {
		info := d.Info()
		n := 0
		for _, k := range info.Signature {
			if slices.Contains(keys, k) {
				n++
			}
		}
		if info.NamedByFile && len(keys) > 0 && !slices.Contains(keys, "name") {
			n++ // a file without a name is one that names agents by file
		}
		if n > score || n == score && info.Fallback {
			best, score = d, n
		}
	}
	return best
}

// topKeys lists the top-level keys of a file's frontmatter, read line by
// line: enough to tell tools apart, never an error.
func topKeys(data []byte) []string {
	if trimmed := bytes.TrimSpace(data); bytes.HasPrefix(trimmed, []byte("{")) {
		var obj map[string]json.RawMessage
		if json.Unmarshal(trimmed, &obj) != nil {
			return nil
		}
		return slices.Sorted(maps.Keys(obj))
	}
	md, err := frontmatter.Split(data)
	if err != nil {
		// A TOML agent file (Codex's, Vibe's): its top-level keys.
		var doc map[string]any
		if toml.Unmarshal(data, &doc) != nil {
			return nil
		}
		return slices.Sorted(maps.Keys(doc))
	}
	var keys []string
	for _, line := range strings.Split(string(md.YAML), "\n") {
		if k, _, ok := strings.Cut(line, ":"); ok && k != "" && !strings.ContainsAny(k[:1], " \t#-") {
			keys = append(keys, strings.TrimSpace(strings.Trim(k, `"'`)))
		}
	}
	return keys
}

// BuiltIn returns the built-in agent an id collides with.
func (info *Info) BuiltIn(id string) (BuiltIn, bool) {
	i := slices.IndexFunc(info.BuiltIns, func(b BuiltIn) bool { return strings.EqualFold(b.Name, id) })
	if i < 0 {
		return BuiltIn{}, false
	}
	return info.BuiltIns[i], true
}

// fieldKeys lists a tool's section keys.
func (info *Info) fieldKeys() []string {
	out := make([]string, len(info.Fields))
	for i, f := range info.Fields {
		out[i] = f.Key
	}
	return out
}

// IsHint says whether key is one of the tool's spellings of something bn
// models itself (kept only to write it back), not a field of its own.
func (info *Info) IsHint(key string) bool {
	f, ok := info.field(key)
	return ok && f.Hint
}

func (info *Info) field(key string) (FieldSpec, bool) {
	i := slices.IndexFunc(info.Fields, func(f FieldSpec) bool { return f.Key == key })
	if i < 0 {
		return FieldSpec{}, false
	}
	return info.Fields[i], true
}

// Env is where discovery starts from.
type Env struct {
	Cwd, RepoRoot string
	Home          string
	XDGConfigHome string // empty: ~/.config
	CopilotHome   string // empty: ~/.copilot
	// ProjectOnly reads only the directories in the repository.
	ProjectOnly bool
}

// Location says whether an agent directory belongs to the project or the user.
type Location string

const (
	ProjectLocation Location = "project"
	UserLocation    Location = "user"
)

// SourceDir is one directory a tool reads agents from, and the format of
// the files there.
type SourceDir struct {
	Path     string   `json:"path"`
	Location Location `json:"location"`
	Format   string   `json:"format"`
	Exists   bool     `json:"exists"`
	// Unreadable is why Path, a file that lists directories (Claude
	// Code's installed_plugins.json), could not be read: no directory to
	// search, an invalid file to report.
	Unreadable string `json:"-"`
}

// upwards lists dir and its ancestors up to root, nearest first. Outside
// the repository only dir itself is searched.
func upwards(dir, root string) []string {
	var out []string
	for d := dir; ; d = filepath.Dir(d) {
		out = append(out, d)
		if d == root || filepath.Dir(d) == d || !strings.HasPrefix(dir, root) {
			return out
		}
	}
}

// nearestDirs lists rel in every directory from the working directory up
// to the repository root, nearest first.
func nearestDirs(env Env, rel, format string) []SourceDir {
	var out []SourceDir
	for _, d := range upwards(env.Cwd, env.RepoRoot) {
		out = append(out, SourceDir{Path: filepath.Join(d, filepath.FromSlash(rel)), Location: ProjectLocation, Format: format})
	}
	return out
}

func userDir(path, format string) SourceDir {
	return SourceDir{Path: path, Location: UserLocation, Format: format}
}

// RenameRefs rewrites what a definition says of other agents (the
// sub-agents its tools let it start, its own fields that name agents)
// to the ids those agents have in the tool, for the file written there:
// ids maps bn names to tool ids, holding only the names that change.
func RenameRefs(def *agents.Definition, info *Info, ids map[string]string) {
	if len(ids) == 0 {
		return
	}
	rename := func(list []string) []string {
		out := slices.Clone(list)
		for i, s := range out {
			p, err := agents.ParseToolPattern(s)
			if err != nil || !p.HasArg || !slices.Equal(agents.KindsOf(p.Kind), []agents.Kind{agents.KindAgent}) {
				continue
			}
			if id, ok := ids[p.Arg]; ok {
				out[i] = p.Kind + "(" + id + ")"
			}
		}
		return out
	}
	def.Tools.Allow, def.Tools.Deny = rename(def.Tools.Allow), rename(def.Tools.Deny)
	t := def.Targets[info.Name]
	if t == nil {
		return
	}
	for _, f := range info.Fields {
		v, ok := t.Fields.Get(f.Key)
		list, isList := v.([]any)
		if f.AgentKey == "" || !ok || !isList {
			continue
		}
		out := make([]any, len(list))
		for i, e := range list {
			out[i] = e
			m, ok := e.(*agents.Map)
			if !ok {
				continue
			}
			name, _ := m.Get(f.AgentKey)
			if id, ok := ids[fmt.Sprint(name)]; ok {
				c := &agents.Map{}
				for _, k := range m.Keys {
					c.Set(k, m.Values[k])
				}
				c.Set(f.AgentKey, id)
				out[i] = c
			}
		}
		t.Fields.Set(f.Key, out)
	}
}
