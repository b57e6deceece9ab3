package agents

import (
	"fmt"
	"strings"
)

// Execution says where an agent runs.
type Execution string

const (
	Host      Execution = "host"
	Container Execution = "container"
)

// Lifecycle says whether an agent manages binnacle session state and ends
// with `bn goodbye` (stateful) or only produces answers (stateless).
type Lifecycle string

const (
	Stateful  Lifecycle = "stateful"
	Stateless Lifecycle = "stateless"
)

// ReasoningEfforts are the values Copilot accepts for reasoning effort.
var ReasoningEfforts = []string{"low", "medium", "high", "xhigh"}

// ParseEnum checks value against the allowed spellings (case-insensitive,
// as binnacle accepts) and returns the canonical lower-case form.
func ParseEnum(value string, allowed []string) (string, error) {
	lv := strings.ToLower(value)
	for _, a := range allowed {
		if lv == a {
			return a, nil
		}
	}
	msg := fmt.Sprintf("%q is not one of %s", value, strings.Join(quoteAll(allowed), ", "))
	if hint := DidYouMean(value, allowed); hint != "" {
		msg += "; " + hint
	}
	return "", fmt.Errorf("%s", msg)
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// Tools holds an agent's permission patterns, each list in first-seen order
// without duplicates. Deny wins over allow.
type Tools struct {
	Allow []string
	Deny  []string
}

// Definition is a fully resolved agent.
type Definition struct {
	Name            string
	Description     string
	Execution       Execution
	Lifecycle       Lifecycle
	Model           string
	ReasoningEffort string
	ShowReasoning   bool
	RenderMarkdown  bool
	Tags            []string
	Hidden          bool
	Tools           Tools
	Prompt          string
}

// Opt is a field a layer may or may not set, with where it was set.
type Opt[T any] struct {
	Value T
	Pos   Pos
	Set   bool
}

// Put sets the value and remembers where it came from.
func (o *Opt[T]) Put(v T, pos Pos) { *o = Opt[T]{Value: v, Pos: pos, Set: true} }

// Pattern is one tool pattern as written, with its place.
type Pattern struct {
	Text string
	Pos  Pos
}

// ToolOps is what one layer does to the inherited tool lists, applied in
// this order: Reset, Remove, then Allow and Deny appended.
type ToolOps struct {
	Reset  Opt[bool]
	Remove []Pattern
	Allow  []Pattern
	Deny   []Pattern
}

// Empty reports whether the layer leaves the tool lists alone.
func (t ToolOps) Empty() bool {
	return !t.Reset.Set && len(t.Remove) == 0 && len(t.Allow) == 0 && len(t.Deny) == 0
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

// Spec is what one layer file says about one agent. Unset fields inherit.
type Spec struct {
	Name string
	Pos  Pos // the agent node or the markdown file

	Description     Opt[string]
	Execution       Opt[Execution]
	Lifecycle       Opt[Lifecycle]
	Model           Opt[string]
	ReasoningEffort Opt[string]
	ShowReasoning   Opt[bool]
	RenderMarkdown  Opt[bool]
	Tags            Opt[[]string]
	Hidden          Opt[bool]
	Disable         Opt[bool]
	Extends         Opt[string]
	Tools           ToolOps
	Prompt          Opt[PromptRef]
	PromptPrepend   Opt[string]
	PromptAppend    Opt[string]

	// Diags are semantic problems in this agent's node; an error here fails
	// this agent only.
	Diags Diagnostics
}

func (s *Spec) addDiag(sev Severity, pos Pos, field, msg, hint string) {
	s.Diags = append(s.Diags, Diagnostic{Severity: sev, Pos: pos, Agent: s.Name, Field: field, Message: msg, Hint: hint})
}
