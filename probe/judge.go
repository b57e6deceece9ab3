package probe

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/enforce"
)

// Difference is one way what a tool grants an agent differs from its
// definition.
type Difference struct {
	Kind   agents.Kind `json:"kind"`
	Tool   bool        `json:"tool_grants"`       // the running tool lets the agent use it
	Def    bool        `json:"definition_grants"` // the definition does
	Detail string      `json:"detail"`
	// Reported: the export said so (a widened or dropped entry); an
	// unreported difference is a bn bug or a tool that changed.
	Reported bool `json:"reported"`
}

// Offer is what a client offered an agent, in bn's kinds: those a tool
// of their own serves, and those served only through the shell (Claude
// Code 2.1's Bash searches with its embedded grep and find), which are
// the shell's to grant or refuse.
type Offer struct {
	Kinds    []agents.Kind
	ViaShell []agents.Kind
}

// Has says whether the client offered a kind at all.
func (o Offer) Has(k agents.Kind) bool {
	return slices.Contains(o.Kinds, k) || slices.Contains(o.ViaShell, k)
}

// Offered reads a client's offered tools through the tool's runtime
// names.
func Offered(info *dialect.Info, offered []string) Offer {
	words := info.Runtime
	if words == nil {
		words = info.Vocabulary
	}
	var o Offer
	for _, name := range offered {
		for _, w := range words {
			if w.Name != name {
				continue
			}
			shell := len(w.Kinds) > 1 && slices.Contains(w.Kinds, agents.KindShell)
			for _, k := range w.Kinds {
				switch {
				case shell && k != agents.KindShell:
					if !slices.Contains(o.ViaShell, k) {
						o.ViaShell = append(o.ViaShell, k)
					}
				case !slices.Contains(o.Kinds, k):
					o.Kinds = append(o.Kinds, k)
				}
			}
		}
	}
	o.ViaShell = slices.DeleteFunc(o.ViaShell, func(k agents.Kind) bool { return slices.Contains(o.Kinds, k) })
	return o
}

// Kinds are the kinds a client's offered tools cover, through a tool of
// their own or the shell.
func Kinds(info *dialect.Info, offered []string) []agents.Kind {
	o := Offered(info, offered)
	return append(slices.Clone(o.Kinds), o.ViaShell...)
}

