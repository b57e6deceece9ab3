package export

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

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
}

// acceptor marks one rendered agent's differences that its accept nodes
// accept, and refuses those a policy forbids.
type acceptor struct {
	d       dialect.Dialect
	catalog *agents.Catalog
	denies  []resolver.PolicyDeny
	def     agents.Definition
	path    string
	content []byte
	// companion is the agent's second file (dialect.Info.Companion), as
	// it would be written.
	companion []byte
	used      map[string]bool
	// granted is what the file grants beyond the definition, read back
	// as the tool reads it; worked out on the first tools acceptance.
	granted []string
	read    bool
}

// mark fingerprints l and says whether the definition accepts it. A
// policy's deny is never widened: a tools widening, or an accepted tools
// difference, that lets the file grant what a policy denies refuses the
// export, whatever layer the policy or the accept comes from.
func (a *acceptor) mark(target string, l *AgentLoss) (bool, error) {
	if l.Kind == dialect.Renamed || l.Kind == dialect.Enforced {
		return false, nil // never refused, so never accepted
	}
	l.Fingerprint = agents.Fingerprint(a.def.Name, target, l.Field, l.Kind, l.Detail)
	i := slices.IndexFunc(a.def.Accepts, func(x agents.Acceptance) bool { return x.Fingerprint == l.Fingerprint })
	// An unaccepted difference refuses only when it widens: one that a
	// hook enforces, or that the definition itself leaves advisory, is
	// not the crossing's grant.
	if l.Field == "tools" && len(a.denies) > 0 && (i >= 0 || l.Kind == dialect.Widened) {
		deny, err := a.forbids(l.Detail)
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

// forbids is the policy deny that a tools difference with this detail
// lets the file break: the file, read back, grants something the deny
// covers, and the detail speaks of that deny or of its kinds.
func (a *acceptor) forbids(detail string) (*resolver.PolicyDeny, error) {
	if !a.read {
		a.read = true
		src := dialect.Rendered{Content: a.content, Companion: a.companion}.Source(a.path, filepath.Base(a.path))
		back, err := a.d.Read(src, a.catalog)
		if err != nil {
			return nil, fmt.Errorf("%s: bn cannot read back the file it would write, to check an accepted difference against the policies: %w", a.path, err)
		}
		a.granted = back.Def.Tools.Beyond(a.def.Tools)
	}
	words := strings.FieldsFunc(detail, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_') })
	for i, deny := range a.denies {
		dp, err := agents.ParseToolPattern(deny.Pattern)
		if err != nil {
			continue
		}
		named := strings.Contains(detail, deny.Pattern) || slices.Contains(words, strings.ToLower(dp.Kind))
		for _, k := range dp.Kinds() {
			named = named || slices.Contains(words, string(k))
		}
		if named && slices.ContainsFunc(a.granted, func(g string) bool { return grants(g, dp) }) {
			return &a.denies[i], nil
		}
	}
	return nil, nil
}

// grants says whether g, an item of agents.Tools.Beyond, grants anything
// deny covers.
func grants(g string, deny agents.ToolPattern) bool {
	if g == "every tool" {
		return true
	}
	g = strings.TrimPrefix(g, "no longer denies ")
	p, err := agents.ParseToolPattern(g)
	return err == nil && (deny.Overlaps(p) || p.Overlaps(deny))
}

// stale lists the definition's accepts for target that matched nothing.
func (a *acceptor) stale(target string) []StaleAccept {
	var out []StaleAccept
	for _, acc := range a.def.Accepts {
		if agents.FingerprintTarget(acc.Fingerprint) == target && !a.used[acc.Fingerprint] {
			out = append(out, StaleAccept{Agent: a.def.Name, Fingerprint: acc.Fingerprint, Where: fmt.Sprintf("%s (%s layer)", acc.Pos, acc.Layer)})
		}
	}
	return out
}
