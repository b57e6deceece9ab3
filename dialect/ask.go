package dialect

import (
	"fmt"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// askLosses reports, as one widening, the definition's asks that still
// cover a use it grants and that neither the tool's files nor its hook
// say: a file that writes the use as allowed runs it without asking the
// user. A tool whose hook answers ask (Hook.Ask) carries the asks of
// the kinds its hook sees.
func askLosses(info *Info, def *agents.Definition) []Loss {
	var hooked []agents.Kind
	if info.Hook != nil && info.Hook.Ask != nil {
		hooked = HookKinds(info, def)
	}
	var asked []string
	for _, a := range def.Tools.Ask {
		p, err := agents.ParseToolPattern(a)
		if err == nil && !def.Tools.GrantsSome(p) {
			continue // denied: there is nothing to ask
		}
		if kinds := p.Kinds(); err == nil && len(kinds) > 0 && !p.MCP && !slices.ContainsFunc(kinds, func(k agents.Kind) bool { return !slices.Contains(hooked, k) }) {
			continue // the hook asks
		}
		asked = append(asked, fmt.Sprintf("%q", a))
	}
	if len(asked) == 0 {
		return nil
	}
	why := fmt.Sprintf("%s agent files cannot say ask: the file allows it, and only %s's own settings may still ask", info.Title, info.Title)
	if info.Hook != nil && info.Hook.Ask != nil {
		why = fmt.Sprintf("%s agent files cannot say ask, and bn's hook, which can, does not see these calls: the file allows them", info.Title)
	}
	return []Loss{{Field: "tools", Kind: Widened,
		Detail: fmt.Sprintf("ask %s: the agent's tool asks the user before each use; %s", strings.Join(asked, ", "), why)}}
}
