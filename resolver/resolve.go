package resolver

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/par"
)

// Origin says where a resolved value came from.
type Origin struct {
	Layer LayerName
	Pos   agents.Pos
	// Via names the agent it was inherited from through extends, if any.
	Via string
}

// Source is one file that contributed to an agent.
type Source struct {
	Layer LayerName
	File  string
}

// Agent is a resolved agent: its definition (the prompt is read on demand),
// where each part came from, and its own diagnostics.
type Agent struct {
	agents.Definition
	Layer       LayerName // the last layer that mentions the agent
	Source      string    // the last file that mentions it
	Sources     []Source
	ToolsMerged bool // a layer above the one that introduced it changed its tools
	Disabled    bool
	Extends     string
	// BuiltIn says the agent ships with bn (it is defined in the embedded
	// layer).
	BuiltIn bool
	Diags   agents.Diagnostics

	// changed: a layer after the first changes what the agent's files
	// say; one that only accepts their differences does not (Exported).
	changed bool

	// toolsUnsaid: no layer has said anything about the tools yet, so the
	// agent is unrestricted by default and a first allow starts a list.
	toolsUnsaid bool

	prompt   promptPlan
	modelPos agents.Pos  // where the model was set, for policy errors
	prov     *Provenance // nil until Provenance is asked for
	r        *resolution
}

// Provenance says where each part of a resolved agent was set.
type Provenance struct {
	// Fields maps a field name (as in config.kdl; a tool's fields as
	// "tool.key") to where it was set.
	Fields map[string]Origin
	// Allow, Deny and Ask map each tool pattern to where it was added
	// (an ask's pattern is in Allow too, from the same place).
	Allow map[string]Origin
	Deny  map[string]Origin
	Ask   map[string]Origin
}

// Provenance returns where each field and pattern came from. It is worked
// out on first use by resolving the agent again with tracking on, so the
// commands that never print it do not pay for it.
func (a *Agent) Provenance() *Provenance {
	if a.r == nil {
		return a.prov
	}
	a.r.mu.Lock()
	defer a.r.mu.Unlock()
	return a.provenance()
}

// provenance is Provenance, with the resolution's lock held.
func (a *Agent) provenance() *Provenance {
	if a.prov == nil {
		a.prov = a.r.resolveLocked(a.Name, true).prov
	}
	return a.prov
}

// Err returns the agent's errors, or nil if it resolved cleanly.
func (a *Agent) Err() error { return a.Diags.Err() }

type promptPart struct {
	layer *loadedLayer
	ref   agents.PromptRef
}

// promptPlan is the recipe for the prompt; files are read only by Prompt.
type promptPlan struct {
	base     *promptPart
	prepends []string
	appends  []string
}

// Prompt reads and assembles the agent's prompt: the base prompt, with
// prepended and appended parts joined by blank lines.
func (a *Agent) Prompt() (string, error) {
	if a.prompt.base == nil {
		return "", fmt.Errorf("agent %q has no prompt", a.Name)
	}
	body := strings.TrimSpace(a.prompt.base.ref.Text)
	if file := a.prompt.base.ref.File; file != "" {
		var err error
		if body, err = a.prompt.base.layer.readPrompt(file, a.prompt.base.ref.FromBody); err != nil {
			return "", fmt.Errorf("agent %q: prompt: %w", a.Name, err)
		}
	}
	return a.assemblePrompt(body)
}

// assemblePrompt joins the base prompt's text, as read, with the
// prepended and appended parts.
func (a *Agent) assemblePrompt(body string) (string, error) {
	parts := make([]string, 0, len(a.prompt.prepends)+1+len(a.prompt.appends))
	for i := len(a.prompt.prepends) - 1; i >= 0; i-- {
		parts = append(parts, strings.TrimSpace(a.prompt.prepends[i]))
	}
	parts = append(parts, body)
	for _, s := range a.prompt.appends {
		parts = append(parts, strings.TrimSpace(s))
	}
	// Each part is within the cap, but prompt-prepend and prompt-append
	// over extends and layers add up: the whole is held to it too, before
	// it is built.
	size := 2 * (len(parts) - 1)
	for _, p := range parts {
		size += len(p)
	}
	if size > MaxPromptBytes {
		return "", fmt.Errorf("agent %q: prompt: with its %d prompt-prepend and %d prompt-append texts it would be %d bytes, over the %d MiB a prompt holds; shorten them, or give the agent a prompt of its own", a.Name, len(a.prompt.prepends), len(a.prompt.appends), size, MaxPromptBytes>>20)
	}
	return strings.Join(parts, "\n\n"), nil
}

// PromptErr says why the agent's prompt cannot be read, reading only a
// prompt that is a file: a missing, special, oversized or binary file, or
// a markdown body that is not text.
func (a *Agent) PromptErr() error {
	if a.prompt.base == nil || a.prompt.base.ref.File == "" {
		return nil
	}
	_, err := a.Prompt()
	return err
}

