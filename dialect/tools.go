package dialect

import (
	"fmt"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// rule is one parsed allow or deny pattern.
type rule struct {
	text   string
	p      agents.ToolPattern
	kinds  []agents.Kind // nil for MCP servers and native names
	native string        // the tool of a native name (@tool(name))
}

func (r rule) mcp() bool { return r.kinds == nil && r.native == "" }

// whole says the rule covers every use of its kinds (no argument).
func (r rule) whole() bool { return !r.p.HasArg || r.p.Arg == "*" }

func parseRules(list []string) []rule {
	out := make([]rule, 0, len(list))
	for _, s := range list {
		p, err := agents.ParseToolPattern(s)
		if err != nil {
			continue // loading rejects these; a writer never sees one
		}
		r := rule{text: s, p: p, kinds: p.Kinds()}
		if tool, _, ok := agents.NativeTool(p); ok {
			r.native = tool
		}
		out = append(out, r)
	}
	return out
}

// kindSet is a set of kinds.
type kindSet map[agents.Kind]bool

func (k kindSet) add(ks ...agents.Kind) {
	for _, x := range ks {
		k[x] = true
	}
}

func (k kindSet) has(x agents.Kind) bool { return k[x] }

// sorted lists the kinds in bn's order.
func (k kindSet) sorted() []agents.Kind {
	var out []agents.Kind
	for _, ki := range agents.Kinds {
		if k[ki.Kind] {
			out = append(out, ki.Kind)
		}
	}
	return out
}

func kindNames(ks []agents.Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// listWriter writes the tools of a definition for a tool whose files
// hold a list of tool names (and, for some, patterns and a deny list).
type listWriter struct {
	info *Info
	// pattern writes a kind limited to an argument in the tool's syntax;
	// nil when the tool's lists hold names only.
	pattern func(k agents.Kind, arg string) (string, bool)
	// mcp writes an MCP server (tool == "" for all of it) or one of its
	// tools; ok false when the tool cannot name MCP tools in agent files.
	mcp func(server, tool string) (string, bool)
	// denyList: the file has a deny list (written by the caller), so deny
	// patterns need not shape the allow list.
	denyList bool
	partial  string // widen or narrow
	// enforced are the kinds a hook written with the file decides: a
	// part granted is written whole, and reported as enforced.
	enforced []agents.Kind
	// agentsApart: the file names the sub-agents an agent may start in a
	// field of its own (Copilot's agents), so agent(NAME) grants the agent
	// tool and the names go there.
	agentsApart bool
}

// toolList is what a listWriter produced.
type toolList struct {
	all    bool     // write the tool's "every tool" form (usually: no field)
	names  []string // the allow list
	losses []Loss
	// agents are sub-agents named by agent(NAME) patterns, for tools
	// that list them apart from the tool names.
	agents []string
}

func (w listWriter) loss(kind, format string, args ...any) Loss {
	return Loss{Field: "tools", Kind: kind, Detail: fmt.Sprintf(format, args...)}
}

// write plans the allow list for t.
func (w listWriter) write(t agents.Tools) toolList {
	allow, deny := parseRules(t.Allow), parseRules(t.Deny)
	var out toolList
	denied := kindSet{}
	for _, d := range deny {
		if d.kinds != nil && d.whole() {
			denied.add(d.kinds...)
		}
	}
	granted := kindSet{}
	var extra []string
	addExtra := func(s string) {
		if !slices.Contains(extra, s) {
			extra = append(extra, s)
		}
	}
	if t.All {
		out.all = true
		if w.denyList || len(deny) == 0 {
			return out
		}
		// No deny list: denied kinds can be kept out only by listing
		// every other kind.
		for _, ki := range agents.Kinds {
			granted.add(ki.Kind)
		}
		enumerate := len(denied) > 0
		for _, d := range deny {
			switch {
			case d.native == w.info.Name:
				out.losses = append(out.losses, w.loss(Widened, "deny %q not carried: %s agent files have no deny list", d.text, w.info.Title).granting(d.text))
			case d.native != "":
				out.losses = append(out.losses, foreignDeny(d, w.info))
			case d.mcp():
				out.losses = append(out.losses, w.loss(Widened, "deny %q not carried: %s agent files have no deny list, so MCP tools stay allowed", d.text, w.info.Title).granting(d.text))
			case !d.whole() && w.partial == "narrow":
				denied.add(d.kinds...)
				enumerate = true
				out.losses = append(out.losses, w.loss(Dropped, "%s left out to keep %q denied: %s agent files have no deny list", kindNames(d.kinds), d.text, w.info.Title).dropping(kindPatterns(d.kinds, "")...))
			case !d.whole():
				out.losses = append(out.losses, w.loss(Widened, "deny %q not carried: %s agent files have no deny list, so every %s use stays allowed", d.text, w.info.Title, kindNames(d.kinds)).granting(d.text))
			}
		}
		if !enumerate {
			return out
		}
		out.all = false
		for k := range denied {
			delete(granted, k)
		}
		out.losses = append(out.losses, w.loss(Dropped, "the agent has every tool but %s; %s agent files have no deny list, so bn lists the tools it knows, and MCP servers and tools bn has no name for are left out",
			kindNames(denied.sorted()), w.info.Title).dropping(EveryMCPTool, UnnamedTools))
		out.names = w.cover(granted, denied, &out.losses)
		return out
	}
	for _, r := range allow {
		switch {
		case r.native != "":
			if r.native == w.info.Name {
				if l, bypass := nativeBypass(w.info, r, deny); bypass {
					out.losses = append(out.losses, l)
					continue
				}
				addExtra(r.p.Arg)
			} else {
				out.losses = append(out.losses, w.loss(Dropped, "%q is a tool of another tool; %s has no such tool", r.text, w.info.Title).dropping(r.text))
			}
		case r.mcp():
			if wholeServer(deny, r.p.Kind) {
				continue
			}
			tool := ""
			if !r.whole() {
				tool = r.p.Arg
			}
			if name, ok := w.mcp(r.p.Kind, tool); ok {
				addExtra(name)
			} else {
				out.losses = append(out.losses, w.loss(Dropped, "allow %q: %s agent files cannot grant MCP tools", r.text, w.info.Title).dropping(r.text))
			}
		case r.whole():
			granted.add(r.kinds...)
		default:
			for _, k := range r.kinds {
				if denied.has(k) {
					continue
				}
				if k == agents.KindAgent {
					out.agents = append(out.agents, r.p.Arg)
				}
				if w.pattern != nil {
					if s, ok := w.pattern(k, r.p.Arg); ok {
						addExtra(s)
						continue
					}
				}
				if k == agents.KindAgent && w.agentsApart {
					granted.add(k)
					continue
				}
				if !slices.ContainsFunc(w.info.Vocabulary, func(word Word) bool { return word.Write && slices.Contains(word.Kinds, k) }) {
					// No tool of its own grants k: it is left out (cover says
					// so), which is all there is to report of the pattern.
					granted.add(k)
					continue
				}
				// Another allow that grants k whole leaves nothing to widen
				// or leave out (an ask's pattern is an allow too).
				wholeToo := slices.ContainsFunc(allow, func(a rule) bool { return a.whole() && slices.Contains(a.kinds, k) })
				if w.partial == "narrow" {
					if !wholeToo {
						out.losses = append(out.losses, w.loss(Dropped, "allow %q left out: %s agent files cannot limit %s to an argument", r.text, w.info.Title, k).dropping(kindPatterns([]agents.Kind{k}, r.p.Arg)...))
					}
					continue
				}
				granted.add(k)
				if slices.Contains(w.enforced, k) {
					if slices.Contains(t.Ask, r.text) {
						// An ask is an allow the hook asks before: the limit is the ask.
						rest := " and refuses the rest"
						if wholeToo {
							rest = ""
						}
						out.losses = append(out.losses, w.loss(Enforced, "ask %q enforced by a hook: %s agent files cannot say ask, so the file grants every %s use, and bn's hook asks the user before these calls (in a run no one answers, such as -p: %s)%s", r.text, w.info.Title, k, w.info.Hook.Unattended(w.info.Title), rest).granting(string(k)))
						continue
					}
					out.losses = append(out.losses, w.loss(Enforced, "allow %q enforced by a hook: %s agent files cannot limit %s to an argument, so the file grants every %s use and bn's hook refuses the rest", r.text, w.info.Title, k, k).granting(string(k)))
					continue
				}
				if !wholeToo {
					out.losses = append(out.losses, w.loss(Widened, "allow %q widened to every %s use: %s agent files cannot limit it to an argument", r.text, k, w.info.Title).granting(string(k)))
				}
			}
		}
	}
	for k := range denied {
		delete(granted, k)
	}
	if !w.denyList {
		for _, d := range deny {
			switch {
			case d.native != "" && d.native != w.info.Name:
				out.losses = append(out.losses, foreignDeny(d, w.info))
			case d.native != "" || d.whole():
			case d.mcp():
				if _, canGrant := w.mcp(d.p.Kind, ""); canGrant && wholeServer(allow, d.p.Kind) {
					out.losses = append(out.losses, w.loss(Widened, "deny %q not carried: %s agent files have no deny list", d.text, w.info.Title).granting(d.text))
				}
			default:
				var kept []agents.Kind
				for _, k := range d.kinds {
					if granted.has(k) {
						kept = append(kept, k)
					}
				}
				switch {
				case len(kept) == 0:
				case w.partial == "narrow":
					for _, k := range kept {
						delete(granted, k)
					}
					out.losses = append(out.losses, w.loss(Dropped, "%s left out to keep %q denied: %s agent files have no deny list", kindNames(kept), d.text, w.info.Title).dropping(kindPatterns(kept, "")...))
				default:
					out.losses = append(out.losses, w.loss(Widened, "deny %q not carried: %s agent files have no deny list, so every %s use stays allowed", d.text, w.info.Title, kindNames(kept)).granting(d.text))
				}
			}
		}
	}
	out.names = append(w.cover(granted, denied, &out.losses), extra...)
	return out
}

// cover picks the tool's names for a set of kinds: for each kind, a name
// that grants nothing else when there is one, else the one granting the
// fewest other kinds (a widening, reported). A name that would also grant
// a kind the agent is denied is never used: that kind is left out.
func (w listWriter) cover(granted, denied kindSet, losses *[]Loss) []string {
	var names []string
	covered := kindSet{}
	for _, k := range granted.sorted() {
		if covered.has(k) {
			continue
		}
		var best, refused *Word
		bestExtra := 0
		for i := range w.info.Vocabulary {
			word := &w.info.Vocabulary[i]
			if !word.Write || !slices.Contains(word.Kinds, k) {
				continue
			}
			// Never grant what the agent is denied to give it something
			// else: the lesser loss is the kind this name was for.
			if slices.ContainsFunc(word.Kinds, denied.has) {
				refused = word
				continue
			}
			extra := 0
			for _, wk := range word.Kinds {
				if !granted.has(wk) {
					extra++
				}
			}
			if best == nil || extra < bestExtra {
				best, bestExtra = word, extra
			}
		}
		switch {
		case best == nil && refused != nil:
			var bad []agents.Kind
			for _, wk := range refused.Kinds {
				if denied.has(wk) {
					bad = append(bad, wk)
				}
			}
			*losses = append(*losses, w.loss(Dropped, "%s left out: %s's %q would also grant %s, which the agent is denied", k, w.info.Title, refused.Name, kindNames(bad)).dropping(string(k)))
			continue
		case best == nil:
			*losses = append(*losses, w.loss(Dropped, "%s: %s has no tool for it", k, w.info.Title).dropping(string(k)))
			continue
		}
		var more []agents.Kind
		for _, wk := range best.Kinds {
			if !granted.has(wk) && !covered.has(wk) {
				more = append(more, wk)
			}
		}
		// A name the client hides beside a granted tool grants none of
		// its kinds, so it is not written (a file listing it would say
		// the agent has it): the tool that hides it says what the agent
		// has.
		hidden := best.HiddenBy != "" && granted.has(best.HiddenBy)
		for _, word := range w.info.Vocabulary {
			if word.Write && (word.Name == best.Name || best.Group != "" && word.Group == best.Group) {
				if !hidden {
					names = append(names, word.Name)
				}
				covered.add(word.Kinds...)
			}
		}
		if len(more) > 0 && !hidden {
			*losses = append(*losses, w.loss(Widened, "%q, written for %s, also grants %s", best.Name, k, kindNames(more)).granting(kindPatterns(more, "")...))
		}
	}
	return names
}

// foreignDeny reports a deny that names another tool's own tool: the
// file cannot name it, so whatever it is in this tool stays allowed.
func foreignDeny(r rule, info *Info) Loss {
	owner := r.native
	if d, ok := All().Lookup(owner); ok {
		owner = d.Info().Title
	}
	return Loss{Field: "tools", Kind: Widened, Detail: fmt.Sprintf("deny %q names a tool of %s's; %s agent files cannot name it, so if %s has it, it stays allowed",
		r.text, owner, info.Title, info.Title), Grants: []string{r.text}}
}

// wholeServer says whether a rule of rules names all of an MCP server.
func wholeServer(rules []rule, server string) bool {
	return slices.ContainsFunc(rules, func(r rule) bool { return r.mcp() && r.whole() && strings.EqualFold(r.p.Kind, server) })
}

// reader maps a tool's tool names to bn patterns for one file.
type reader struct {
	info *Info
	im   *Imported
}

// word finds a name in the vocabulary (exactly, then ignoring case when
// fold is set).
// nativeBypass says whether allowing a tool by its own name (an
// @copilot(execute) rule) would grant a kind a deny rule limits: the deny
// wins, and the name is left out with the loss that says so.
func nativeBypass(info *Info, allow rule, deny []rule) (Loss, bool) {
	r := reader{info: info}
	w, ok := r.word(allow.p.Arg, false)
	if !ok {
		return Loss{}, false
	}
	for _, d := range deny {
		if d.native != "" {
			continue
		}
		for _, k := range d.kinds {
			if slices.Contains(w.Kinds, k) {
				return Loss{Field: "tools", Kind: Dropped, Detail: fmt.Sprintf("allow %q left out: %s's %s grants %s, which %q denies",
					allow.text, info.Title, allow.p.Arg, k, d.text), Drops: []string{allow.text}}, true
			}
		}
	}
	return Loss{}, false
}

func (r reader) word(name string, fold bool) (Word, bool) {
	for _, w := range r.info.Vocabulary {
		if w.Name == name {
			return w, true
		}
	}
	if fold {
		for _, w := range r.info.Vocabulary {
			if strings.EqualFold(w.Name, name) {
				return w, true
			}
		}
	}
	return Word{}, false
}

// kinds returns the bn patterns for a word's kinds, with an argument.
func kindPatterns(kinds []agents.Kind, arg string) []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = string(k)
		if arg != "" {
			out[i] += "(" + arg + ")"
		}
	}
	return out
}

