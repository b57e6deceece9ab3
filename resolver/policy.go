package resolver

import (
	"fmt"
	"maps"
	"slices"

	"github.com/binnacle-dev/bn/agents"
)

// policyAt is a layer's policy and the layer that declares it.
type policyAt struct {
	layer  *loadedLayer
	policy *agents.Policy
}

func (p policyAt) where() string {
	return fmt.Sprintf("the policy of the %s layer (%s)", p.layer.Name, p.policy.Pos)
}

// checkPolicies refuses what a contribution from the policy's layer or a
// later one does against a policy: allow a denied tool, or change a
// locked field. Earlier layers are not at fault: their allows are simply
// denied, and a locked field keeps what they set unless changed later.
func (a *Agent) checkPolicies(c contribution) {
	for _, p := range a.r.policies {
		if c.layer.index < p.layer.index {
			continue
		}
		for _, allow := range c.spec().Tools.Allow {
			req, err := agents.ParseToolPattern(allow.Text)
			if err != nil {
				continue
			}
			for _, d := range p.policy.Deny {
				if dp, err := agents.ParseToolPattern(d.Text); err == nil && dp.Overlaps(req) {
					a.Diags = append(a.Diags, agents.Diagnostic{Severity: agents.Error, Pos: allow.Pos, Agent: a.Name, Field: "tools.allow",
						Message: fmt.Sprintf("allow %q grants what %s denies (%q)", allow.Text, p.where(), d.Text),
						Hint:    "remove the allow: a policy only tightens"})
				}
			}
		}
		if c.layer.index == p.layer.index {
			continue
		}
		for _, v := range c.spec().Values {
			if slices.ContainsFunc(p.policy.Lock, func(l agents.Pattern) bool { return l.Text == v.Field.Name }) {
				a.Diags = append(a.Diags, agents.Diagnostic{Severity: agents.Error, Pos: v.Pos, Agent: a.Name, Field: v.Field.Name,
					Message: fmt.Sprintf("%s is locked by %s", v.Field.Name, p.where()), Hint: "remove it from this layer"})
			}
		}
	}
}

// applyPolicies adds every policy's denies to the agent (deny wins, and
// no later layer can remove them: they are applied last) and checks its
// model against the models policies allow.
func (a *Agent) applyPolicies() {
	for _, p := range a.r.policies {
		for _, d := range p.policy.Deny {
			if !slices.Contains(a.Tools.Deny, d.Text) {
				a.Tools.Deny = append(a.Tools.Deny, d.Text)
			}
			if a.prov != nil {
				a.prov.Deny[d.Text] = Origin{Layer: p.layer.Name, Pos: d.Pos}
			}
		}
		if len(p.policy.Models) == 0 || a.Model == "" {
			continue
		}
		switch {
		case !a.r.modelAllowed(a.Model, p.policy.Models):
			a.Diags = append(a.Diags, agents.Diagnostic{Severity: agents.Error, Pos: a.modelPos, Agent: a.Name, Field: "model",
				Message: fmt.Sprintf("model %q is not one %s allows (%v)", a.Model, p.where(), p.policy.Models),
				Hint:    "pick one of those models"})
		case a.r.modelRedefined(a.Model, p):
			e, _ := a.r.catalog().Lookup(a.Model, "")
			a.Diags = append(a.Diags, agents.Diagnostic{Severity: agents.Error, Pos: e.Pos, Agent: a.Name, Field: "model",
				Message: fmt.Sprintf("model %q is allowed by %s, but a later layer changes what it names in the tools", a.Model, p.where()),
				Hint:    "remove that model node: a later layer cannot redefine a model a policy allows"})
		}
	}
}

// modelAllowed compares models through the catalog, so any tool's
// spelling of an allowed model is allowed.
func (r *resolution) modelAllowed(model string, allowed []string) bool {
	e, known := r.catalog().Lookup(model, "")
	for _, m := range allowed {
		if m == model {
			return true
		}
		if o, ok := r.catalog().Lookup(m, ""); ok && known && o.ID == e.ID {
			return true
		}
	}
	return false
}

// modelRedefined says whether a layer after the policy's changed the
// catalog entry model names, so that the tools would run another model
// than the one the policy allowed.
func (r *resolution) modelRedefined(model string, p policyAt) bool {
	final, ok := r.catalog().Lookup(model, "")
	if !ok {
		return false
	}
	before, ok := r.catalogThrough(p.layer.index).Lookup(model, "")
	return !ok || before.ID != final.ID || !maps.EqualFunc(before.Tools, final.Tools, slices.Equal)
}

// PolicyDeny is a tool pattern a layer's policy denies every agent.
type PolicyDeny struct {
	Pattern string
	// Where names the policy: its layer and place.
	Where string
}

// PolicyDenies are every policy's denies, in layer order: what no
// acceptance of a difference may let an agent's file grant.
func (s *Set) PolicyDenies() []PolicyDeny {
	var out []PolicyDeny
	for _, p := range s.r.policies {
		for _, d := range p.policy.Deny {
			out = append(out, PolicyDeny{Pattern: d.Text, Where: p.where()})
		}
	}
	return out
}

// LeftOutAccept is an accept node of a layer whose agents the scope
// leaves out: it accepts nothing there.
type LeftOutAccept struct {
	Agent string
	agents.Acceptance
}

// LeftOutAccepts are the accept nodes of the layers only policies are
// read from (an export for the repository reads the system and session
// layers' policies, never their agents): a user who wrote one expects it
// to accept a difference, and it cannot.
func (s *Set) LeftOutAccepts() []LeftOutAccept {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []LeftOutAccept
	for _, ll := range s.policyOnly {
		for _, f := range ll.files() {
			for _, spec := range f.Specs {
				if more := spec.Complete().More; more != nil {
					for _, acc := range more.Accepts {
						out = append(out, LeftOutAccept{Agent: spec.Name, Acceptance: agents.Acceptance{Fingerprint: acc.Text, Layer: string(ll.Name), Pos: acc.Pos}})
					}
				}
			}
		}
	}
	return out
}

// LeftOutAgent is an agent only a layer whose agents the scope leaves out
// defines: an export for the repository does not write it.
type LeftOutAgent struct {
	Name  string
	Layer LayerName
}

// LeftOutAgents are the agents of the layers only policies are read from
// (the system and session layers, for an export) that no layer read
// mentions, in the order written; an agent those layers only disable is
// none.
func (s *Set) LeftOutAgents() []LeftOutAgent {
	s.mu.Lock()
	defer s.mu.Unlock()
	known := map[string]bool{}
	for _, n := range s.order {
		known[n] = true
	}
	var out []LeftOutAgent
	for _, ll := range s.policyOnly {
		for _, f := range ll.files() {
			for _, spec := range f.Specs {
				if known[spec.Name] || spec.Complete().Disable.Set && spec.Disable.Value {
					continue
				}
				known[spec.Name] = true
				out = append(out, LeftOutAgent{Name: spec.Name, Layer: ll.Name})
			}
		}
	}
	return out
}