// WithPrompt returns the definition with its prompt read.
func (a *Agent) WithPrompt() (agents.Definition, error) {
	prompt, err := a.Prompt()
	if err != nil {
		return agents.Definition{}, err
	}
	def := a.Definition
	def.Prompt = prompt
	return def, nil
}

// PromptFile reports the layer file holding the base prompt, if it is a file.
func (a *Agent) PromptFile() string {
	if a.prompt.base == nil || a.prompt.base.ref.File == "" {
		return ""
	}
	return a.prompt.base.layer.FileLabel(a.prompt.base.ref.File)
}

// Set is every agent resolved from a list of layers. It is safe for
// concurrent use: agents are resolved when first asked for, and the
// caches that resolving fills are each behind a lock, so that planning
// for several tools side by side (verify) shares one set.
type Set struct {
	Layers []Layer
	order  []string
	agents map[string]*Agent
	// policyOnly are the layers only policies are read from
	// (Layer.PolicyOnly), for LeftOutAccepts.
	policyOnly []*loadedLayer
	// mu guards all and diags; catMu catalog and catalogsThrough. A
	// holder of the resolution's lock may take catMu, never the reverse.
	mu    sync.Mutex
	catMu sync.Mutex
	// fatal holds layer-level errors: when any exist, nothing may be trusted.
	fatal   agents.Diagnostics
	diags   agents.Diagnostics // every diagnostic from every file and agent
	r       *resolution
	all     bool            // every agent resolved and its diagnostics in diags
	catalog *agents.Catalog // nil until Catalog builds it
	// models are each layer's model entries, in order; the built-in
	// catalog's are decoded when called.
	models []func() []*agents.ModelEntry
	// modelLayers is the index of the layer each of models comes from;
	// catalogsThrough the catalogs as of a policy's layer, built once.
	modelLayers     []int
	catalogsThrough map[int]*agents.Catalog
	settings        agents.Settings
	// BinnacleProject says whether the repository is one binnacle tracks
	// (Paths.BinnacleProject): there, and only there, binnacle's
	// built-in agents are exported unless the config says otherwise. It
	// is asked only then, so commands that export nothing (show, emit on
	// the launch path) never look; nil means no.
	BinnacleProject func() bool
}

// contribution is one spec from one layer, in application order.
type contribution struct {
	layer *loadedLayer
	raw   *agents.Spec // its fields may be deferred: read them through spec
}

// spec is the contribution's spec, decoded whole.
func (c contribution) spec() *agents.Spec { return c.raw.Complete() }

// Load reads each layer once and resolves agents as they are asked for.
func Load(layers []Layer, dec config.Decoder) *Set {
	return assemble(withSources(layers, loadEach(layers, dec), dec))
}

// loadEach reads each layer.
func loadEach(layers []Layer, dec config.Decoder) []*loadedLayer {
	loaded := make([]*loadedLayer, len(layers))
	// Side by side: a layer of markdown agent files is mostly reading
	// and decoding them, and loading three layers of 1,000 one after
	// another took a quarter longer (BenchmarkLoadMarkdown).
	par.Do(len(layers), 1, func(i int) { loaded[i] = load(layers[i], dec) })
	return loaded
}

