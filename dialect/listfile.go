package dialect

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// listFile is what the markdown agent files of several tools share: a
// name, a description, a list of tool names (for some, a deny list too),
// a model, perhaps a reasoning effort and per-agent MCP servers, and the
// body as the prompt. Each such tool's file fills one in with what its
// tool does.
type listFile struct {
	info  *Info
	tools string // the allow list's key
	deny  string // the deny list's key; "" when the files have none
	// noTools: a file without the tools key gives the agent no tool
	// (else every tool). emptyAll: an empty list is every tool.
	// denyWins: given both lists, the tool reads only the deny list;
	// allowWins: given a non-empty allow list, only that.
	noTools, emptyAll, denyWins, allowWins bool
	// defaults are the tools the tool gives an agent whose file names
	// none (a missing key or an empty list): not every tool, and not
	// none (Pi's read, bash, edit and write).
	defaults []string
	// comma: the tool reads its lists as comma strings only (a YAML
	// list makes it fail), so bn writes them so.
	comma bool
	star  string // the entry that means every tool; "" when none
	// entry reads one entry bn's vocabulary lookup does not know (an MCP
	// name, a category); nil or ok false keeps it as the tool's own.
	entry func(r reader, name string) ([]string, bool)
	// strict: a name the tool does not know makes it reject the file.
	// lenient: a name it cannot resolve (one not in the vocabulary) makes
	// it ignore the whole allow list and give every tool.
	strict, lenient bool
	// checkName refuses a name the tool refuses (nil: any); minPrompt is
	// the shortest prompt it loads.
	checkName func(name string) error
	minPrompt int
	// mcp writes an MCP server or tool as the lists name it (nil: they
	// cannot).
	mcp   func(server, tool string) (string, bool)
	model string // the model key
	// provider, when set, is the key of the model's provider: bn's
	// provider/model spelling is written as the two keys and read back
	// from them.
	provider string
	effort   string // the reasoning effort key ("" none) and its levels
	efforts  []string
	servers  string // the per-agent MCP servers key ("" none)
	// has are bn fields the files hold besides those above; maxTurns
	// their key for max-turns.
	has      carried
	maxTurns string
	// rules is the key of permission rules beside the lists (Kiro's
	// permissions): readRules adds what they deny, writeRules takes out of
	// t what they can say and returns them (nil: none).
	rules      string
	readRules  func(r reader, v any, t *agents.Tools) error
	writeRules func(t *agents.Tools) (any, []Loss)
	// json: the files are JSON objects, the prompt under "prompt".
	json bool
	// trusted is the key of the list of tools used without asking (the
	// Kiro CLI's allowedTools; "" none): a tool in the allow list and not
	// in it asks the user before each use.
	trusted string
}

// read reads one file; extra reads the tool's other keys.
func (l *listFile) read(src Source, cat *agents.Catalog, extra func(f *fields, im *Imported) error) (*Imported, error) {
	im := &Imported{Format: l.info.Name, File: src.Path}
	f, err := readMarkdown(src, im)
	if err != nil {
		return nil, err
	}
	return l.readFields(im, f, src, cat, extra)
}