// names reads a list of tool names written as a YAML list or, where the
// tool allows it, a comma string. An entry that is not a name is reported
// and left out of an allow list, which narrows it; in a deny list it is an
// error, since leaving it out would grant what the file denies.
func (r reader) names(key string, v any, deny bool) ([]string, error) {
	bad := func(what any) error {
		what = agents.Plain(what)
		if deny {
			return fmt.Errorf("%s: %v is not a tool name, so bn cannot tell what the file denies; write names", key, what)
		}
		r.im.drop("%s: %v is not a tool name; left out", key, what)
		return nil
	}
	switch x := v.(type) {
	case nil, string:
		return stringList(v), nil
	case []any:
		for _, e := range x {
			if s, ok := e.(string); !ok || strings.TrimSpace(s) == "" {
				if err := bad(e); err != nil {
					return nil, err
				}
			}
		}
		return stringList(v), nil
	}
	if m, ok := v.(*agents.Map); ok && !deny {
		// A whole mapping (OpenCode's shape, {edit: false}) leaves the list
		// empty: say that the agent is left with no tool, not that one
		// entry is.
		r.im.drop("%s: a mapping (%s), not a list of tool names: bn reads the agent as having no tool; write the tools it has as a list", key, strings.Join(m.Keys, ", "))
		return nil, nil
	}
	return nil, bad(v)
}