// assemble builds a set from loaded layers.
func assemble(layers []Layer, loaded []*loadedLayer) *Set {
	specs := 0
	for _, ll := range loaded {
		for _, f := range ll.files() {
			specs += len(f.Specs)
		}
	}
	s := &Set{Layers: layers, agents: map[string]*Agent{}, order: make([]string, 0, specs)}
	contribs := make(map[string][]contribution, specs)
	// Most agents have one contribution: each starts as a slice of one
	// shared array.
	firsts := make([]contribution, 0, specs)
	var policies []policyAt
	for i, ll := range loaded {
		l := ll.Layer
		ll.index = i
		s.fatal = append(s.fatal, ll.fatal...)
		if ll.kdl != nil && ll.kdl.Policy != nil {
			policies = append(policies, policyAt{ll, ll.kdl.Policy})
		}
		if l.PolicyOnly {
			s.policyOnly = append(s.policyOnly, ll)
			continue
		}
		if ll.builtinModels != nil {
			s.models, s.modelLayers = append(s.models, ll.builtinModels), append(s.modelLayers, i)
		}
		if ll.kdl != nil {
			s.models, s.modelLayers = append(s.models, func() []*agents.ModelEntry { return ll.kdl.Models }), append(s.modelLayers, i)
			if st := ll.kdl.Settings.ExportBuiltIns; st.Set {
				s.settings.ExportBuiltIns = st
			}
		}
		add := func(spec *agents.Spec) {
			if cs, seen := contribs[spec.Name]; seen {
				contribs[spec.Name] = append(cs, contribution{ll, spec})
			} else {
				s.order = append(s.order, spec.Name)
				firsts = append(firsts, contribution{ll, spec})
				contribs[spec.Name] = firsts[len(firsts)-1 : len(firsts) : len(firsts)]
			}
		}
		for _, name := range slices.Sorted(maps.Keys(ll.conventionPrompts)) {
			rel := ll.conventionPrompts[name]
			spec := &agents.Spec{Name: name, Pos: agents.Pos{File: ll.FileLabel(rel)}}
			spec.Prompt.Put(agents.PromptRef{File: rel}, spec.Pos)
			add(spec)
		}
		definedBy := map[string]string{} // agent name -> markdown file
		for _, f := range ll.markdown {
			for _, spec := range f.Specs {
				if other, dup := definedBy[spec.Name]; dup {
					spec.Diags = append(spec.Diags, agents.Diagnostic{Severity: agents.Error, Pos: spec.Pos, Agent: spec.Name,
						Message: fmt.Sprintf("defined in two files of the %s layer: %s and %s", l.Name, other, f.Path), Hint: "delete or rename one"})
				}
				definedBy[spec.Name] = f.Path
			}
		}
		// Nor may config.kdl define again an agent a markdown file does:
		// merged, their tools lists would add up to more than either file
		// says (a tool's file linked into the layer widening the agent).
		// A node that only accepts differences of its files defines nothing.
		if ll.kdl != nil {
			for _, spec := range ll.kdl.Specs {
				if other, dup := definedBy[spec.Name]; dup && !spec.Complete().AcceptsOnly() {
					spec.Diags = slices.Insert(spec.Diags, 0, agents.Diagnostic{Severity: agents.Error, Pos: spec.Pos, Agent: spec.Name,
						Message: fmt.Sprintf("defined in two files of the %s layer: %s and %s", l.Name, other, ll.kdl.Path),
						Hint:    "keep one definition: move what one file says into the other, then remove it there"})
				}
			}
		}
		for _, f := range ll.files() {
			for _, d := range f.Diags {
				if d.Severity != agents.Error { // errors are in ll.fatal
					s.diags = append(s.diags, d)
				}
			}
			for _, spec := range f.Specs {
				add(spec)
			}
		}
	}
	s.diags = slices.Insert(s.diags, 0, s.fatal...)
	s.r = &resolution{contribs: contribs, done: s.agents, tracked: map[string]*Agent{}, visiting: map[string]bool{}, cycles: map[string]string{},
		policies: policies, catalog: s.Catalog, catalogThrough: s.catalogThrough}
	return s
}

// Catalog is the model catalog: the built-in one with every layer's
// model entries over it. It is built when first asked for: showing an
// agent does not need it.
func (s *Set) Catalog() *agents.Catalog {
	s.catMu.Lock()
	defer s.catMu.Unlock()
	if s.catalog == nil {
		entries := make([][]*agents.ModelEntry, len(s.models))
		for i, m := range s.models {
			entries[i] = m()
		}
		s.catalog = agents.NewCatalog(entries...)
	}
	return s.catalog
}

// catalogThrough is the catalog as the layers up to index made it: what
// a model name meant to the policy of that layer.
func (s *Set) catalogThrough(index int) *agents.Catalog {
	s.catMu.Lock()
	defer s.catMu.Unlock()
	if c, ok := s.catalogsThrough[index]; ok {
		return c // one per policy layer, however many agents ask
	}
	var entries [][]*agents.ModelEntry
	for i, m := range s.models {
		if s.modelLayers[i] <= index {
			entries = append(entries, m())
		}
	}
	if s.catalogsThrough == nil {
		s.catalogsThrough = map[int]*agents.Catalog{}
	}
	s.catalogsThrough[index] = agents.NewCatalog(entries...)
	return s.catalogsThrough[index]
}

// Exported says whether an export that names no agent writes a. A
// built-in agent is written as the config's export { built-in-agents }
// says; unsaid, only in a binnacle project or where a layer of the user's
// changes it (an accept alone changes nothing), since binnacle's agents run binnacle's commands (bn orient,
// bn ready) and are granted its MCP tools.
func (s *Set) Exported(a *Agent) bool {
	if !a.BuiltIn {
		return true
	}
	if st := s.settings.ExportBuiltIns; st.Set {
		return st.Value
	}
	return a.changed || s.BinnacleProject != nil && s.BinnacleProject()
}

// BuiltInsUnsaid says the config does not say whether built-in agents
// are exported, so that a report can say why they were left out.
func (s *Set) BuiltInsUnsaid() bool { return !s.settings.ExportBuiltIns.Set }

// resolveAll resolves every agent; Lookup resolves only what it needs, which
// keeps `show` on the launch path from resolving agents it never prints.
func (s *Set) resolveAll() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.all {
		return
	}
	s.all = true
	for _, name := range s.order {
		s.diags = append(s.diags, s.r.resolve(name, false).Diags...)
	}
}

// Fatal returns the layer-level errors. Commands that resolve agents must
// refuse to run while there are any.
func (s *Set) Fatal() error { return s.fatal.Err() }

// promptKey names a prompt file as a layer reads it.
type promptKey struct {
	layer    *loadedLayer
	rel      string
	fromBody bool
}