// readFields reads a file's keys, whatever its format.
func (l *listFile) readFields(im *Imported, f *fields, src Source, cat *agents.Catalog, extra func(f *fields, im *Imported) error) (*Imported, error) {
	info := l.info
	name := f.str("name")
	if name == "" && info.NamedByFile {
		name = strings.TrimSuffix(path.Clean(strings.ReplaceAll(src.Rel, "\\", "/")), info.Ext)
	}
	if l.checkName != nil {
		if err := l.checkName(name); err != nil {
			return nil, fmt.Errorf("%v: %s refuses the agent", err, info.Title)
		}
	}
	if err := setIdentity(im, info, name, f.description(), f.body, errEmptyBody); err != nil {
		return nil, err
	}
	if _, err := l.info.checkTemplate(f.body); err != nil {
		return nil, err
	}
	if err := l.checkPrompt(f.body); err != nil {
		return nil, err
	}
	tools, hasTools := f.keep(im, info.Name, l.tools)
	var denied any
	hasDeny := false
	if l.deny != "" {
		denied, hasDeny = f.keep(im, info.Name, l.deny)
	}
	var err error
	if im.Def.Tools, err = l.readTools(reader{info, im}, tools, hasTools, denied, hasDeny); err != nil {
		return nil, err
	}
	if l.rules != "" {
		if v, ok := f.keep(im, info.Name, l.rules); ok {
			if err := l.readRules(reader{info, im}, v, &im.Def.Tools); err != nil {
				return nil, err
			}
		}
	}
	var trusted any
	if l.trusted != "" {
		trusted, _ = f.keep(im, info.Name, l.trusted)
	}
	if m, ok := f.take(l.model); ok && l.model != "" {
		readModel(im, info.Name, l.model, l.joinProvider(f, im, m), cat)
	} else if l.provider != "" {
		if p, ok := f.take(l.provider); ok {
			im.drop("%s %v without %s not imported: bn names a model, not a provider", l.provider, agents.Plain(p), l.model)
		}
	}
	if l.effort != "" {
		if v, ok := f.keep(im, info.Name, l.effort); ok {
			readEffort(im, info.Name, l.effort, fmt.Sprint(v))
		}
	}
	if l.maxTurns != "" {
		if v, ok := f.take(l.maxTurns); ok {
			if n, ok := v.(int64); ok && n > 0 {
				im.Def.MaxTurns = &n
			} else {
				im.drop("%s %v not imported: expects a whole number", l.maxTurns, v)
			}
		}
	}
	if l.servers != "" {
		if v, ok := f.take(l.servers); ok {
			readMCPServers(im, info, v)
		}
	}
	// After the servers: "*" asks of their tools too.
	if l.trusted != "" {
		if err := l.readTrusted(reader{info, im}, tools, trusted, im.Def.MCPServers, &im.Def.Tools); err != nil {
			return nil, err
		}
	}
	if extra != nil {
		if err := extra(f, im); err != nil {
			return nil, err
		}
	}
	if info.Hook != nil {
		takeOwnHook(f, im, info, src)
	}
	f.rest(im, info)
	return im, nil
}

// readTools reads the allow and deny lists into bn tools.
func (l *listFile) readTools(r reader, tools any, hasTools bool, denied any, hasDeny bool) (agents.Tools, error) {
	info := l.info
	t := agents.Tools{All: !hasTools && !l.noTools && l.defaults == nil}
	if !hasTools && l.noTools {
		r.im.note("no %s: %s gives the agent no tool", l.tools, info.Title)
	}
	if _, list := tools.([]any); list && l.comma {
		return t, fmt.Errorf("%s is a YAML list; %s reads it as a comma string only, and fails on a list: write %s: a, b", l.tools, info.Title, l.tools)
	}
	allow, err := r.names(l.tools, tools, false)
	if err != nil {
		return t, err
	}
	if l.defaults != nil && len(allow) == 0 {
		if hasTools {
			r.im.note("%s is empty, which %s reads as its default tools: %s", l.tools, info.Title, strings.Join(l.defaults, ", "))
		} else {
			r.im.note("no %s: %s gives the agent its default tools: %s", l.tools, info.Title, strings.Join(l.defaults, ", "))
		}
		allow = l.defaults
	}
	if bad := l.unresolved(r, allow); bad != "" {
		why := ""
		if strings.Contains(bad, "(") {
			why = fmt.Sprintf(" (bn reads an entry with arguments as unresolved, since %s's documentation does not say it resolves one: the wider reading)", info.Title)
		}
		r.im.note("%s names %q, which %s does not resolve%s, so it ignores the whole list and gives the agent every tool; bn reads every tool: to limit them, name only %s's tools",
			l.tools, bad, info.Title, why, info.Title)
		t.All, allow = true, nil
	}
	if hasTools && l.emptyAll && len(allow) == 0 {
		r.im.note("%s is empty, which %s reads as every tool", l.tools, info.Title)
		t.All = true
	}
	if hasTools && hasDeny && l.denyWins && len(allow) > 0 {
		r.im.note("%s is given with %s, so %s ignores it: the agent has every tool but those %s names", l.tools, l.deny, info.Title, l.deny)
		t.All, allow = true, nil
	}
	if hasDeny && l.allowWins && len(allow) > 0 {
		r.im.note("%s is given with %s, so %s ignores %s: the agent has only the tools %s names", l.deny, l.tools, info.Title, l.deny, l.tools)
		denied = nil
	}
	for _, name := range allow {
		if l.star != "" && name == l.star {
			t.All = true
			continue
		}
		p, err := l.pattern(r, name)
		if err != nil {
			return t, err
		}
		t.Allow = appendNew(t.Allow, p...)
	}
	if t.All {
		t.Allow = nil
	}
	deny, err := r.names(l.deny, denied, true)
	if err != nil {
		return t, err
	}
	for _, name := range deny {
		p, err := l.pattern(r, name)
		if err != nil {
			return t, err
		}
		t.Deny = appendNew(t.Deny, p...)
		l.stillGranted(r, name, deny)
	}
	return t, nil
}

