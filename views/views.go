package views

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/enforce"
	"github.com/binnacle-dev/bn/hookrules"
	"github.com/binnacle-dev/bn/resolver"
)

// ListEntry is one agent in list's output.
type ListEntry struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Execution   string   `json:"execution"`
	Lifecycle   string   `json:"lifecycle"`
	Source      string   `json:"source"`
	Layer       string   `json:"layer"`
	Tags        []string `json:"tags"`
	Hidden      bool     `json:"hidden,omitempty"`
	// ToolsMerged is for the human line only, as binnacle prints it.
	ToolsMerged bool `json:"-"`
}

// HumanSource is the Source line's value as binnacle prints it: the file,
// and " (tools merged)" when a layer above the one that introduced the
// agent changed its tools.
func HumanSource(source string, toolsMerged bool) string {
	if toolsMerged {
		return source + " (tools merged)"
	}
	return source
}

// ListError is an agent that failed to resolve.
type ListError struct {
	Agent string `json:"agent"`
	Error string `json:"error"`
	File  string `json:"file,omitempty"`
	Line  int32  `json:"line,omitempty"`
	Col   int32  `json:"column,omitempty"`
}

// List is list's output: agents in definition order, and every agent
// that failed, with its first error located.
type List struct {
	Agents []ListEntry `json:"agents"`
	Count  int         `json:"count"`
	Errors []ListError `json:"errors,omitempty"`
}

// WriteListJSON writes what ListData gives as indented JSON, the bytes
// json.MarshalIndent(v, "", "  ") gives with HTML escaping off and a
// newline, resolving the agents as it writes them: no entry is kept, and
// the entries, all of one shape, are written without reflection, a batch
// at a time. It returns the agents that failed, which the JSON lists too.
func WriteListJSON(w io.Writer, set *resolver.Set, tag string, all bool) ([]ListError, error) {
	const batch = 32 << 10
	b := make([]byte, 0, 2*batch)
	b = append(b, "{\n  \"agents\": ["...)
	var failed []ListError
	var werr error
	count := 0
	listEach(set, tag, all, func(e ListEntry) {
		if count > 0 {
			b = append(b, ',')
		}
		count++
		b = e.appendJSON(b)
		if len(b) >= batch && werr == nil {
			_, werr = w.Write(b)
			b = b[:0]
		}
	}, func(e ListError) { failed = append(failed, e) })
	if werr != nil {
		return failed, werr
	}
	if count > 0 {
		b = append(b, "\n  "...)
	}
	b = append(b, "],\n  \"count\": "...)
	b = strconv.AppendInt(b, int64(count), 10)
	if len(failed) > 0 {
		var errs bytes.Buffer
		enc := json.NewEncoder(&errs)
		enc.SetEscapeHTML(false)
		enc.SetIndent("  ", "  ")
		if err := enc.Encode(failed); err != nil {
			return failed, err
		}
		b = append(b, ",\n  \"errors\": "...)
		b = append(b, bytes.TrimSuffix(errs.Bytes(), []byte("\n"))...)
	}
	b = append(b, "\n}\n"...)
	_, err := w.Write(b)
	return failed, err
}

// appendJSON appends e as an element of the agents array WriteListJSON
// writes: after a newline, indented as the array's elements are.
func (e ListEntry) appendJSON(b []byte) []byte {
	field := func(name, value string) {
		b = append(b, ",\n      \""...)
		b = append(b, name...)
		b = append(b, "\": "...)
		b = appendJSONString(b, value)
	}
	b = append(b, "\n    {\n      \"name\": "...)
	b = appendJSONString(b, e.Name)
	field("description", e.Description)
	field("execution", e.Execution)
	field("lifecycle", e.Lifecycle)
	field("source", e.Source)
	field("layer", e.Layer)
	b = append(b, ",\n      \"tags\": "...)
	switch {
	case e.Tags == nil:
		b = append(b, "null"...)
	case len(e.Tags) == 0:
		b = append(b, "[]"...)
	default:
		for i, t := range e.Tags {
			if i == 0 {
				b = append(b, "[\n        "...)
			} else {
				b = append(b, ",\n        "...)
			}
			b = appendJSONString(b, t)
		}
		b = append(b, "\n      ]"...)
	}
	if e.Hidden {
		b = append(b, ",\n      \"hidden\": true"...)
	}
	return append(b, "\n    }"...)
}