// CheckPrompts reads every prompt file that any layer names (not only the
// ones that win) and reports each that is missing, too large, not UTF-8 or
// outside its layer directory. It then warns of every agent whose prompt,
// filled with the agent's own placeholder texts, would be over the prompt
// cap: export skips such an agent and emit refuses it, so validate says so
// first. Each file is read once for both, and only the texts those agents
// need are kept.
func (s *Set) CheckPrompts() agents.Diagnostics {
	var filled []*Agent // agents with placeholder texts and a prompt
	need := map[promptKey]bool{}
	for _, name := range s.Names() {
		a, err := s.Lookup(name)
		if err != nil || len(a.Placeholders) == 0 || a.prompt.base == nil {
			continue
		}
		filled = append(filled, a)
		if b := a.prompt.base; b.ref.File != "" {
			need[promptKey{b.layer, b.ref.File, b.ref.FromBody}] = true
		}
	}
	out, read := s.readPrompts(need)
	for _, a := range filled {
		body := strings.TrimSpace(a.prompt.base.ref.Text)
		if b := a.prompt.base; b.ref.File != "" {
			r := read[promptKey{b.layer, b.ref.File, b.ref.FromBody}]
			if r.err != nil {
				continue // an error of its own, listed above
			}
			body = r.text
		}
		prompt, err := a.assemblePrompt(body)
		if err != nil {
			continue // an error of its own, which validate lists
		}
		var fe *agents.FillError
		if !errors.As(agents.CheckFill(prompt, a.Placeholders), &fe) {
			continue
		}
		field := agents.NodePlaceholders + "." + fe.Key
		out = append(out, agents.Diagnostic{Severity: agents.Warning, Pos: a.Provenance().Fields[field].Pos, Agent: a.Name, Field: field,
			Message: fe.Error() + "; export skips the agent until then"})
	}
	return out
}

// promptRead is what reading a prompt file gave.
type promptRead struct {
	text string
	err  error
}

// readPrompts reads every prompt file a contribution names, once each,
// reporting those it cannot read for each contribution that names them.
// It returns what each read gave, keeping the text only of those in need.
func (s *Set) readPrompts(need map[promptKey]bool) (agents.Diagnostics, map[promptKey]promptRead) {
	var out agents.Diagnostics
	read := map[promptKey]promptRead{}
	s.r.mu.Lock() // a contribution's spec is decoded whole on first use
	defer s.r.mu.Unlock()
	for _, name := range s.order {
		for _, c := range s.r.contribs[name] {
			p := c.spec().Prompt
			if !p.Set || p.Value.File == "" {
				continue
			}
			key := promptKey{c.layer, p.Value.File, p.Value.FromBody}
			r, done := read[key]
			if !done {
				r.text, r.err = c.layer.readPrompt(key.rel, key.fromBody)
				if !need[key] {
					r.text = "" // only texts the fill check reads are kept
				}
				read[key] = r
			}
			if r.err != nil {
				field := "prompt-file"
				if p.Value.FromBody {
					field = "prompt" // the body of a markdown agent
				}
				out = append(out, agents.Diagnostic{Severity: agents.Error, Pos: p.Pos, Agent: name, Field: field, Message: r.err.Error()})
			}
		}
	}
	return out, read
}

// CheckModels warns of every model an agent names that the catalog does
// not know, with the nearest name it does: export leaves such a model
// out, so a misspelt one would silently give every tool its default. A warning, not an
// error, since new models appear before bn knows them, and a model node
// maps one.
func (s *Set) CheckModels() agents.Diagnostics {
	cat := s.Catalog()
	var names []string
	for _, e := range cat.Entries() {
		names = append(names, e.ID)
		for _, tool := range slices.Sorted(maps.Keys(e.Tools)) {
			names = append(names, e.Tools[tool]...)
		}
	}
	// Another version is no typo: claude-opus-4-0 is not claude-opus-4-8.
	digits := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, s)
	}
	var out agents.Diagnostics
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	for _, name := range s.order {
		for _, c := range s.r.contribs[name] {
			for _, v := range c.spec().Values {
				model, _ := v.Value.(string)
				if v.Field != agents.FieldModel || model == "" {
					continue
				}
				if _, ok := cat.Lookup(model, ""); ok {
					continue
				}
				hint := fmt.Sprintf("if it is a model bn does not know yet, add a model %q node that spells it for each tool", model)
				sameVersion := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return digits(n) != digits(model) })
				if near := agents.DidYouMean(model, sameVersion); near != "" {
					hint = near + " Or, " + hint
				}
				out = append(out, agents.Diagnostic{Severity: agents.Warning, Pos: v.Pos, Agent: name, Field: "model",
					Message: fmt.Sprintf("model %q is not in bn's model catalog, so export leaves it out where a tool's own section names none", model), Hint: hint})
			}
		}
	}
	return out
}

// Diagnostics returns every diagnostic from every layer file and agent.
func (s *Set) Diagnostics() agents.Diagnostics {
	s.resolveAll()
	return s.diags
}

// Names lists the agents that exist (not disabled), in definition order:
// first by the layer that introduced them, then by position. Agents with
// errors are included.
func (s *Set) Names() []string {
	s.resolveAll()
	var out []string
	for _, n := range s.order {
		if !s.r.resolve(n, false).Disabled {
			out = append(out, n)
		}
	}
	return out
}