// unresolved is the first allow entry a lenient tool cannot resolve ("":
// none, or the tool is not lenient).
func (l *listFile) unresolved(r reader, allow []string) string {
	if !l.lenient {
		return ""
	}
	for _, name := range allow {
		if _, ok := r.word(name, false); !ok {
			return name
		}
	}
	return ""
}

// stillGranted notes a kind bn reads as denied that another of the
// tool's tools, left allowed, still grants (Qwen Code's monitor runs
// commands with run_shell_command denied): bn keeps the deny the file
// asks for, and says the tool does not apply it.
func (l *listFile) stillGranted(r reader, name string, deny []string) {
	w, ok := r.word(name, false)
	if !ok {
		return
	}
	for _, k := range w.Kinds {
		var others []string
		for _, o := range l.info.Vocabulary {
			if !o.Legacy && slices.Contains(o.Kinds, k) && !slices.Contains(deny, o.Name) {
				others = append(others, o.Name)
			}
		}
		if len(others) > 0 && !slices.Contains(r.im.Narrowed, k) {
			r.im.Narrowed = append(r.im.Narrowed, k)
			r.im.note("%s %s: bn reads %s as denied, as the file asks, though %s still offers %s", l.deny, name, k, l.info.Title, strings.Join(others, ", "))
		}
	}
}

// pattern maps one list entry to bn patterns.
func (l *listFile) pattern(r reader, name string) ([]string, error) {
	if w, ok := r.word(name, false); ok {
		return kindPatterns(w.Kinds, ""), nil
	}
	if l.entry != nil {
		if p, ok := l.entry(r, name); ok {
			return p, nil
		}
	}
	if l.strict && !slices.Contains(l.info.Own, name) {
		return nil, fmt.Errorf("%s: unknown tool %q; %s's validator refuses the agent", l.tools, name, l.info.Title)
	}
	return []string{r.native(name)}, nil
}

// checkPrompt refuses a prompt shorter than the tool loads.
func (l *listFile) checkPrompt(prompt string) error {
	if n := len([]rune(strings.TrimSpace(prompt))); n < l.minPrompt {
		return fmt.Errorf("the prompt has %d characters; %s refuses an agent whose prompt has fewer than %d: lengthen it", n, l.info.Title, l.minPrompt)
	}
	return nil
}