// ListData is what list reports, filtered by tag and hidden.
func ListData(set *resolver.Set, tag string, all bool) List {
	// Sized once: the growth of a list of thousands would be garbage.
	out := List{Agents: make([]ListEntry, 0, set.Len())}
	listEach(set, tag, all, func(e ListEntry) { out.Agents = append(out.Agents, e) },
		func(e ListError) { out.Errors = append(out.Errors, e) })
	out.Count = len(out.Agents)
	return out
}

// listEach resolves the agents one at a time and hands each that list
// reports to entry, or to failed when it has errors. Hidden agents (unless
// all) and agents without tag (when given) are left out.
func listEach(set *resolver.Set, tag string, all bool, entry func(ListEntry), failed func(ListError)) {
	set.Each(func(a *resolver.Agent) {
		err := a.Err()
		if err == nil {
			err = a.PromptErr()
		}
		if err != nil {
			e := ListError{Agent: a.Name, Error: err.Error()}
			if errs := a.Diags.Errors(); len(errs) > 0 {
				e.File, e.Line, e.Col = errs[0].Pos.File, errs[0].Pos.Line, errs[0].Pos.Col
			}
			failed(e)
			return
		}
		if (a.Hidden && !all) || (tag != "" && !slices.Contains(a.Tags, tag)) {
			return
		}
		entry(ListEntry{
			Name: a.Name, Description: a.Description, Execution: string(a.Execution), Lifecycle: string(a.Lifecycle),
			Source: a.Source, Layer: string(a.Layer), Tags: NonNil(a.Tags), Hidden: a.Hidden, ToolsMerged: a.ToolsMerged,
		})
	})
}