// Len is how many agents the layers mention, disabled ones included: at
// least as many as Names lists.
func (s *Set) Len() int { return len(s.order) }

// Each hands the agents Names lists to fn, in that order, resolving them
// one at a time and keeping none: a set of thousands of agents is never
// held resolved whole. An agent handed to fn is valid only until fn
// returns (the next may reuse its memory); one asked for again is
// resolved again.
func (s *Set) Each(fn func(*Agent)) {
	var scratch Agent
	for _, n := range s.order {
		s.r.mu.Lock()
		a, kept := s.agents[n]
		if !kept {
			s.r.build(&scratch, n, false)
			a = &scratch
		}
		s.r.mu.Unlock()
		if !a.Disabled {
			fn(a)
		}
	}
}

// Lookup returns the named agent, failing if it is unknown, disabled or
// broken. The error lists the available agents and the closest match.
func (s *Set) Lookup(name string) (*Agent, error) {
	a, ok := s.Agent(name)
	if !ok {
		return nil, s.unknown(name)
	}
	if a.Disabled {
		o := a.Provenance().Fields["disable"]
		return nil, fmt.Errorf("agent %q is disabled by %s (%s layer); set disable #false in a higher layer to bring it back", name, o.Pos, o.Layer)
	}
	if err := a.Err(); err != nil {
		return nil, err
	}
	return a, nil
}

// DefinedBelow names the lowest layer below l that defines the agent, if
// one does: a definition written into l merges into what that layer says
// unless it replaces it.
func (s *Set) DefinedBelow(name string, l LayerName) (LayerName, bool) {
	s.r.mu.Lock()
	defer s.r.mu.Unlock()
	for _, c := range s.r.contribs[name] {
		if c.layer.Name.Below(l) {
			return c.layer.Name, true
		}
	}
	return "", false
}

// Agent returns the named agent even when it failed, for reporting.
func (s *Set) Agent(name string) (*Agent, bool) {
	if _, ok := s.r.contribs[name]; !ok {
		return nil, false
	}
	return s.r.resolve(name, false), true
}

func (s *Set) unknown(name string) error {
	names := s.Names()
	msg := fmt.Sprintf("unknown agent %q; available: %s", name, strings.Join(names, ", "))
	if c := agents.Closest(name, names); c != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", c)
	}
	return fmt.Errorf("%s", msg)
}

// resolution resolves agents on demand. mu guards what resolving fills
// (done, tracked, visiting, chain, cycles, each agent's provenance) and
// the contributions' specs, decoded whole on first use.
type resolution struct {
	mu       sync.Mutex
	contribs map[string][]contribution
	done     map[string]*Agent // resolved without provenance
	tracked  map[string]*Agent // resolved again with provenance, on demand
	visiting map[string]bool
	chain    []string
	// cycles maps each agent found on an extends cycle to the cycle.
	cycles map[string]string
	// policies, in layer order, bind every agent.
	policies       []policyAt
	catalog        func() *agents.Catalog
	catalogThrough func(layer int) *agents.Catalog
}

// newAgentDefaults are what an agent that neither ships with bn nor
// extends another starts from. Its tools are unrestricted until a layer
// says otherwise, as an agent file without a tools field is in Claude
// Code, Copilot and OpenCode.
func newAgentDefaults(name string) agents.Definition {
	return agents.Definition{Name: name, Execution: agents.Host, Lifecycle: agents.Stateless, ShowReasoning: true, RenderMarkdown: true,
		Tools: agents.Tools{All: true}}
}

// resolve is the named agent, resolved once (with provenance when
// track): safe for concurrent use.
func (r *resolution) resolve(name string, track bool) *Agent {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.resolveLocked(name, track)
}

// resolveLocked is resolve, with mu held.
func (r *resolution) resolveLocked(name string, track bool) *Agent {
	memo := r.done
	if track {
		memo = r.tracked
	}
	if a, ok := memo[name]; ok {
		return a
	}
	a := &Agent{}
	r.build(a, name, track)
	memo[name] = a
	return a
}

