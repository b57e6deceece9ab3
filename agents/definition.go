package agents

import (
	"fmt"
	"maps"
	"slices"
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

// ReasoningEfforts are the reasoning-effort levels any tool names, least
// first; each tool accepts a subset.
var ReasoningEfforts = []string{"none", "minimal", "low", "medium", "high", "xhigh", "max"}

// Modes are the roles an agent can have: started by the user (primary),
// only by another agent (subagent), or both (all).
var Modes = []string{"primary", "subagent", "all"}

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

// Tools is what an agent may use. It is in one of three states:
// unrestricted (All: every tool the running tool offers, as Claude Code,
// Copilot and OpenCode read an agent file without a tools field), a list
// (the Allow patterns), or none (not All and no Allow patterns). Deny
// patterns apply in every state and win over allow. Lists keep first-seen
// order without duplicates.
//
// Ask patterns name uses the running tool asks the user about before
// each call (OpenCode's and Kilo's permission ask, Claude Code's hook
// answer ask). They qualify what All or Allow grants and grant nothing
// by themselves: a definition's `ask` puts its pattern in both lists.
// Deny wins over ask, and ask over allow.
type Tools struct {
	All   bool
	Allow []string
	Deny  []string
	Ask   []string
}

// Access names the state: "all" (unrestricted), "list" or "none", as a
// definition says it (tools { all }, allow …, reset).
func (t Tools) Access() string {
	switch {
	case t.All:
		return "all"
	case len(t.Allow) > 0:
		return "list"
	}
	return "none"
}

// Equal reports whether two tool sets give the same access: patterns
// compare by the kinds they name (view is read and list), shell(git push)
// and shell(git push:*) alike, and rules that change nothing (a deny of
// what a list never grants, an allow pattern of a kind allowed whole)
// do not count.
func (t Tools) Equal(o Tools) bool {
	a, b := t.Normalize(), o.Normalize()
	return a.All == b.All && slices.Equal(a.Allow, b.Allow) && slices.Equal(a.Deny, b.Deny) && slices.Equal(a.Ask, b.Ask)
}

// Normalize spells every rule with bn's kinds, drops rules that change
// nothing (an ask of a use denied whole or not granted), and sorts the
// lists.
func (t Tools) Normalize() Tools {
	out := Tools{All: t.All}
	spell := func(list []string) []string {
		var res []string
		for _, s := range list {
			p, err := ParseToolPattern(s)
			if err != nil {
				res = append(res, s)
				continue
			}
			kinds := p.Kinds()
			if kinds == nil {
				k := p.Kind
				if p.MCP {
					k = strings.ToLower(k)
				}
				res = append(res, ToolPattern{Kind: k, Arg: p.Arg, HasArg: p.HasArg && p.Arg != "*", MCP: p.MCP}.String())
				continue
			}
			for _, k := range kinds {
				arg, has := p.Arg, p.HasArg && p.Arg != "*"
				if has && k == KindShell {
					arg = strings.Join(strings.Fields(arg), " ")
					if !strings.Contains(arg, "*") {
						arg += ":*" // shell(git push) is git push and its arguments
					}
				}
				res = append(res, ToolPattern{Kind: string(k), Arg: arg, HasArg: has}.String())
			}
		}
		slices.Sort(res)
		return slices.Compact(res)
	}
	allow, deny := spell(t.Allow), spell(t.Deny)
	// An MCP server and a kind may share a name: the key tells them apart.
	kindOf := func(s string) string {
		p, _ := ParseToolPattern(s)
		if p.MCP {
			return "mcp " + p.Kind
		}
		return p.Kind
	}
	whole := map[string]bool{}
	for _, a := range allow {
		if p, _ := ParseToolPattern(a); !p.HasArg || p.MCP && p.Arg == "*" {
			whole[kindOf(a)] = true
		}
	}
	if !t.All {
		for _, a := range allow {
			if p, _ := ParseToolPattern(a); !p.HasArg || p.MCP && p.Arg == "*" || !whole[kindOf(a)] {
				out.Allow = append(out.Allow, a)
			}
		}
	}
	granted := map[string]bool{}
	for _, a := range out.Allow {
		granted[kindOf(a)] = true
	}
	for _, d := range deny {
		if t.All || granted[kindOf(d)] {
			out.Deny = append(out.Deny, d)
		}
	}
	for _, a := range spell(t.Ask) {
		p, err := ParseToolPattern(a)
		if err != nil || out.GrantsSome(p) {
			out.Ask = append(out.Ask, a)
		}
	}
	return out
}

// GrantsSome says whether t grants some use of p: no deny covers it
// whole, and t is unrestricted or an allow overlaps it.
func (t Tools) GrantsSome(p ToolPattern) bool {
	for _, d := range t.Deny {
		if dp, err := ParseToolPattern(d); err == nil && dp.Matches(p) {
			return false
		}
	}
	return t.All || slices.ContainsFunc(t.Allow, func(a string) bool {
		ap, err := ParseToolPattern(a)
		return err == nil && (ap.Overlaps(p) || p.Overlaps(ap))
	})
}

// Asks is the ask pattern that covers some use of req, "" when none
// does; it says nothing of whether req is granted (Decide does).
func (t Tools) Asks(req ToolPattern) string {
	for _, a := range t.Ask {
		if p, err := ParseToolPattern(a); err != nil || p.Overlaps(req) {
			return a
		}
	}
	return ""
}

// Clone copies the lists.
func (t Tools) Clone() Tools {
	return Tools{All: t.All, Allow: slices.Clone(t.Allow), Deny: slices.Clone(t.Deny), Ask: slices.Clone(t.Ask)}
}

// MCPServer is an MCP server an agent has for itself. Config is nil when
// the server is defined elsewhere and named only.
type MCPServer struct {
	Name   string
	Config *Map
}

// EachMCPServer walks an mcp-servers value as agent files write it: a
// mapping of server names to settings, or a list of names and one-key
// mappings (Claude Code). each gets every server, with nil settings when
// it is only named; any other shape is an error, and nothing is skipped.
func EachMCPServer(v any, each func(name string, settings any)) error {
	switch x := v.(type) {
	case *Map:
		for _, k := range x.Keys {
			each(k, x.Values[k])
		}
		return nil
	case []any:
		for _, e := range x {
			switch item := e.(type) {
			case string:
				each(item, nil)
			case *Map:
				for _, k := range item.Keys {
					each(k, item.Values[k])
				}
			default:
				return fmt.Errorf("%v is neither a server name nor a mapping of one to its settings", Plain(e))
			}
		}
		return nil
	}
	return fmt.Errorf("expects a mapping of server names to settings, or a list of names")
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

	// Concepts several tools share; zero values are unset.
	Mode           string
	ModelInvocable *bool
	Temperature    *float64
	TopP           *float64
	MaxTurns       *int64
	Color          string
	Skills         []string
	MCPServers     []MCPServer

	// Placeholders give the text a {key} in the prompt stands for where
	// bn cannot fill it at launch: in files written for other tools.
	Placeholders map[string]string

	// Accepts are the reviewed differences an export may make without
	// failing --strict, by the fingerprint its report prints.
	Accepts []Acceptance

	// Targets holds, per tool (a dialect name), the agent's name there,
	// how its tools and model were spelled, and the fields only that tool
	// has.
	Targets map[string]*Target
}

// Acceptance is an accept node: one reviewed difference of the agent's
// file for one tool (TARGET:FIELD:HASH, as an export's report prints it),
// and the layer and place that accept it.
type Acceptance struct {
	Fingerprint string
	Layer       string
	Pos         Pos
}

// Target is what a definition says for one tool only.
type Target struct {
	// ID is the agent's name in that tool, when it differs from Name.
	ID string
	// Partial says what to do with a capability the tool can grant only
	// wholesale when the definition grants or denies part of it: "widen"
	// (grant it, reported) or "narrow" (leave it out); "" is the tool's
	// default.
	Partial string
	// Fields are, under the tool's own names: the fields only that tool
	// has, and how it spelled what bn models too (its tools and model
	// keys). A writer uses such spellings while they still mean the
	// definition's tools and model, so a round trip keeps them; otherwise
	// it ignores them, with a note.
	Fields Map
}

// Target returns the section for tool, creating it.
func (d *Definition) Target(tool string) *Target {
	if d.Targets == nil {
		d.Targets = map[string]*Target{}
	}
	t := d.Targets[tool]
	if t == nil {
		t = &Target{}
		d.Targets[tool] = t
	}
	return t
}

// TargetOf returns the section for tool, or an empty one.
func (d *Definition) TargetOf(tool string) *Target {
	if t := d.Targets[tool]; t != nil {
		return t
	}
	return &Target{}
}

// Clone copies everything a merge may change.
func (d Definition) Clone() Definition {
	c := d
	c.Tags = slices.Clone(d.Tags)
	c.Tools = d.Tools.Clone()
	c.Skills = slices.Clone(d.Skills)
	c.MCPServers = slices.Clone(d.MCPServers)
	c.Placeholders = maps.Clone(d.Placeholders)
	c.Accepts = slices.Clone(d.Accepts)
	if d.Targets != nil {
		c.Targets = make(map[string]*Target, len(d.Targets))
		for k, t := range d.Targets {
			tc := *t
			tc.Fields = t.Fields.Clone()
			c.Targets[k] = &tc
		}
	}
	return c
}
