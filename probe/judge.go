package probe

import (
	"fmt"
	"slices"
	"strings"

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

// Kinds are the kinds a client's offered tools cover, read through the
// tool's runtime names.
func Kinds(info *dialect.Info, offered []string) []agents.Kind {
	words := info.Runtime
	if words == nil {
		words = info.Vocabulary
	}
	var out []agents.Kind
	for _, name := range offered {
		for _, w := range words {
			if w.Name == name {
				for _, k := range w.Kinds {
					if !slices.Contains(out, k) {
						out = append(out, k)
					}
				}
			}
		}
	}
	return out
}

// Judge compares what a client granted (obs) with the definition, on the
// kinds the client can be seen to grant (observable: those it offers an
// agent with no limits), and with the shell probe when it was asked.
// losses are what the export reported for the file.
func Judge(def agents.Definition, losses []dialect.Loss, info *dialect.Info, obs Observation, observable []agents.Kind) []Difference {
	if obs.Rejected != "" {
		return []Difference{{Detail: fmt.Sprintf("%s refuses to load the file: %s", info.Title, obs.Rejected)}}
	}
	granted := Kinds(info, obs.Offered)
	var out []Difference
	reported := func(kind string, k agents.Kind) bool {
		return slices.ContainsFunc(losses, func(l dialect.Loss) bool {
			return l.Field == "tools" && l.Kind == kind && strings.Contains(l.Detail, string(k))
		})
	}
	for _, k := range observable {
		tool, want := slices.Contains(granted, k), def.Tools.Uses(k)
		switch {
		case tool && !want:
			out = append(out, Difference{Kind: k, Tool: true, Detail: fmt.Sprintf("%s offers %s, which the definition does not grant", info.Title, k),
				Reported: reported(dialect.Widened, k)})
		case !tool && want:
			out = append(out, Difference{Kind: k, Def: true, Detail: fmt.Sprintf("%s withholds %s, which the definition grants", info.Title, k),
				Reported: reported(dialect.Dropped, k)})
		}
	}
	if obs.Call != nil {
		command := obs.Call.Command
		if command == "" {
			command = ShellProbe
		}
		want := enforce.Decide(def.Tools, agents.ToolPattern{Kind: string(agents.KindShell), Arg: command, HasArg: true}, enforce.Context{}).Allowed
		if obs.Call.Ran != want && def.Tools.Uses(agents.KindShell) {
			d := Difference{Kind: agents.KindShell, Tool: obs.Call.Ran, Def: want}
			if obs.Call.Ran {
				d.Detail = fmt.Sprintf("%s ran %q, which the definition does not allow", info.Title, command)
				d.Reported = reported(dialect.Widened, agents.KindShell)
			} else {
				d.Detail = fmt.Sprintf("%s refused %q, which the definition allows", info.Title, command)
				d.Reported = reported(dialect.Dropped, agents.KindShell)
			}
			out = append(out, d)
		}
	}
	return out
}