// build resolves the named agent into a, which it overwrites; mu is held.
func (r *resolution) build(a *Agent, name string, track bool) {
	cs := r.contribs[name]
	*a = Agent{Definition: newAgentDefaults(name), r: r, BuiltIn: cs[0].layer.Name == Embedded, toolsUnsaid: true}
	if track {
		a.prov = &Provenance{Fields: map[string]Origin{}, Allow: map[string]Origin{}, Deny: map[string]Origin{}, Ask: map[string]Origin{}}
	}
	fail := func(pos agents.Pos, field, msg, hint string) {
		a.Diags = append(a.Diags, agents.Diagnostic{Severity: agents.Error, Pos: pos, Agent: name, Field: field, Message: msg, Hint: hint})
	}
	// The agent starts at the last layer that extends another agent or
	// replaces it whole: what layers below that said is not merged in.
	start := 0
	for i, c := range cs {
		a.Diags = append(a.Diags, c.spec().Diags...)
		if c.spec().Extends.Set || c.spec().Replace.Value {
			start = i
		}
	}
	a.BuiltIn = cs[start].layer.Name == Embedded
	if r := cs[start].spec().Replace; r.Value && a.prov != nil {
		a.prov.Fields[agents.NodeReplace] = Origin{Layer: cs[start].layer.Name, Pos: r.Pos}
	}
	if ext := cs[start].spec().Extends; ext.Set {
		r.visiting[name] = true
		r.chain = append(r.chain, name)
		base := r.lookupBase(ext.Value, track)
		if base == nil && r.visiting[ext.Value] {
			cycle := append(r.cycleFrom(ext.Value), ext.Value)
			for _, member := range cycle {
				r.cycles[member] = strings.Join(cycle, " -> ")
			}
		}
		r.chain = r.chain[:len(r.chain)-1]
		delete(r.visiting, name)
		switch {
		case r.cycles[name] != "":
			fail(ext.Pos, "extends", fmt.Sprintf("extends %q, which leads back to %q (cycle: %s)", ext.Value, name, r.cycles[name]), "break the cycle")
		case base == nil:
			fail(ext.Pos, "extends", fmt.Sprintf("extends %q, which is not defined in any layer", ext.Value), agents.DidYouMean(ext.Value, r.knownNames()))
		case base.Disabled:
			fail(ext.Pos, "extends", fmt.Sprintf("extends %q, which is disabled", ext.Value), "extend another agent or re-enable it")
		case base.Err() != nil:
			fail(ext.Pos, "extends", fmt.Sprintf("extends %q, which has errors", ext.Value), "fix that agent first")
		default:
			a.inherit(base)
		}
		a.Extends = ext.Value
		if a.prov != nil {
			a.prov.Fields[agents.NodeExtends] = Origin{Layer: cs[start].layer.Name, Pos: ext.Pos}
		}
	}
	for _, c := range cs[start:] {
		a.apply(c)
		a.checkPolicies(c)
	}
	a.applyPolicies()
	// The introducing layer is where the agent first appears, or the layer
	// that made it extend another; tool changes above it count as merged.
	introducedIn := cs[start].layer.Name
	for _, c := range cs[start:] {
		if c.layer.Name != introducedIn && !c.spec().Tools.Empty() {
			a.ToolsMerged = true
		}
	}
	last := cs[len(cs)-1]
	a.Layer, a.Source = last.layer.Name, last.spec().Pos.File
	if a.Layer == Embedded {
		a.Source = string(Embedded) // as binnacle reports it
	}
	if !a.Disabled && len(a.Diags.Errors()) == 0 && (a.Description == "" || a.prompt.base == nil) {
		// A new agent that lacks these is most often a misspelt one meant
		// to change a defined agent (binnacle dropped such a node unsaid).
		typo := agents.DidYouMean(name, slices.DeleteFunc(r.knownNames(), func(n string) bool { return n == name }))
		if typo != "" {
			typo += " otherwise "
		}
		if a.Description == "" {
			fail(cs[0].spec().Pos, "description", "missing: every agent needs a description", typo+`add description "…"`)
		}
		if a.prompt.base == nil {
			fail(cs[0].spec().Pos, "prompt", "missing: every agent needs a prompt",
				fmt.Sprintf("%sadd prompt-file \"%s.md\", a file %s/prompt.md, or a markdown body", typo, name, name))
		}
	}
	for _, d := range a.Tools.Deny {
		if slices.Contains(a.Tools.Allow, d) {
			o := a.provenance().Allow[d]
			a.Diags = append(a.Diags, agents.Diagnostic{Severity: agents.Warning, Pos: o.Pos, Agent: name, Field: "tools",
				Message: fmt.Sprintf("%q is both allowed and denied; deny wins", d), Hint: "remove it from one list"})
		}
	}
}

func (r *resolution) lookupBase(name string, track bool) *Agent {
	if r.visiting[name] {
		return nil
	}
	if _, ok := r.contribs[name]; !ok {
		return nil
	}
	return r.resolveLocked(name, track)
}

func (r *resolution) cycleFrom(name string) []string {
	i := slices.Index(r.chain, name)
	if i < 0 {
		return []string{name}
	}
	return slices.Clone(r.chain[i:])
}