// native keeps a name bn has no kind for, as the tool wrote it.
func (r reader) native(name string) string {
	p := agents.NativePattern(r.info.Name, name)
	switch {
	case slices.Contains(r.info.Own, name):
		r.im.note("%s is a %s tool no other tool has; kept as %s for %s only", name, r.info.Title, p, r.info.Title)
	case slices.Contains(r.info.Retired, name):
		r.im.note("%s is a retired %s tool, which it no longer offers: it grants nothing; kept as %s for %s only", name, r.info.Title, p, r.info.Title)
	default:
		r.im.note("tool %q is not one bn knows; kept as %s for %s only", name, p, r.info.Title)
	}
	return p
}

func appendNew(list []string, items ...string) []string {
	for _, it := range items {
		if !slices.Contains(list, it) {
			list = append(list, it)
		}
	}
	return list
}

// deny writes a deny list that holds names only: the names of the kinds
// denied whole. A kind denied in part is decided by a hook where one is
// written (enforced), else left whole (widened) or denied whole
// (narrowed), as w.partial says. namesOf gives the names that deny a
// kind; why says, when the tool has more to say, what a rule with
// arguments does there.
func (w listWriter) deny(def *agents.Definition, namesOf func(agents.Kind) []string, why string) ([]string, []Loss) {
	info := w.info
	var deny []string
	var losses []Loss
	for _, r := range parseRules(def.Tools.Deny) {
		switch {
		case r.native == info.Name:
			deny = appendNew(deny, r.p.Arg)
		case r.native != "":
			losses = append(losses, foreignDeny(r, info))
		case r.mcp():
			tool := ""
			if !r.whole() {
				tool = r.p.Arg
			}
			if name, ok := w.mcp(r.p.Kind, tool); ok {
				deny = appendNew(deny, name)
			} else {
				losses = append(losses, Loss{Field: "tools", Kind: Widened, Detail: fmt.Sprintf("deny %q not carried: %s agent files cannot name MCP tools", r.text, info.Title), Grants: []string{r.text}})
			}
		case r.whole():
			for _, k := range r.kinds {
				deny = appendNew(deny, namesOf(k)...)
			}
		default:
			for _, k := range r.kinds {
				switch {
				case !def.Tools.Uses(k):
					// nothing of the kind is granted: nothing to deny
				case slices.Contains(w.enforced, k):
					losses = append(losses, Loss{Field: "tools", Kind: Enforced,
						Detail: fmt.Sprintf("deny %q enforced by a hook: %s agent files cannot deny %s in part, so bn's hook refuses it", r.text, info.Title, k), Grants: []string{r.text}})
				case w.partial == "narrow":
					deny = appendNew(deny, namesOf(k)...)
					losses = append(losses, Loss{Field: "tools", Kind: Dropped,
						Detail: fmt.Sprintf("%s left out to keep %q denied: %s agent files cannot deny %s in part", k, r.text, info.Title, k), Drops: []string{string(k)}})
				default:
					losses = append(losses, Loss{Field: "tools", Kind: Widened,
						Detail: fmt.Sprintf("deny %q not carried: %s agent files cannot deny %s in part%s, so every %s use stays allowed", r.text, info.Title, k, why, k), Grants: []string{r.text}})
				}
			}
		}
	}
	return deny, losses
}

// withKinds copies a vocabulary, without its legacy names, with the word
// name granting kinds instead: how a client's runtime differs from its
// files.
func withKinds(words []Word, name string, kinds ...agents.Kind) []Word {
	var out []Word
	for _, w := range words {
		if w.Legacy {
			continue
		}
		if w.Name == name {
			w.Kinds = kinds
		}
		out = append(out, w)
	}
	return out
}