// Copilot are the Copilot runtime settings binnacle reports.
type Copilot struct {
	Model           *string `json:"model"`
	ReasoningEffort *string `json:"reasoning_effort"`
	ShowReasoning   bool    `json:"show_reasoning"`
	RenderMarkdown  bool    `json:"render_markdown"`
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// Origin says where a value came from.
type Origin struct {
	Layer  string `json:"layer"`
	File   string `json:"file"`
	Line   int32  `json:"line,omitempty"`
	Column int32  `json:"column,omitempty"`
	Via    string `json:"inherited_from,omitempty"`
}

// OriginOf converts a resolver origin.
func OriginOf(o resolver.Origin) Origin {
	return Origin{Layer: string(o.Layer), File: o.Pos.File, Line: o.Pos.Line, Column: o.Pos.Col, Via: o.Via}
}

// Provenance is where every field and pattern came from.
type Provenance struct {
	Fields     map[string]Origin `json:"fields"`
	ToolsAllow map[string]Origin `json:"tools_allow"`
	ToolsDeny  map[string]Origin `json:"tools_deny"`
	ToolsAsk   map[string]Origin `json:"tools_ask"`
}

// SourceFile is one file that contributed to an agent.
type SourceFile struct {
	Layer string `json:"layer"`
	File  string `json:"file"`
}

// CopilotLaunch is how a launcher starts the Copilot CLI as the agent:
// the flags that hold it to the agent's tools (before --model, which is
// copilot.model), and notes on what they cannot say. bn config agents
// launch and the bn-agent script build the same command from it.
type CopilotLaunch struct {
	ToolFlags []string `json:"tool_flags"`
	Notes     []string `json:"notes"`
}

// Show keeps binnacle's keys and order first; the rest are bn's.
type Show struct {
	Name          string   `json:"name"`
	Description   string   `json:"description"`
	Execution     string   `json:"execution"`
	Lifecycle     string   `json:"lifecycle"`
	Source        string   `json:"source"`
	ToolsMerged   bool     `json:"tools_merged"`
	ToolsAllow    []string `json:"tools_allow"`
	ToolsDeny     []string `json:"tools_deny"`
	Copilot       Copilot  `json:"copilot"`
	PromptPreview string   `json:"prompt_preview"`
	PromptLength  int      `json:"prompt_length"`
	Layer         string   `json:"layer"`
	ToolsAccess   string   `json:"tools_access"`
	// ToolsAsk are the patterns the tool asks the user about before each
	// use (each granted by tools_allow or tools_access all).
	ToolsAsk      []string       `json:"tools_ask"`
	Model         string         `json:"model,omitempty"`
	CopilotLaunch CopilotLaunch  `json:"copilot_launch"`
	Tags          []string       `json:"tags"`
	Hidden        bool           `json:"hidden"`
	Extends       string         `json:"extends,omitempty"`
	PromptFile    string         `json:"prompt_file,omitempty"`
	Fields        map[string]any `json:"fields,omitempty"`
	Targets       map[string]any `json:"targets,omitempty"`
	MCPServers    []string       `json:"mcp_servers,omitempty"`
	Sources       []SourceFile   `json:"sources"`
	Provenance    *Provenance    `json:"provenance,omitempty"`
}

// PreviewChars is how much of the prompt show previews, as binnacle does.
const PreviewChars = 500

// ShowData is what show reports about agent a, whose prompt is given.
// copilot.model is the model as the Copilot CLI spells it (null when it
// cannot run it); model is the definition's own spelling.
func ShowData(a *resolver.Agent, prompt string, explain bool, cat *agents.Catalog) Show {
	model, modelNotes := dialect.CopilotModel(a.Definition, cat)
	flags, notes := dialect.CopilotToolFlags(a.Definition)
	out := Show{
		Name: a.Name, Description: a.Description, Execution: string(a.Execution), Lifecycle: string(a.Lifecycle),
		Source: a.Source, ToolsMerged: a.ToolsMerged, ToolsAllow: NonNil(a.Tools.Allow), ToolsDeny: NonNil(a.Tools.Deny),
		Copilot: Copilot{Model: optional(model), ReasoningEffort: optional(a.ReasoningEffort),
			ShowReasoning: a.ShowReasoning, RenderMarkdown: a.RenderMarkdown},
		PromptPreview: Preview(prompt), PromptLength: len(prompt),
		Layer: string(a.Layer), ToolsAccess: a.Tools.Access(), ToolsAsk: NonNil(a.Tools.Ask), Model: a.Model,
		CopilotLaunch: CopilotLaunch{ToolFlags: NonNil(flags), Notes: NonNil(append(notes, modelNotes...))},
		Tags:          NonNil(a.Tags), Hidden: a.Hidden, Extends: a.Extends,
		PromptFile: a.PromptFile(), Sources: []SourceFile{},
	}
	for _, f := range agents.Fields {
		switch f {
		case agents.FieldDescription, agents.FieldExecution, agents.FieldLifecycle, agents.FieldModel, agents.FieldReasoningEffort,
			agents.FieldShowReasoning, agents.FieldRenderMarkdown, agents.FieldTags, agents.FieldHidden:
			continue // binnacle's keys above
		}
		if v, set := f.Get(&a.Definition); set {
			if out.Fields == nil {
				out.Fields = map[string]any{}
			}
			out.Fields[f.Name] = v
		}
	}
	for _, tool := range slices.Sorted(maps.Keys(a.Targets)) {
		t := a.Targets[tool]
		section := map[string]any{}
		if t.ID != "" {
			section["id"] = t.ID
		}
		if t.Partial != "" {
			section["partial"] = t.Partial
		}
		for _, k := range t.Fields.Keys {
			section[k] = agents.Plain(t.Fields.Values[k])
		}
		if len(section) > 0 {
			if out.Targets == nil {
				out.Targets = map[string]any{}
			}
			out.Targets[tool] = section
		}
	}
	for _, s := range a.MCPServers {
		out.MCPServers = append(out.MCPServers, s.Name)
	}
	for _, s := range a.Sources {
		out.Sources = append(out.Sources, SourceFile{Layer: string(s.Layer), File: s.File})
	}
	if explain {
		out.Provenance = &Provenance{Fields: map[string]Origin{}, ToolsAllow: map[string]Origin{}, ToolsDeny: map[string]Origin{}, ToolsAsk: map[string]Origin{}}
		prov := a.Provenance()
		for k, o := range prov.Fields {
			out.Provenance.Fields[k] = OriginOf(o)
		}
		for k, o := range prov.Allow {
			out.Provenance.ToolsAllow[k] = OriginOf(o)
		}
		for k, o := range prov.Deny {
			out.Provenance.ToolsDeny[k] = OriginOf(o)
		}
		for k, o := range prov.Ask {
			out.Provenance.ToolsAsk[k] = OriginOf(o)
		}
	}
	return out
}

// Preview is the first PreviewChars characters of a prompt, found without
// converting the whole prompt to runes.
func Preview(s string) string {
	n := 0
	for i := range s {
		if n == PreviewChars {
			if utf8.ValidString(s[:i]) {
				return s[:i]
			}
			return string([]rune(s[:i])) // each invalid byte as U+FFFD
		}
		n++
	}
	return s
}

// NonNil returns an empty slice for nil, so JSON says [].
func NonNil(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}

// Emit is emit's output.
type Emit struct {
	Name   string   `json:"name"`
	Prompt string   `json:"prompt"`
	Unused []string `json:"unused,omitempty"`
}

// EmitData fills the prompt's placeholders and names the values no
// placeholder used.
func EmitData(name, prompt string, values map[string]string) (Emit, error) {
	filled, err := agents.FillPlaceholders(prompt, values)
	if err != nil {
		return Emit{}, fmt.Errorf("agent %q: %w", name, err)
	}
	out := Emit{Name: name, Prompt: filled}
	for _, k := range slices.Sorted(maps.Keys(values)) {
		if !strings.Contains(prompt, "{"+k+"}") {
			out.Unused = append(out.Unused, k)
		}
	}
	return out, nil
}

// Check is check's output.
type Check struct {
	Agent    string `json:"agent"`
	Tool     string `json:"tool"`
	Allowed  bool   `json:"allowed"`
	Decision string `json:"decision"`
	// AskRule is the ask rule that makes the tool ask the user first
	// (decision ask), empty when bn asks because it cannot tell.
	AskRule string  `json:"ask_rule,omitempty"`
	Rule    *string `json:"rule"`
	List    string  `json:"list,omitempty"`
	Origin  *Origin `json:"origin,omitempty"`
	// Command is the simple command that decided, when the tool was a
	// shell line of several.
	Command string `json:"command,omitempty"`
	Reason  string `json:"reason"`
	// Accesses are the files the use reads or writes that bn sees.
	Accesses []enforce.Access `json:"accesses,omitempty"`
	// Advisory are the risks of an allowed use bn knows and cannot decide.
	Advisory []string `json:"advisory,omitempty"`
	// RuleAdvisory says why the rule that decided does not hold against
	// what else the agent may do (enforce.Advisory): a deny or an ask a
	// shell allowed whole walks around (the ask's, where one asks).
	RuleAdvisory string `json:"rule_advisory,omitempty"`
}

// CheckData decides whether agent a may use the tool req (written as
// tool), where ctx says, and refuses a call that writes what guard holds
// (nil: nothing), as the hook does.
func CheckData(a *resolver.Agent, tool string, req agents.ToolPattern, ctx enforce.Context, guard *hookrules.Guard) Check {
	ctx.Origin = func(list, rule string) string {
		switch list {
		case "unrestricted":
			if o, ok := a.Provenance().Fields["tools.all"]; ok {
				return "tools all: " + DescribeOrigin(o)
			}
			return ""
		case "allow":
			return DescribeOrigin(a.Provenance().Allow[rule])
		}
		return DescribeOrigin(a.Provenance().Deny[rule])
	}
	d := enforce.Decide(a.Tools, req, ctx)
	if dir := ctx.Dir; d.Allowed && guard != nil {
		if dir == "" {
			dir = ctx.Root
		}
		if why := guard.Writes(d, dir, a.Tools); why != "" {
			// As the hook refuses it: the call would change what
			// defines or enforces the agent.
			d = enforce.Decision{Reason: why, Accesses: d.Accesses, Advisory: d.Advisory}
		}
	}
	out := Check{Agent: a.Name, Tool: tool, Allowed: d.Allowed, Decision: "deny", List: d.List, Command: d.Command,
		Reason: d.Reason, Accesses: d.Accesses, Advisory: d.Advisory}
	switch {
	case d.Ask:
		// Allowed once the user agrees: the rule that allows it stays in
		// rule, and the reason says which ask rule asks first.
		out.Decision = "ask"
		out.AskRule = d.AskRule
		out.Reason = d.AskReason + "; " + d.Reason
	case d.Allowed:
		out.Decision = "allow"
	}
	if d.AskRule != "" {
		// An ask is walked around as a deny is.
		if why := enforce.Advisory(a.Tools, d.AskRule, true); why != "" {
			out.RuleAdvisory = fmt.Sprintf("ask %q is advisory: %s", d.AskRule, why)
		}
	}
	if d.Rule != "" && (d.List == "allow" || d.List == "deny") {
		if why := enforce.Advisory(a.Tools, d.Rule, d.List == "deny"); why != "" && out.RuleAdvisory == "" {
			out.RuleAdvisory = fmt.Sprintf("%s %q is advisory: %s", d.List, d.Rule, why)
		}
		out.Rule = &d.Rule
		origins := a.Provenance().Deny
		if d.List == "allow" {
			origins = a.Provenance().Allow
		}
		o := OriginOf(origins[d.Rule])
		out.Origin = &o
	}
	return out
}

// DescribeOrigin says where a value came from, for people.
func DescribeOrigin(o resolver.Origin) string {
	s := o.Pos.String()
	if o.Layer != resolver.Embedded {
		s = fmt.Sprintf("%s layer, %s", o.Layer, s)
	}
	if o.Via != "" {
		s += ", inherited from " + o.Via
	}
	return s
}