// render writes a definition; extra writes the tool's other keys.
func (l *listFile) render(def agents.Definition, id, marker string, cat *agents.Catalog, extra func(d *frontmatterDoc) []Loss) (Rendered, error) {
	info := l.info
	if err := l.checkPrompt(def.Prompt); err != nil {
		return Rendered{}, err
	}
	filled, err := info.checkTemplate(def.Prompt)
	if err != nil {
		return Rendered{}, err
	}
	if l.checkName != nil {
		if err := l.checkName(id); err != nil {
			return Rendered{}, fmt.Errorf("%v, which %s refuses; give it another name there: %s { id \"…\" }", err, info.Title, info.Name)
		}
	}
	d := &frontmatterDoc{}
	d.set("name", id)
	d.set("description", def.Description)
	hooked := hookedKinds(info, &def)
	tools, deny, rules, trusted, losses := l.writeTools(&def, hooked)
	losses = append(filled, losses...)
	if tools != nil {
		d.set(l.tools, tools)
	}
	if trusted != nil {
		d.set(l.trusted, trusted)
	}
	if deny != nil {
		d.set(l.deny, deny)
	}
	if rules != nil {
		d.set(l.rules, rules)
	}
	if l.model != "" {
		model, ml := writeModel(&def, info, l.model, cat)
		losses = append(losses, ml...)
		l.setModel(d, model)
	} else if def.Model != "" {
		losses = append(losses, Loss{Field: "model", Kind: Dropped, Detail: fmt.Sprintf("%s agent files have no model: the agent runs on the session's", info.Title)})
	}
	has := carried{"mode": def.Mode != "primary"}
	for k, v := range l.has {
		has[k] = v
	}
	if l.effort != "" {
		has["reasoning-effort"] = true
		effort, el := writeEffort(def.ReasoningEffort, l.efforts, l.effort, info)
		losses = append(losses, el...)
		if effort == "none" && !slices.Contains(l.efforts, "none") {
			effort = "off"
		}
		if effort != "" {
			d.set(l.effort, effort)
		}
	}
	if l.maxTurns != "" && def.MaxTurns != nil {
		has["max-turns"] = true
		d.set(l.maxTurns, *def.MaxTurns)
	}
	if l.servers != "" && len(def.MCPServers) > 0 {
		has[agents.NodeMCPServer] = true
		m, ml := mcpServerMap(&def, info)
		losses = append(losses, ml...)
		if m.Len() > 0 {
			d.set(l.servers, m)
		}
	}
	if extra != nil {
		losses = append(losses, extra(d)...)
	}
	losses = append(losses, ownFields(d, &def, info, id)...)
	losses = append(losses, otherLosses(&def, info, has)...)
	if def.Mode == "primary" {
		losses = append(losses, Loss{Field: "mode", Kind: Changed, Detail: info.Title + " runs agent files as sub-agents"})
	}
	if l.json {
		content, err := d.json(marker, "prompt", def.Prompt)
		return Rendered{Content: content, Losses: losses}, err
	}
	content, err := d.markdown(marker, def.Prompt)
	return Rendered{Content: content, Losses: losses}, err
}