func (r *resolution) knownNames() []string {
	names := make([]string, 0, len(r.contribs))
	for n := range r.contribs {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// inherit starts a from a resolved base agent.
func (a *Agent) inherit(base *Agent) {
	name := a.Name
	a.Definition = base.Definition.Clone()
	a.Name = name
	a.toolsUnsaid = base.toolsUnsaid
	a.Hidden = false
	// The base's accepted differences are its own: a fingerprint names
	// the agent.
	a.Accepts = nil
	// A tool's name for the base is not this agent's name there.
	for _, t := range a.Targets {
		t.ID = ""
	}
	if a.prov != nil {
		via := func(o Origin) Origin {
			if o.Via == "" {
				o.Via = base.Name
			}
			return o
		}
		for k, o := range base.prov.Fields {
			if k != agents.NodeDisable && k != agents.FieldHidden.Name && !strings.HasSuffix(k, "."+config.SectionID) {
				a.prov.Fields[k] = via(o)
			}
		}
		for k, o := range base.prov.Allow {
			a.prov.Allow[k] = via(o)
		}
		for k, o := range base.prov.Deny {
			a.prov.Deny[k] = via(o)
		}
		for k, o := range base.prov.Ask {
			a.prov.Ask[k] = via(o)
		}
	}
	a.prompt = promptPlan{base: base.prompt.base, prepends: slices.Clone(base.prompt.prepends), appends: slices.Clone(base.prompt.appends)}
}

// apply lays one layer's spec over the agent.
func (a *Agent) apply(c contribution) {
	s, layer := c.spec(), c.layer.Name
	a.Sources = append(a.Sources, Source{Layer: layer, File: s.Pos.File})
	a.changed = a.changed || len(a.Sources) > 1 && !s.AcceptsOnly()
	set := func(field string, o agents.Pos) {
		if a.prov != nil {
			a.prov.Fields[field] = Origin{Layer: layer, Pos: o}
		}
	}
	for _, v := range s.Values {
		v.Field.Apply(&a.Definition, v.Value)
		set(v.Field.Name, v.Pos)
		if v.Field == agents.FieldModel {
			a.modelPos = v.Pos
		}
	}
	if s.Disable.Set {
		a.Disabled = s.Disable.Value
		set(agents.NodeDisable, s.Disable.Pos)
	}
	a.applyTools(layer, s)
	var more agents.SpecMore
	if s.More != nil {
		more = *s.More
	}
	for _, op := range more.MCP {
		i := slices.IndexFunc(a.MCPServers, func(m agents.MCPServer) bool { return m.Name == op.Server.Name })
		if i >= 0 {
			a.MCPServers[i] = op.Server
		} else {
			a.MCPServers = append(a.MCPServers, op.Server)
		}
		set(agents.NodeMCPServer+"."+op.Server.Name, op.Pos)
	}
	for _, ph := range more.Placeholders {
		if a.Placeholders == nil {
			a.Placeholders = map[string]string{}
		}
		a.Placeholders[ph.Key] = ph.Value.(string)
		set(agents.NodePlaceholders+"."+ph.Key, ph.Pos)
	}
	for _, acc := range more.Accepts {
		if !slices.ContainsFunc(a.Accepts, func(x agents.Acceptance) bool { return x.Fingerprint == acc.Text }) {
			a.Accepts = append(a.Accepts, agents.Acceptance{Fingerprint: acc.Text, Layer: string(layer), Pos: acc.Pos})
		}
	}
	if len(more.Targets) > 0 { // sorting none still allocates
		for _, tool := range slices.Sorted(maps.Keys(more.Targets)) {
			a.applyTarget(tool, more.Targets[tool], set)
		}
	}
	if s.Prompt.Set {
		a.prompt = promptPlan{base: &promptPart{layer: c.layer, ref: s.Prompt.Value}}
		set(agents.NodePrompt, s.Prompt.Pos)
	}
	if more.PromptPrepend.Set {
		a.prompt.prepends = append(a.prompt.prepends, more.PromptPrepend.Value)
		set(agents.NodePromptPrepend, more.PromptPrepend.Pos)
	}
	if more.PromptAppend.Set {
		a.prompt.appends = append(a.prompt.appends, more.PromptAppend.Value)
		set(agents.NodePromptAppend, more.PromptAppend.Pos)
	}
}

// applyTarget merges a tool's section: each key replaces, remove deletes.
func (a *Agent) applyTarget(tool string, ops *agents.TargetOps, set func(string, agents.Pos)) {
	t := a.Target(tool)
	if ops.ID.Set {
		t.ID = ops.ID.Value
		set(tool+"."+config.SectionID, ops.ID.Pos)
	}
	if ops.Partial.Set {
		t.Partial = ops.Partial.Value
		set(tool+"."+config.SectionPartial, ops.Partial.Pos)
	}
	for _, r := range ops.Removals {
		switch r.Text {
		case config.SectionID:
			t.ID = ""
		case config.SectionPartial:
			t.Partial = ""
		default:
			if _, ok := t.Fields.Get(r.Text); !ok {
				a.Diags = append(a.Diags, agents.Diagnostic{Severity: agents.Warning, Pos: r.Pos, Agent: a.Name, Field: tool + ".remove",
					Message: fmt.Sprintf("%s has no field %q to remove", tool, r.Text), Hint: agents.DidYouMean(r.Text, t.Fields.Keys)})
			}
			t.Fields.Delete(r.Text)
		}
	}
	for _, f := range ops.Fields {
		t.Fields.Set(f.Key, f.Value)
		set(tool+"."+f.Key, f.Pos)
	}
}

func (a *Agent) applyTools(layer LayerName, s *agents.Spec) {
	ops := s.Tools
	if a.toolsUnsaid && !ops.Empty() {
		a.toolsUnsaid = false
		if len(ops.Allow) > 0 && !ops.All.Set {
			a.Tools.All = false // the first allow list says what the agent has
		}
	}
	if ops.Reset.Set && ops.Reset.Value {
		a.Tools = agents.Tools{}
		if a.prov != nil {
			clear(a.prov.Allow)
			clear(a.prov.Deny)
			clear(a.prov.Ask)
			a.prov.Fields["tools.reset"] = Origin{Layer: layer, Pos: ops.Reset.Pos}
		}
	}
	if ops.All.Set {
		a.Tools.All = ops.All.Value
		if a.Tools.All {
			a.Tools.Allow = nil
			if a.prov != nil {
				clear(a.prov.Allow)
			}
		}
		if a.prov != nil {
			a.prov.Fields["tools.all"] = Origin{Layer: layer, Pos: ops.All.Pos}
		}
	}
	if len(ops.Remove) > 0 {
		allow, deny, ask := setOf(a.Tools.Allow), setOf(a.Tools.Deny), setOf(a.Tools.Ask)
		removed := make(map[string]bool, len(ops.Remove))
		for _, p := range ops.Remove {
			if !allow[p.Text] && !deny[p.Text] && !ask[p.Text] {
				a.Diags = append(a.Diags, agents.Diagnostic{Severity: agents.Warning, Pos: p.Pos, Agent: a.Name, Field: "tools.remove",
					Message: fmt.Sprintf("%q is in no inherited list; nothing removed", p.Text),
					Hint:    agents.DidYouMean(p.Text, slices.Concat(a.Tools.Allow, a.Tools.Deny, a.Tools.Ask))})
			}
			removed[p.Text] = true
			if a.prov != nil {
				delete(a.prov.Allow, p.Text)
				delete(a.prov.Deny, p.Text)
				delete(a.prov.Ask, p.Text)
			}
		}
		isRemoved := func(x string) bool { return removed[x] }
		a.Tools.Allow = slices.DeleteFunc(a.Tools.Allow, isRemoved)
		a.Tools.Deny = slices.DeleteFunc(a.Tools.Deny, isRemoved)
		a.Tools.Ask = slices.DeleteFunc(a.Tools.Ask, isRemoved)
	}
	// Sets, not slices.Contains: a list of thousands of patterns must not
	// take quadratic time on every check.
	allow, deny, ask := setOf(a.Tools.Allow), setOf(a.Tools.Deny), setOf(a.Tools.Ask)
	add := func(list *[]string, in map[string]bool, prov map[string]Origin, p agents.Pattern) {
		if in[p.Text] {
			return
		}
		in[p.Text] = true
		*list = append(*list, p.Text)
		if a.prov != nil {
			prov[p.Text] = Origin{Layer: layer, Pos: p.Pos}
		}
	}
	var provAllow, provDeny, provAsk map[string]Origin
	if a.prov != nil {
		provAllow, provDeny, provAsk = a.prov.Allow, a.prov.Deny, a.prov.Ask
	}
	a.Tools.Allow = slices.Grow(a.Tools.Allow, len(ops.Allow))
	a.Tools.Deny = slices.Grow(a.Tools.Deny, len(ops.Deny))
	for _, p := range ops.Allow {
		if a.Tools.All {
			a.Diags = append(a.Diags, agents.Diagnostic{Severity: agents.Warning, Pos: p.Pos, Agent: a.Name, Field: "tools.allow",
				Message: fmt.Sprintf("allow %q changes nothing: the agent is unrestricted (every tool)", p.Text),
				Hint:    "remove it, or start the layer's tools with reset to give a list"})
			continue
		}
		add(&a.Tools.Allow, allow, provAllow, p)
	}
	// An ask grants its pattern as an allow does (where the agent is not
	// unrestricted already), and asks first.
	for _, p := range ops.Ask {
		if !a.Tools.All {
			add(&a.Tools.Allow, allow, provAllow, p)
		}
		add(&a.Tools.Ask, ask, provAsk, p)
	}
	for _, p := range ops.Deny {
		add(&a.Tools.Deny, deny, provDeny, p)
	}
}

// setOf is the set of a list's strings.
func setOf(list []string) map[string]bool {
	set := make(map[string]bool, len(list))
	for _, x := range list {
		set[x] = true
	}
	return set
}

// LoadError is the fail-closed refusal: a layer file does not load, so no
// agent may be trusted. It shows the first problems.
type LoadError struct{ Err error }

// maxShownErrors bounds the problems a failing command prints; validate
// prints them all.
const maxShownErrors = 10

func (e LoadError) Error() string {
	msg := "cannot load agent definitions; fix these files first (bn config agents validate lists every problem):"
	var ds agents.Diagnostics
	if !errors.As(e.Err, &ds) {
		var d agents.Diagnostic
		if errors.As(e.Err, &d) {
			return msg + "\n" + d.Error()
		}
		return msg + "\n" + e.Err.Error()
	}
	for i, d := range ds {
		if i == maxShownErrors {
			return msg + fmt.Sprintf("\n… and %d more", len(ds)-i)
		}
		msg += "\n" + d.Error()
	}
	return msg
}

func (e LoadError) Unwrap() error { return e.Err }
