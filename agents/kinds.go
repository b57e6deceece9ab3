package agents

import (
	"slices"
	"strings"
)

// Kind is one capability an agent may be given: bn's canonical tool
// vocabulary. Every tool's own names map onto kinds (in the dialect
// package); a tool pattern's kind is a Kind, an alias naming several
// kinds, an MCP server, or a tool-native name.
type Kind string

// The kinds. Each is a capability at least two tools name.
const (
	KindRead       Kind = "read"       // read files
	KindList       Kind = "list"       // list directories
	KindGlob       Kind = "glob"       // find files by name
	KindGrep       Kind = "grep"       // search file contents
	KindCodeSearch Kind = "codesearch" // semantic code search
	KindLSP        Kind = "lsp"        // code intelligence: diagnostics, symbols, references
	KindEdit       Kind = "edit"       // change existing files
	KindCreate     Kind = "create"     // create or overwrite files
	KindNotebook   Kind = "notebook"   // edit notebooks
	KindShell      Kind = "shell"      // run shell commands
	KindWebFetch   Kind = "webfetch"   // fetch web pages
	KindWebSearch  Kind = "websearch"  // search the web
	KindAgent      Kind = "agent"      // start sub-agents
	KindTodo       Kind = "todo"       // keep a task list
	KindSkill      Kind = "skill"      // load skills
	KindAsk        Kind = "ask"        // ask the user a question
	KindMemory     Kind = "memory"     // keep memories across sessions
	KindPlan       Kind = "plan"       // enter and leave plan mode
)

// KindInfo describes a kind for documentation and reports.
type KindInfo struct {
	Kind     Kind
	Doc      string
	ReadOnly bool // grants no change to files or the system
}

// Kinds lists every kind in documentation order.
var Kinds = []KindInfo{
	{KindRead, "read files", true},
	{KindList, "list directories", true},
	{KindGlob, "find files by name", true},
	{KindGrep, "search file contents", true},
	{KindCodeSearch, "semantic code search", true},
	{KindLSP, "code intelligence: diagnostics, symbols, references", true},
	{KindEdit, "change existing files", false},
	{KindCreate, "create or overwrite files", false},
	{KindNotebook, "edit notebooks", false},
	{KindShell, "run shell commands", false},
	{KindWebFetch, "fetch web pages", true},
	{KindWebSearch, "search the web", true},
	{KindAgent, "start sub-agents", false},
	{KindTodo, "keep a task list", true},
	{KindSkill, "load skills", true},
	{KindAsk, "ask the user a question", true},
	{KindMemory, "keep memories across sessions", false},
	{KindPlan, "enter and leave plan mode", true},
}

// aliases are other names bn accepts in tool patterns, each standing for
// one or more kinds. They keep binnacle's vocabulary (Copilot CLI's tool
// and permission names: view, write, url, …) meaningful.
var aliases = map[string][]Kind{
	"view":        {KindRead, KindList},
	"write":       {KindEdit, KindCreate},
	"web":         {KindWebFetch, KindWebSearch},
	"web_fetch":   {KindWebFetch},
	"web_search":  {KindWebSearch},
	"url":         {KindWebFetch},
	"fetch":       {KindWebFetch},
	"execute":     {KindShell},
	"bash":        {KindShell},
	"powershell":  {KindShell},
	"task":        {KindAgent},
	"apply_patch": {KindEdit},
	"ls":          {KindList},
	"rg":          {KindGrep},
}

// AliasNames lists the aliases, sorted, for documentation.
func AliasNames() []string {
	out := make([]string, 0, len(aliases))
	for a := range aliases {
		out = append(out, a)
	}
	slices.Sort(out)
	return out
}

// KindsOf returns the kinds a pattern kind names: itself when it is a
// kind, the kinds of an alias, or nil for anything else (an MCP server or
// a tool-native name). Names compare case-insensitively.
func KindsOf(name string) []Kind {
	l := strings.ToLower(name)
	for i, k := range kindList {
		if string(k) == l {
			// Shared, as an alias's kinds are: callers only read them.
			return kindList[i : i+1 : i+1]
		}
	}
	return aliases[l]
}

// kindList is every kind, in the order of Kinds.
var kindList = func() []Kind {
	out := make([]Kind, len(Kinds))
	for i, k := range Kinds {
		out[i] = k.Kind
	}
	return out
}()

// IsKnownKind reports whether name is a kind or an alias.
func IsKnownKind(name string) bool { return KindsOf(name) != nil }

// ReadOnlyKind reports whether a kind changes nothing.
func ReadOnlyKind(k Kind) bool {
	for _, ki := range Kinds {
		if ki.Kind == k {
			return ki.ReadOnly
		}
	}
	return false
}

// NativePrefix starts the kind of a tool pattern naming a tool bn has no
// kind for, as that tool spells it: "@copilot(vscode/askQuestions)". Such
// a pattern is written back to its tool unchanged and left out, with a
// loss, for every other tool.
const NativePrefix = "@"

// NativeTool splits a native pattern into its tool and name.
func NativeTool(p ToolPattern) (tool, name string, ok bool) {
	if !strings.HasPrefix(p.Kind, NativePrefix) || !p.HasArg {
		return "", "", false
	}
	return strings.TrimPrefix(p.Kind, NativePrefix), p.Arg, true
}

// NativePattern builds the pattern for a tool-native name.
func NativePattern(tool, name string) string { return NativePrefix + tool + "(" + name + ")" }