// writeTools returns the allow list, deny list, rules and trusted list
// values (nil: leave out); hooked are the kinds a hook written with the
// file decides.
func (l *listFile) writeTools(def *agents.Definition, hooked []agents.Kind) (any, any, any, any, []Loss) {
	info := l.info
	hints := def.TargetOf(info.Name).Fields
	toolsHint, hasTools := hints.Get(l.tools)
	var denyHint, rulesHint, trustedHint any
	hasDeny, hasRules := false, false
	if l.deny != "" {
		denyHint, hasDeny = hints.Get(l.deny)
	}
	if l.rules != "" {
		rulesHint, hasRules = hints.Get(l.rules)
	}
	if l.trusted != "" {
		trustedHint, _ = hints.Get(l.trusted)
	}
	if hasTools || hasDeny || hasRules {
		r := reader{info, &Imported{}}
		back, err := l.readTools(r, toolsHint, hasTools, denyHint, hasDeny)
		if err == nil && hasRules {
			err = l.readRules(r, rulesHint, &back)
		}
		if err == nil && l.trusted != "" {
			err = l.readTrusted(r, toolsHint, trustedHint, def.MCPServers, &back)
		}
		// A list the tool ignores is not written back, though it means
		// the same: bn writes only names the tool resolves.
		hinted, _ := r.names(l.tools, toolsHint, false)
		if err == nil && back.Equal(def.Tools) && l.unresolved(r, hinted) == "" {
			return toolsHint, denyHint, rulesHint, trustedHint, nil
		}
	}
	t := def.Tools
	var rules any
	var ruleLosses []Loss
	if l.writeRules != nil {
		t = t.Clone()
		rules, ruleLosses = l.writeRules(&t)
	}
	partial := info.Partial
	if p := def.TargetOf(info.Name).Partial; p != "" {
		partial = p
	}
	mcp := l.mcp
	if mcp == nil {
		mcp = func(string, string) (string, bool) { return "", false }
	}
	// A kind denied whole that the tool has no name for cannot go in a
	// deny list, and the reader would read it granted: the tools are
	// listed instead.
	denyList := l.deny != "" && (!l.denyWins && !l.allowWins || def.Tools.All) && !slices.ContainsFunc(parseRules(t.Deny), func(r rule) bool {
		return r.kinds != nil && r.whole() && slices.ContainsFunc(r.kinds, func(k agents.Kind) bool { return len(l.namesOf(k)) == 0 })
	})
	w := listWriter{info: info, mcp: mcp, denyList: denyList, partial: partial, enforced: hooked}
	plan := w.write(t)
	losses := append(plan.losses, ruleLosses...)
	if hasRules {
		// The file's own rules (an allow that skips asking, an ask) no
		// longer go with the definition's tools: bn writes its own.
		losses = append(losses, Loss{Field: l.rules, Kind: Dropped, Detail: fmt.Sprintf(
			"%s's own %s from the file not written: the agent's tools changed since it was read, and bn writes only the deny rules of its definition", info.Title, l.rules)})
	}
	var tools any
	switch {
	case plan.all && l.noTools && l.star != "":
		tools = []string{l.star}
	case plan.all && (l.noTools || l.defaults != nil):
		tools = l.every()
		losses = append(losses, Loss{Field: "tools", Kind: Dropped, Detail: fmt.Sprintf("%s agent files name their tools one by one: bn lists every tool it knows, and MCP tools and tools bn has no name for are left out", info.Title),
			Drops: []string{EveryMCPTool, UnnamedTools}})
	case plan.all:
	case len(plan.names) == 0 && l.emptyAll:
		// An empty list is every tool there: each tool bn knows is
		// disabled instead.
		var all []string
		disabled := kindSet{}
		for _, w := range info.Vocabulary {
			if !w.Legacy {
				all = append(all, w.Name)
				disabled.add(w.Kinds...)
			}
		}
		grants := []string{EveryMCPTool, agents.NativePattern(info.Name, "*")}
		for _, ki := range agents.Kinds {
			if !disabled.has(ki.Kind) {
				grants = append(grants, string(ki.Kind))
			}
		}
		losses = append(losses, Loss{Field: "tools", Kind: Widened, Detail: fmt.Sprintf("%s reads an empty %s as every tool, so bn disables each tool it knows in %s; MCP tools and tools bn has no name for stay allowed", info.Title, l.tools, l.deny),
			Grants: grants})
		return nil, all, rules, nil, losses
	case len(plan.names) == 0 && l.defaults != nil:
		// No tool: the tool reads an empty list as its defaults, and has
		// no way to say none.
		tools = nil
		var grants []string
		for _, n := range l.defaults {
			if w, ok := (reader{info: info}).word(n, false); ok {
				grants = append(grants, kindPatterns(w.Kinds, "")...)
			} else {
				grants = append(grants, agents.NativePattern(info.Name, n))
			}
		}
		losses = append(losses, Loss{Field: "tools", Kind: Widened, Detail: fmt.Sprintf("%s gives an agent that names no tool its default tools (%s): an agent with none cannot be written",
			info.Title, strings.Join(l.defaults, ", ")), Grants: grants})
	case l.defaults != nil && len(plan.names) == len(l.defaults) && !slices.ContainsFunc(plan.names, func(n string) bool { return !slices.Contains(l.defaults, n) }):
		// Exactly the tool's defaults: a file without the key says so,
		// as the tool's own files do.
	default:
		tools = plan.names
		if len(plan.names) == 0 {
			tools = []string{} // none: an empty list, not a missing field
		}
	}
	var trusted any
	if l.trusted != "" {
		var tl []Loss
		trusted, tl = l.writeTrusted(def, tools)
		losses = append(losses, tl...)
	}
	if names, ok := tools.([]string); ok && l.comma && !l.json {
		tools = strings.Join(names, ", ")
	}
	if !denyList {
		return tools, nil, rules, trusted, losses
	}
	deny, dl := w.deny(def, l.namesOf, "")
	losses = append(losses, dl...)
	if len(deny) == 0 {
		return tools, nil, rules, trusted, losses
	}
	return tools, deny, rules, trusted, losses
}

