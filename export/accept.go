package export

import (
	"fmt"
	"slices"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/resolver"
)

// StaleAccept is an accept node that matched no difference of its agent's
// file for its target: the difference it accepted is gone, or says
// something else now, and a new one would need reviewing again.
type StaleAccept struct {
	Agent       string `json:"agent"`
	Fingerprint string `json:"fingerprint"`
	Where       string `json:"where"` // the accept node: file:line:col, and its layer
	// Reason says why it accepts nothing, and what to do.
	Reason string `json:"reason"`
}

// leftOutReason is why an accept of a layer the export leaves out
// (resolver.Set.LeftOutAccepts) accepts nothing.
const leftOutReason = "accepts nothing here: an export for the repository reads the system and session layers' policies, never their agents or accepts, " +
	"so a clone of the repository would refuse what it accepts; move the accept into the agent in .binnacle/agents, or export with --all-layers"

// acceptor marks one rendered agent's differences that its accept nodes
// accept, and refuses those a policy forbids.
type acceptor struct {
	d      dialect.Dialect
	denies []resolver.PolicyDeny
	def    agents.Definition
	used   map[string]bool
}

// mark fingerprints l and says whether the definition accepts it. A
// policy's deny is never widened: a widening, or an accepted difference,
// that lets the file grant what a policy denies refuses the export,
// whatever layer the policy or the accept comes from.
func (a *acceptor) mark(target string, l *AgentLoss) (bool, error) {
	if l.Kind == dialect.Renamed || l.Kind == dialect.Enforced {
		return false, nil // never refused, so never accepted
	}
	l.Fingerprint = agents.Fingerprint(a.def.Name, target, l.Field, l.Kind, l.Detail)
	i := slices.IndexFunc(a.def.Accepts, func(x agents.Acceptance) bool { return x.Fingerprint == l.Fingerprint })
	// An unaccepted difference refuses only when it widens: one that a
	// hook enforces, or that the definition itself leaves advisory, is
	// not the crossing's grant.
	if i >= 0 || l.Kind == dialect.Widened {
		deny, err := a.forbids(l.Loss)
		if err != nil {
			return false, err
		}
		if deny != nil && i >= 0 {
			acc := a.def.Accepts[i]
			return false, fmt.Errorf("%s: agent %q: accept %q (%s layer) cannot accept %q: the file it lets bn write grants what %s denies (%q); remove the accept: a policy only tightens, so change the agent (or its %s section) until the difference is gone",
				acc.Pos, a.def.Name, acc.Fingerprint, acc.Layer, l.Detail, deny.Where, deny.Pattern, target)
		}
		if deny != nil {
			return false, fmt.Errorf("agent %q: not exported to %s: %s; its file would grant what %s denies (%q), and bn never writes a file that widens a policy; leave %s out of --target, or narrow the agent (or its %s section) until %s can say it; nothing was written",
				a.def.Name, target, l.Detail, deny.Where, deny.Pattern, target, target, a.d.Info().Title)
		}
	}
	if i < 0 {
		return false, nil
	}
	a.used[l.Fingerprint] = true
	l.Accepted = true
	return true, nil
}

// forbids is the policy deny that the difference lets the file break:
// what it grants (dialect.Loss.Grants) covers part of what the deny
// denies. A deny bn cannot read could deny anything: it refuses.
func (a *acceptor) forbids(l dialect.Loss) (*resolver.PolicyDeny, error) {
	for i, deny := range a.denies {
		dp, err := agents.ParseToolPattern(deny.Pattern)
		if err != nil {
			return nil, fmt.Errorf("agent %q: not exported to %s: %s has deny %q, which bn cannot read (%v), so it cannot tell whether the file grants what it denies; correct the deny in that file (bn config agents validate checks it); nothing was written",
				a.def.Name, a.d.Info().Name, deny.Where, deny.Pattern, err)
		}
		if l.GrantsAny(dp) {
			return &a.denies[i], nil
		}
	}
	return nil, nil
}

// stale lists the definition's accepts for target that matched nothing.
func (a *acceptor) stale(target string) []StaleAccept {
	var out []StaleAccept
	for _, acc := range a.def.Accepts {
		if agents.FingerprintTarget(acc.Fingerprint) == target && !a.used[acc.Fingerprint] {
			out = append(out, StaleAccept{Agent: a.def.Name, Fingerprint: acc.Fingerprint, Where: where(acc),
				Reason: fmt.Sprintf("matches no difference of its %s file: the difference is gone, or changed (a changed one is listed with its new fingerprint); remove the fingerprint from the accept node", target)})
		}
	}
	return out
}

// badAccepts is the error of the agent's accept nodes that bn cannot
// read. An accept is how --strict lets a difference pass: a mistyped one
// fails every export, where another error only skips its agent.
func badAccepts(set *resolver.Set, name string) error {
	a, _ := set.Agent(name)
	bad := slices.DeleteFunc(a.Diags.Errors(), func(d agents.Diagnostic) bool { return d.Field != agents.NodeAccept })
	if len(bad) == 0 {
		return nil
	}
	return fmt.Errorf("%w; nothing was written", bad.Err())
}

// where names an accept node and its layer.
func where(acc agents.Acceptance) string { return fmt.Sprintf("%s (%s layer)", acc.Pos, acc.Layer) }

// leftOut are the accepts for target of the layers the export leaves out,
// of the agents it exports when it names them.
func leftOut(left []resolver.LeftOutAccept, target string, names []string) []StaleAccept {
	var out []StaleAccept
	for _, acc := range left {
		if agents.FingerprintTarget(acc.Fingerprint) == target && (names == nil || slices.Contains(names, acc.Agent)) {
			out = append(out, StaleAccept{Agent: acc.Agent, Fingerprint: acc.Fingerprint, Where: where(acc.Acceptance), Reason: leftOutReason})
		}
	}
	return out
}