// Observable are the kinds a client can be seen to grant or withhold:
// those some case of its golden file shows it offering.
func Observable(info *dialect.Info, g Golden) []agents.Kind {
	var out []agents.Kind
	for _, c := range g.Cases {
		for _, k := range Kinds(info, c.Offered) {
			if !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	return out
}

// ShellWhole says whether a definition lets its agent run every command.
func ShellWhole(def agents.Definition) bool {
	return agents.Decide(def.Tools, agents.ToolPattern{Kind: string(agents.KindShell)}).Allowed
}

// Judge compares what a client granted (obs) with the definition, on the
// kinds the client can be seen to grant (Observable), and with the shell
// probe when it was asked.
// losses are what the export reported for the file.
func Judge(def agents.Definition, losses []dialect.Loss, info *dialect.Info, obs Observation, observable []agents.Kind) []Difference {
	if obs.Rejected != "" {
		return []Difference{{Detail: fmt.Sprintf("%s refuses to load the file: %s", info.Title, obs.Rejected)}}
	}
	offer := Offered(info, obs.Offered)
	var out []Difference
	reported := func(kind string, k agents.Kind) bool {
		return slices.ContainsFunc(losses, func(l dialect.Loss) bool {
			return l.Field == "tools" && l.Kind == kind && slices.Contains(l.Kinds(), k)
		})
	}
	for _, k := range observable {
		tool, want := slices.Contains(offer.Kinds, k), def.Tools.Uses(k)
		if slices.Contains(offer.ViaShell, k) {
			// Served by the shell: the agent has it as far as it may run
			// every command (a hook refuses the commands a limited shell
			// does not allow; where the tool runs no hook, its shell runs
			// every command), and never more than its shell.
			if tool = info.Hook == nil || ShellWhole(def); tool && !want {
				continue
			}
		}
		switch {
		case tool && !want:
			out = append(out, Difference{Kind: k, Tool: true, Detail: fmt.Sprintf("%s offers %s, which the definition does not grant", info.Title, k),
				Reported: reported(dialect.Widened, k)})
		case !tool && want:
			out = append(out, Difference{Kind: k, Def: true, Detail: fmt.Sprintf("%s withholds %s, which the definition grants", info.Title, k),
				Reported: reported(dialect.Dropped, k)})
		}
	}
	for _, a := range judgedUses(obs) {
		decision := enforce.Decide(def.Tools, a.use, enforce.Context{Root: judgeRoot})
		want := decision.Allowed
		if decision.Ask && info.Hook != nil {
			// bn's hook asks, and the probes run unattended: what comes
			// of it there is what the enforcement probes saw, at top
			// level or as a sub-agent; unknown, nothing to judge.
			seen := info.Hook.AskUnattended
			if obs.SubAgent {
				seen = info.Hook.AskUnattendedSubAgent
			}
			if seen == "" {
				continue
			}
			want = seen == "ran"
		}
		if a.res.Ran == want || !def.Tools.Uses(a.kind) {
			continue
		}
		d := Difference{Kind: a.kind, Tool: a.res.Ran, Def: want}
		if a.res.Ran {
			d.Detail = fmt.Sprintf("%s ran %q, which the definition does not allow", info.Title, a.what)
			d.Reported = reported(dialect.Widened, a.kind)
		} else {
			d.Detail = fmt.Sprintf("%s refused %q, which the definition allows", info.Title, a.what)
			d.Reported = reported(dialect.Dropped, a.kind)
		}
		out = append(out, d)
	}
	return out
}

// judgedUse is one use a client was asked to make (a command, a write), in
// bn's terms, and what came of it.
type judgedUse struct {
	use  agents.ToolPattern
	kind agents.Kind
	what string
	res  *Result
}

// judgedUses are the uses a run asked for whose tool was offered: those
// not offered are judged by the kinds offered.
func judgedUses(obs Observation) []judgedUse {
	calls := obs.More
	if obs.Call != nil {
		calls = append([]*Result{obs.Call}, calls...)
	}
	var out []judgedUse
	for _, c := range calls {
		if c.NotOffered {
			continue
		}
		a := judgedUse{agents.ToolPattern{Kind: string(agents.KindShell), Arg: c.Command, HasArg: true}, agents.KindShell, c.Command, c}
		if c.Path != "" {
			a.use, a.kind, a.what = agents.ToolPattern{Kind: string(agents.KindCreate), Arg: c.Path, HasArg: true}, agents.KindCreate, "writing "+c.Path
		} else if c.Command == "" {
			a.use.Arg, a.what = ShellProbe, ShellProbe
		}
		out = append(out, a)
	}
	return out
}

// FalseReports are the tools losses an export reported that the client
// contradicts: a loss whose kinds (what it grants or drops,
// dialect.Loss.Kinds) the run could show (observable, and, for a widening
// of a kind the definition limits, a use the definition refuses was
// asked), none of which differs the way the loss says (diffs, Judge's).
// A loss the run cannot show (a deny of a command the probe never asks,
// another tool's own tool or an MCP tool left out) is not judged.
func FalseReports(def agents.Definition, losses []dialect.Loss, obs Observation, observable []agents.Kind, diffs []Difference) []dialect.Loss {
	if obs.Rejected != "" {
		return nil
	}
	uses := judgedUses(obs)
	var out []dialect.Loss
	for _, l := range losses {
		if l.Field != "tools" || (l.Kind != dialect.Widened && l.Kind != dialect.Dropped) {
			continue
		}
		widened := l.Kind == dialect.Widened
		judged, shown := false, false
		for _, k := range l.Kinds() {
			var could bool
			switch {
			case !slices.Contains(observable, k):
			case !widened:
				// Left out: seen when the client withholds what the
				// definition grants.
				could = def.Tools.Uses(k)
			case !def.Tools.Uses(k):
				could = true // granted whole where the definition has none
			default:
				// Widened beyond a limit: seen only when a use the
				// limit refuses, and the loss says the file grants, was
				// asked.
				could = slices.ContainsFunc(uses, func(a judgedUse) bool {
					return a.kind == k && (len(l.Grants) == 0 || l.GrantsAny(a.use)) &&
						!enforce.Decide(def.Tools, a.use, enforce.Context{Root: judgeRoot}).Allowed
				})
			}
			if !could {
				continue
			}
			judged = true
			shown = shown || slices.ContainsFunc(diffs, func(d Difference) bool {
				return d.Kind == k && d.Tool == widened && d.Def != widened
			})
		}
		if judged && !shown {
			out = append(out, l)
		}
	}
	return out
}

// judgeRoot is the project a use's relative paths are judged in: the
// client ran it in a sandbox that is gone, and a new file's path is
// judged by its place in the project alone.
var judgeRoot = filepath.Join(string(filepath.Separator), "bn-verify", "project")

// Tally counts a target's crossed agents by what the client showed:
// exactly the definition, differing only as the export reported, differing
// unreported (a bug), and those with a reported loss the client does not
// show (FalselyReported, counted apart: such an agent is also one of the
// others).
type Tally struct {
	Crossed, Exact, Reported, Unreported, FalselyReported int
}

// Add counts one agent, from Judge's differences and FalseReports.
func (t *Tally) Add(diffs []Difference, falsely []dialect.Loss) {
	t.Crossed++
	switch {
	case len(diffs) == 0:
		t.Exact++
	case slices.ContainsFunc(diffs, func(d Difference) bool { return !d.Reported }):
		t.Unreported++
	default:
		t.Reported++
	}
	if len(falsely) > 0 {
		t.FalselyReported++
	}
}