// readTrusted reads the trusted list: each entry of the allow list it
// does not name asks the user before each use, and bn reads it as ask.
// "*" asks of each tool bn knows and of each MCP server the file
// configures that the list does not name.
func (l *listFile) readTrusted(r reader, tools, trusted any, servers []agents.MCPServer, t *agents.Tools) error {
	names, _ := r.names(l.tools, tools, false)
	ok, err := r.names(l.trusted, trusted, false)
	if err != nil {
		return err
	}
	var asked []string
	for _, name := range names {
		if l.trusts(r, ok, name) {
			continue
		}
		var p []string
		if l.star != "" && name == l.star {
			for _, w := range l.info.Vocabulary {
				if !w.Legacy && !l.trusts(r, ok, w.Name) {
					p = appendNew(p, kindPatterns(w.Kinds, "")...)
				}
			}
			for _, s := range servers {
				if !l.trusts(r, ok, "@"+s.Name) {
					p = appendNew(p, s.Name)
				}
			}
		} else if p, err = l.pattern(reader{l.info, &Imported{}}, name); err != nil {
			return err
		}
		if len(p) > 0 {
			t.Ask = appendNew(t.Ask, p...)
			asked = append(asked, name)
		}
	}
	if len(asked) > 0 {
		r.im.note("%s not in %s: %s asks the user before each use, which bn reads as ask", strings.Join(asked, ", "), l.trusted, l.info.Title)
	}
	return nil
}

// trusts says whether the trusted list names a tool: by its name, a name
// of the same tool (fs_read for read), a wildcard (fs_*, @git-*), or its
// MCP server's (@server for @server/tool).
func (l *listFile) trusts(r reader, trusted []string, name string) bool {
	w, known := r.word(name, false)
	server, _, _ := strings.Cut(name, "/")
	for _, t := range trusted {
		if t == name || strings.HasPrefix(name, "@") && t == server {
			return true
		}
		if m, _ := path.Match(t, name); m || strings.HasPrefix(name, "@") && func() bool { m, _ := path.Match(t, server); return m }() {
			return true
		}
		if tw, ok := r.word(t, false); ok && known && slices.Equal(tw.Kinds, w.Kinds) {
			return true
		}
	}
	return false
}

