package agents

import (
	"fmt"
	"reflect"
)

// Opt is a value a layer may or may not set, with where it was set.
type Opt[T any] struct {
	Pos Pos
	// Set before Value packs an Opt[bool] into a word less.
	Set   bool
	Value T
}

// Put sets the value and remembers where it came from.
func (o *Opt[T]) Put(v T, pos Pos) { *o = Opt[T]{Value: v, Pos: pos, Set: true} }

// Pattern is one tool pattern as written, with its place.
type Pattern struct {
	Text string
	Pos  Pos
}

// ToolOps is what one layer does to the inherited tools, applied in this
// order: Reset (empty lists, no tools), All (unrestricted, or a list
// again), Remove, then Allow, Ask and Deny appended.
type ToolOps struct {
	Reset  Opt[bool]
	All    Opt[bool]
	Remove []Pattern
	Allow  []Pattern
	Deny   []Pattern
	// Ask grants its patterns as Allow does, and the tool asks the user
	// before each use of them.
	Ask []Pattern
}

// Empty reports whether the layer leaves the tools alone.
func (t ToolOps) Empty() bool {
	return !t.Reset.Set && !t.All.Set && len(t.Remove) == 0 && len(t.Allow) == 0 && len(t.Deny) == 0 && len(t.Ask) == 0
}

// PromptRef is a prompt body: inline text, or a file relative to the layer
// directory that is read only when the prompt is needed.
type PromptRef struct {
	Text string
	File string // slash-separated, relative to the layer directory
	// FromBody says the prompt is the body of the markdown agent file File;
	// it is read again only when the prompt is needed.
	FromBody bool
}

// SetValue is one field a layer sets.
type SetValue struct {
	Field *Field
	Value any // string, bool, float64, int64 or []string, as Field.Type says
	Pos   Pos
}

// MCPOp is one mcp-server node: a server added, or one of the same name
// replaced.
type MCPOp struct {
	Server MCPServer
	Pos    Pos
}

// TargetOps is what one layer says in a tool's section.
type TargetOps struct {
	ID       Opt[string]
	Partial  Opt[string]
	Fields   []TargetField
	Removals []Pattern // keys removed, as written
	Pos      Pos
}

// UnreadKey is the block of a tool's section that holds keys a file had
// which the tool does not read (a typo, a collection's own `level: 3`):
// kept verbatim, written back to that tool only, so a round trip loses
// nothing.
const UnreadKey = "unread"

// TargetField is one tool-only field a layer sets.
type TargetField struct {
	Key   string
	Value any
	Pos   Pos
}

// Spec is what one layer file says about one agent. Unset fields inherit.
type Spec struct {
	Name string
	Pos  Pos // the agent node or the markdown file

	// Values are the plain fields the layer sets, in the order written.
	Values []SetValue

	Disable Opt[bool]
	Extends Opt[string]
	Replace Opt[bool]
	Tools   ToolOps
	Prompt  Opt[PromptRef]
	// More holds what few agents say, nil until one of its fields is set
	// (through Extra): a file may hold thousands of specs.
	More *SpecMore

	// Diags are semantic problems in this agent's node; an error here fails
	// this agent only.
	Diags Diagnostics
	// unlisted counts the problems past the most Diags lists.
	unlisted int

	// rest, when set, decodes the fields beyond Name, Pos and Diags, which
	// the file reader put off (see Defer).
	rest func(*Spec)
}

// Defer puts off decoding the rest of the spec until Complete: a command
// that resolves one agent need not decode every agent of a large file.
func (s *Spec) Defer(rest func(*Spec)) { s.rest = rest }

// Complete decodes what Defer put off, once, and returns s. Anything that
// reads a spec's fields beyond Name, Pos and Diags calls it first.
func (s *Spec) Complete() *Spec {
	if rest := s.rest; rest != nil {
		s.rest = nil
		rest(s)
	}
	return s
}

// SpecMore is what a spec rarely says.
type SpecMore struct {
	PromptPrepend Opt[string]
	PromptAppend  Opt[string]
	MCP           []MCPOp
	Placeholders  []TargetField // key, default text
	Accepts       []Pattern     // fingerprints of accepted differences
	Targets       map[string]*TargetOps
}

// AcceptsOnly says the spec only accepts differences of the agent's
// files: it records a review, and changes nothing the files say.
func (s *Spec) AcceptsOnly() bool {
	if s.More == nil || len(s.More.Accepts) == 0 {
		return false
	}
	more := *s.More
	more.Accepts = nil
	return len(s.Values) == 0 && !s.Disable.Set && !s.Extends.Set && !s.Replace.Set && s.Tools.Empty() && !s.Prompt.Set && reflect.ValueOf(more).IsZero()
}

// Extra returns s.More, creating it, for setting its fields.
func (s *Spec) Extra() *SpecMore {
	if s.More == nil {
		s.More = &SpecMore{}
	}
	return s.More
}

// AddMCP records an MCP server the spec adds or configures.
func (s *Spec) AddMCP(srv MCPServer, pos Pos) {
	m := s.Extra()
	m.MCP = append(m.MCP, MCPOp{Server: srv, Pos: pos})
}

// Get returns the value the spec sets for field, if any.
func (s *Spec) Get(f *Field) (SetValue, bool) {
	for _, v := range s.Values {
		if v.Field == f {
			return v, true
		}
	}
	return SetValue{}, false
}

// Set records a field's value, replacing an earlier one.
func (s *Spec) Set(f *Field, v any, pos Pos) {
	for i := range s.Values {
		if s.Values[i].Field == f {
			s.Values[i] = SetValue{f, v, pos}
			return
		}
	}
	s.Values = append(s.Values, SetValue{f, v, pos})
}

// Target returns the spec's section for tool, creating it.
func (s *Spec) Target(tool string, pos Pos) *TargetOps {
	m := s.Extra()
	if m.Targets == nil {
		m.Targets = map[string]*TargetOps{}
	}
	t := m.Targets[tool]
	if t == nil {
		t = &TargetOps{Pos: pos}
		m.Targets[tool] = t
	}
	return t
}

// AddDiag records a problem with this agent.
func (s *Spec) AddDiag(sev Severity, pos Pos, field, msg, hint string) {
	s.add(Diagnostic{Severity: sev, Pos: pos, Agent: s.Name, Field: field, Message: msg, Hint: hint})
}

// AddErr records an error about a field, kept as the diagnostic's Cause.
func (s *Spec) AddErr(pos Pos, field string, err error, hint string) {
	s.add(Diagnostic{Severity: Error, Pos: pos, Agent: s.Name, Field: field, Message: err.Error(), Hint: hint, Cause: err})
}

// add records a problem; past maxFileProblems, as a file does, it counts
// the rest in one last diagnostic, an error if any of them is.
func (s *Spec) add(d Diagnostic) {
	switch n := len(s.Diags); {
	case n < maxFileProblems:
		s.Diags = append(s.Diags, d)
		return
	case n == maxFileProblems:
		s.Diags = append(s.Diags, Diagnostic{Severity: Warning, Pos: s.Pos, Agent: s.Name, Hint: "fix those, then run `bn config agents validate` again"})
	}
	s.unlisted++
	last := &s.Diags[maxFileProblems]
	last.Severity = max(last.Severity, d.Severity)
	last.Message = fmt.Sprintf("%d more problems in this agent; bn lists the first %d", s.unlisted, maxFileProblems)
}

// File is what one layer file contributes: agent specs, model catalog
// entries, settings, and file-level diagnostics. An error among Diags (a
// syntax error, an unknown top-level node, an invalid agent name) means
// the file cannot be trusted, and the layer fails closed.
type File struct {
	Path  string
	Specs []*Spec
	// PromptFiles are the prompt files its agents name (a config.kdl's
	// prompt-file), known even when their specs are deferred.
	PromptFiles []string
	Models      []*ModelEntry
	Settings    Settings
	Sources     []SourceSpec
	Policy      *Policy
	Diags       Diagnostics
}

// maxFileProblems bounds the file-level problems a file records: a file of
// a million unknown nodes fails as surely with the first hundred listed,
// and listing every one took gigabytes.
const maxFileProblems = 100

// Fail records a file-level error; past maxFileProblems it records one
// that says the rest are not listed, then none.
func (f *File) Fail(pos Pos, field, msg, hint string) {
	switch n := len(f.Diags); {
	case n > maxFileProblems:
		return
	case n == maxFileProblems:
		field, msg = "", fmt.Sprintf("more than %d problems in this file; bn lists the first %d", maxFileProblems, maxFileProblems)
		hint = "fix those, then run `bn config agents validate` again"
	}
	f.Diags = append(f.Diags, Diagnostic{Severity: Error, Pos: pos, Field: field, Message: msg, Hint: hint})
}

// Settings are the top-level choices a config.kdl makes besides agents.
type Settings struct {
	// ExportBuiltIns says whether bn's built-in agents are exported; unset
	// means they are.
	ExportBuiltIns Opt[bool]
}