// writeTrusted lists the names of the written allow list whose uses the
// definition allows without asking: a name whose tool it asks about, or
// allows only in part (shell(git status): the rest asks), is left out,
// so that the tool asks before each use. An ask of part of a tool is
// written as an ask of all of it, which is reported.
func (l *listFile) writeTrusted(def *agents.Definition, tools any) (any, []Loss) {
	names, _ := tools.([]string)
	r := reader{l.info, &Imported{}}
	var out []string
	var losses []Loss
	for _, name := range names {
		if l.star != "" && name == l.star {
			// The trusted list takes no "*": each tool bn knows is named.
			for _, w := range l.info.Vocabulary {
				if !w.Legacy && trustedUse(def.Tools, kindPatterns(w.Kinds, "")) {
					out = append(out, w.Name)
				}
			}
			continue
		}
		patterns, err := l.pattern(r, name)
		if err != nil {
			continue
		}
		if trustedUse(def.Tools, patterns) {
			out = append(out, name)
			continue
		}
		// An ask of part of the tool asks of all of it there.
		for _, a := range def.Tools.Ask {
			ap, err := agents.ParseToolPattern(a)
			if err != nil || !ap.HasArg || !def.Tools.GrantsSome(ap) {
				continue
			}
			if slices.ContainsFunc(patterns, func(p string) bool { pp, err := agents.ParseToolPattern(p); return err == nil && pp.Overlaps(ap) }) {
				losses = append(losses, Loss{Field: "tools", Kind: Changed, Detail: fmt.Sprintf(
					"ask %q written as %s left out of %s: %s asks the user before every use of %s, not only these", a, name, l.trusted, l.info.Title, name)})
			}
		}
	}
	if len(out) == 0 {
		return nil, losses
	}
	return out, losses
}

// trustedUse says whether t allows the uses of patterns without asking:
// none is asked about or granted only in part, and some are granted
// whole.
func trustedUse(t agents.Tools, patterns []string) bool {
	whole := false
	for _, s := range patterns {
		p, err := agents.ParseToolPattern(s)
		if err != nil || slices.ContainsFunc(t.Ask, func(a string) bool {
			ap, err := agents.ParseToolPattern(a)
			return err != nil || ap.Overlaps(p) || p.Overlaps(ap)
		}) {
			return false
		}
		switch {
		case !t.GrantsSome(p):
		case t.All || slices.ContainsFunc(t.Allow, func(a string) bool {
			ap, err := agents.ParseToolPattern(a)
			return err == nil && ap.Matches(p)
		}):
			whole = true
		default:
			return false // granted in part: the rest asks
		}
	}
	return whole
}

// namesOf are the tool's current names that grant a kind: denying a kind
// denies each of them.
func (l *listFile) namesOf(k agents.Kind) []string {
	var out []string
	for _, w := range l.info.Vocabulary {
		if !w.Legacy && slices.Contains(w.Kinds, k) {
			out = append(out, w.Name)
		}
	}
	return out
}

// every lists every name bn writes.
func (l *listFile) every() []string {
	var out []string
	for _, w := range l.info.Vocabulary {
		if w.Write {
			out = append(out, w.Name)
		}
	}
	return out
}

// joinProvider reads the provider key beside a model as bn's
// provider/model spelling.
func (l *listFile) joinProvider(f *fields, im *Imported, model any) any {
	if l.provider == "" {
		return model
	}
	p, ok := f.take(l.provider)
	if !ok {
		return model
	}
	ps, _ := p.(string)
	ms, _ := model.(string)
	if ps = strings.TrimSpace(ps); ps == "" || ms == "" {
		im.drop("%s %v not imported: expects a provider's name beside %s", l.provider, agents.Plain(p), l.model)
		return model
	}
	return ps + "/" + ms
}

// setModel writes a model value, split into the provider and model keys
// where the tool has both.
func (l *listFile) setModel(d *frontmatterDoc, model any) {
	if model == nil {
		return
	}
	if s, ok := model.(string); ok && l.provider != "" {
		if p, m, ok := strings.Cut(s, "/"); ok && p != "" && m != "" {
			d.set(l.provider, p)
			d.set(l.model, m)
			return
		}
	}
	d.set(l.model, model)
}
