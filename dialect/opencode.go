package dialect

import (
	"cmp"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// opencode is OpenCode: markdown agents in .opencode/agent(s)/**/*.md of
// every directory from the working directory up, and in
// ~/.config/opencode/agent(s), named by their path under agent(s)/
// (review/security) unless the frontmatter names them, merged field by
// field across locations. Tools are governed by the permission map
// (allow, ask or deny per tool key, or per pattern of a key; the last
// matching rule wins) and the deprecated tools map (tool: true|false).
// Every tool is allowed unless a rule says otherwise. Per opencode.ai docs
// (agents, permissions, tools) and OpenCode 1.18.
type opencode struct{ info *Info }

var opencodeInfo = &Info{
	Name: "opencode", Title: "OpenCode", Dir: ".opencode/agents", Ext: ".md", ReadExts: []string{".md"}, Recursive: true,
	Marks:       []string{"opencode/agent/", "opencode/agents/"},
	NamedByFile: true,
	Signature:   []string{"mode", "permission", "steps", "maxSteps", "hidden", "top_p", "variant", "disable"},
	Doc:         "`.opencode/agent(s)/**/*.md` from the repository root down to the working directory, over `~/.config/opencode/agent(s)`; named by path; later files merge into earlier ones field by field",
	Merges:      true,
	Asks:        true,
	ShellWords:  "matches each command's words as written against the permission.bash patterns",
	Dirs:        opencodeDirs("opencode", "opencode", ".opencode"),
	BuiltIns: []BuiltIn{{"build", Merges}, {"plan", Merges}, {"general", Merges}, {"explore", Merges},
		{"compaction", Merges}, {"title", Merges}, {"summary", Merges}},
	Vocabulary: []Word{
		{Name: "read", Kinds: []agents.Kind{agents.KindRead}, Write: true},
		{Name: "list", Kinds: []agents.Kind{agents.KindList}, Write: true},
		{Name: "glob", Kinds: []agents.Kind{agents.KindGlob}, Write: true},
		{Name: "grep", Kinds: []agents.Kind{agents.KindGrep}, Write: true},
		{Name: "codesearch", Kinds: []agents.Kind{agents.KindCodeSearch}, Write: true},
		{Name: "lsp", Kinds: []agents.Kind{agents.KindLSP}, Write: true},
		{Name: "edit", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate, agents.KindNotebook}, Write: true},
		{Name: "write", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate, agents.KindNotebook}, Legacy: true},
		{Name: "patch", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate, agents.KindNotebook}, Legacy: true},
		{Name: "multiedit", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate, agents.KindNotebook}, Legacy: true},
		{Name: "apply_patch", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate, agents.KindNotebook}},
		{Name: "bash", Kinds: []agents.Kind{agents.KindShell}, Write: true},
		{Name: "webfetch", Kinds: []agents.Kind{agents.KindWebFetch}, Write: true},
		{Name: "websearch", Kinds: []agents.Kind{agents.KindWebSearch}, Write: true},
		{Name: "task", Kinds: []agents.Kind{agents.KindAgent}, Write: true},
		{Name: "todowrite", Kinds: []agents.Kind{agents.KindTodo}, Write: true},
		{Name: "todoread", Kinds: []agents.Kind{agents.KindTodo}, Legacy: true},
		{Name: "skill", Kinds: []agents.Kind{agents.KindSkill}, Write: true},
		{Name: "question", Kinds: []agents.Kind{agents.KindAsk}, Write: true},
		{Name: "plan_enter", Kinds: []agents.Kind{agents.KindPlan}, Write: true, Group: "plan"},
		{Name: "plan_exit", Kinds: []agents.Kind{agents.KindPlan}, Write: true, Group: "plan"},
	},
	Fields: []FieldSpec{
		{Key: "permission", Hint: true}, {Key: "tools", Hint: true, Check: checkMap},
		{Key: "model", Hint: true, Check: checkString}, {Key: "maxSteps", Hint: true},
		{Key: "steps", Hint: true}, {Key: "color", Hint: true, Check: checkString},
		{Key: "variant", Doc: "the model variant to use", Check: checkString},
		{Key: "options", Doc: "settings passed to the model provider", Check: checkMap},
		{Key: "disable", Doc: "remove the agent (true)", Check: checkBool},
		{Key: "name", Doc: "the agent's name when it differs from the file's path", Check: checkString},
		{Key: "hidden", Hint: true, Check: checkBool},
	},
	Exports:     true,
	AgentEnv:    []string{"OPENCODE"},
	TerminalEnv: "OPENCODE_TERMINAL",
	Client:      "opencode-ai@1.18.33",
}

func (o opencode) Info() *Info { return o.info }

// opencodeDirs lists where OpenCode, or a tool built on it, reads agents:
// agent and agents in its directory of ~/.config, then in project, from
// the repository root down to the working directory.
func opencodeDirs(format, config, project string) func(Env) []SourceDir {
	return func(env Env) []SourceDir {
		xdg := env.XDGConfigHome
		if xdg == "" {
			xdg = filepath.Join(env.Home, ".config")
		}
		out := []SourceDir{userDir(filepath.Join(xdg, config, "agent"), format), userDir(filepath.Join(xdg, config, "agents"), format)}
		up := upwards(env.Cwd, env.RepoRoot)
		for i := len(up) - 1; i >= 0; i-- {
			out = append(out, SourceDir{Path: filepath.Join(up[i], project, "agent"), Location: ProjectLocation, Format: format},
				SourceDir{Path: filepath.Join(up[i], project, "agents"), Location: ProjectLocation, Format: format})
		}
		return out
	}
}

func (o opencode) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	im := &Imported{Format: o.info.Name, File: src.Path}
	f, err := readMarkdown(src, im)
	if err != nil {
		return nil, err
	}
	name := f.str("name")
	if name == "" {
		name = strings.TrimSuffix(path.Clean(strings.ReplaceAll(src.Rel, "\\", "/")), ".md")
	}
	description := f.description()
	if description == "" && slices.ContainsFunc(o.info.BuiltIns, func(b BuiltIn) bool { return b.Name == name }) {
		// OpenCode merges such a file into its own agent of the name: a
		// valid file (disable: true, a temperature), and no agent of the
		// user's for bn to define.
		return nil, fmt.Errorf("adjusts %s's built-in agent %q and defines no agent of its own: a valid file, which %s merges into its own; bn leaves it where it is",
			o.info.Title, name, o.info.Title)
	}
	if err := setIdentity(im, o.info, name, description, f.body,
		fmt.Errorf("empty body: %s would fall back to its default prompt, and bn needs one", o.info.Title)); err != nil {
		return nil, err
	}
	tools, _ := f.keep(im, o.info.Name, "tools")
	perm, _ := f.keep(im, o.info.Name, "permission")
	if im.Def.Tools, err = opencodeTools(reader{o.info, im}, tools, perm); err != nil {
		return nil, err
	}
	if m, ok := f.take("model"); ok {
		readModel(im, o.info.Name, "model", m, cat)
	}
	if v, ok := f.take("mode"); ok {
		if mode, err := agents.ParseEnum(fmt.Sprint(v), agents.Modes); err == nil {
			im.Def.Mode = mode
		} else {
			return nil, fmt.Errorf("mode: %v (%s rejects the file too)", err, o.info.Title)
		}
	}
	if v, ok := f.take("hidden"); ok {
		b, isBool := v.(bool)
		im.Def.Hidden = b
		if isBool && !b {
			// The default, written out: kept so a round trip writes it too.
			im.Def.Target(o.info.Name).Fields.Set("hidden", false)
		}
	}
	for _, key := range []string{"temperature", "top_p"} {
		if v, ok := f.take(key); ok {
			n, ok := number(v)
			if !ok {
				return nil, fmt.Errorf("%s: expects a number, found %v (%s rejects the file too)", key, v, o.info.Title)
			}
			if key == "temperature" {
				im.Def.Temperature = &n
			} else {
				im.Def.TopP = &n
			}
		}
	}
	for _, key := range []string{"steps", "maxSteps"} {
		if v, ok := f.keep(im, o.info.Name, key); ok {
			if n, ok := v.(int64); ok && n > 0 {
				im.Def.MaxTurns = &n
			}
		}
	}
	if v, ok := f.keep(im, o.info.Name, "color"); ok {
		readColor(im, o.info.Name, v)
	}
	f.take("prompt") // the body replaces it, as OpenCode does
	f.rest(im, o.info)
	return im, nil
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int64:
		return float64(n), true
	}
	return 0, false
}

// opencodeDefaults are the rules OpenCode puts before a custom agent's
// own: it may not ask the user questions or enter and leave plan mode
// unless its file allows them.
var opencodeDefaults = []opencodeRule{{"question", "", "deny"}, {"plan_enter", "", "deny"}, {"plan_exit", "", "deny"}}

// opencodeRule is one permission rule: a key's action, or a pattern's.
type opencodeRule struct {
	key, pattern, action string // pattern "" for the whole key
}

// opencodeTools reads the tools map and the permission map into bn tools.
// OpenCode allows what no rule denies; the last matching rule wins, while
// in bn a deny always wins, so rules are applied in order per key.
func opencodeTools(r reader, tools, perm any) (agents.Tools, error) {
	rules, err := opencodeRules(r, tools, perm)
	if err != nil {
		return agents.Tools{}, err
	}
	t := opencodeGrants(r, rules)
	t.Ask = opencodeAsks(r, rules, t)
	return t, nil
}

// opencodeRules reads the tools map and the permission map into rules,
// in the order OpenCode applies them.
func opencodeRules(r reader, tools, perm any) ([]opencodeRule, error) {
	// OpenCode's own rules come first: what a file does not allow of them
	// a custom agent does not get.
	rules := slices.Clone(opencodeDefaults)
	if m, ok := tools.(*agents.Map); ok {
		for _, k := range m.Keys {
			b, ok := m.Values[k].(bool)
			if !ok {
				return nil, fmt.Errorf("tools: %s is %v, not true or false; %s rejects the file", k, agents.Plain(m.Values[k]), r.info.Title)
			}
			action := "deny"
			if b {
				action = "allow"
			}
			rules = append(rules, opencodeRule{k, "", action})
		}
	} else if tools != nil {
		return nil, fmt.Errorf("tools: %v is not a map of tool names to true or false; %s rejects the file", agents.Plain(tools), r.info.Title)
	}
	// An action OpenCode does not know would make bn guess what the agent
	// may do: the file is refused, as OpenCode refuses it.
	action := func(where string, v any) (string, error) {
		s, _ := v.(string)
		if s != "allow" && s != "ask" && s != "deny" {
			return "", fmt.Errorf("permission %s: %v is not allow, ask or deny; %s rejects the file", where, agents.Plain(v), r.info.Title)
		}
		return s, nil
	}
	switch p := perm.(type) {
	case nil:
	case *agents.Map:
		for _, k := range p.Keys {
			if v, ok := p.Values[k].(*agents.Map); ok {
				if slices.Contains(actionOnly()[r.info.Name], k) {
					return nil, fmt.Errorf("permission %s: a map of patterns, where %s's schema takes allow, ask or deny only; %s rejects the file (and loads no agent of the project)", k, r.info.Title, r.info.Title)
				}
				for _, pat := range v.Keys {
					a, err := action(k+"."+pat, v.Values[pat])
					if err != nil {
						return nil, err
					}
					if pat == "*" {
						rules = append(rules, opencodeRule{k, "", a})
					} else {
						rules = append(rules, opencodeRule{k, pat, a})
					}
				}
				continue
			}
			a, err := action(k, p.Values[k])
			if err != nil {
				return nil, err
			}
			rules = append(rules, opencodeRule{k, "", a})
		}
	default:
		a, err := action("", p)
		if err != nil {
			return nil, err
		}
		rules = append(rules, opencodeRule{"*", "", a})
	}
	return rules, nil
}

// opencodeGrants is what the rules grant in bn's terms; an ask grants.
func opencodeGrants(r reader, rules []opencodeRule) agents.Tools {
	// The state of each key: its whole-key action, and its patterns.
	type keyState struct {
		action   string
		patterns []opencodeRule
	}
	global := "allow"
	states := map[string]*keyState{}
	var order []string
	for _, rule := range rules {
		if rule.key == "*" && rule.pattern == "" {
			global = rule.action
			states = map[string]*keyState{}
			order = nil
			continue
		}
		s := states[rule.key]
		if s == nil {
			s = &keyState{}
			states[rule.key] = s
			order = append(order, rule.key)
		}
		if rule.pattern == "" {
			s.action, s.patterns = rule.action, nil
		} else {
			s.patterns = append(s.patterns, rule)
		}
	}
	allowed := func(action string) bool { return action == "allow" || action == "ask" }
	// bn's deny always wins, so an agent is a list when a denied key (or
	// everything) has allowed patterns, or when everything is denied.
	list := !allowed(global)
	for _, k := range order {
		s := states[k]
		whole := s.action
		if whole == "" {
			whole = global
		}
		if !allowed(whole) && slices.ContainsFunc(s.patterns, func(p opencodeRule) bool { return allowed(p.action) }) {
			list = true
		}
	}
	t := agents.Tools{All: !list}
	if list && allowed(global) {
		r.im.note("%s allows every tool no rule denies, MCP tools included; bn lists the tools it knows, so MCP servers not named are left out", r.info.Title)
		for _, ki := range agents.Kinds {
			t.Allow = appendNew(t.Allow, string(ki.Kind))
		}
	}
	for _, k := range order {
		s := states[k]
		pats := opencodeKey(r, k)
		whole := s.action
		if whole == "" {
			whole = global
		}
		switch {
		case t.All && !allowed(whole):
			t.Deny = appendNew(t.Deny, pats...)
		case !t.All && allowed(whole) && !allowed(global):
			t.Allow = appendNew(t.Allow, pats...)
		case !t.All && !allowed(whole) && allowed(global):
			for _, p := range pats {
				for _, kind := range agents.KindsOf(p) {
					t.Allow = removeStr(t.Allow, string(kind))
				}
			}
		}
		unshadowed, after := opencodeUnshadowed(r, s.patterns)
		for _, p := range pairPatterns(unshadowed) {
			arg := p.pattern
			for _, base := range pats {
				pattern := withArg(base, arg)
				if !strings.Contains(arg, "*") && agents.KindsOf(base) != nil && agents.KindsOf(base)[0] == agents.KindShell && allowed(p.action) {
					r.im.note("%s matches the bash pattern %q exactly; bn reads shell(%s) as that command and its arguments", r.info.Title, arg, arg)
				}
				switch {
				case allowed(p.action) && !allowed(whole):
					t.Allow = appendNew(t.Allow, pattern)
				case !allowed(p.action) && (allowed(whole) || after[strings.TrimSuffix(arg, ":*")]):
					t.Deny = appendNew(t.Deny, pattern)
				}
			}
		}
	}
	if t.All {
		t.Allow = nil
	}
	return t
}

// opencodeUnshadowed are a key's pattern rules as OpenCode applies them,
// the last match deciding: a deny a later allow or ask covers all of is
// no deny, and is left out (noted); a deny a later allow or ask meets in
// part stays, bn's deny winning where both match (noted); a deny that
// comes after an allow or ask it meets is in after, by pattern, as it
// limits what that one grants even where the key is denied whole.
func opencodeUnshadowed(r reader, rules []opencodeRule) (out []opencodeRule, after map[string]bool) {
	allowed := func(o opencodeRule) bool { return o.action == "allow" || o.action == "ask" }
	after = map[string]bool{}
	for i, rule := range rules {
		if allowed(rule) {
			out = append(out, rule)
			continue
		}
		later := rules[i+1:]
		if j := slices.IndexFunc(later, func(o opencodeRule) bool { return allowed(o) && wildcardCovers(o.pattern, rule.pattern) }); j >= 0 {
			r.im.note("%s denies %s, but the later rule %s: %s matches every call it does (the last match wins): bn records no deny, and the use is %s",
				r.info.Title, opencodeLabel(rule), opencodeLabel(later[j]), later[j].action, map[string]string{"allow": "allowed", "ask": "asked about"}[later[j].action])
			continue
		}
		for _, o := range later {
			if allowed(o) && wildcardsMeet(o.pattern, rule.pattern) {
				// Narrower than the tool: bn's model cannot say it.
				var kinds []string
				for _, base := range opencodeKey(r, rule.key) {
					for _, k := range agents.KindsOf(base) {
						if !slices.Contains(r.im.Narrowed, k) {
							r.im.Narrowed = append(r.im.Narrowed, k)
						}
						kinds = appendNew(kinds, string(k))
					}
				}
				r.im.note("%s allows %s after the deny of %s (the last match wins); bn denies the %s uses both match, as in bn a deny wins over an allow",
					r.info.Title, opencodeLabel(o), opencodeLabel(rule), strings.Join(kinds, ", "))
			}
		}
		if slices.ContainsFunc(rules[:i], func(o opencodeRule) bool { return allowed(o) && wildcardsMeet(o.pattern, rule.pattern) }) {
			after[rule.pattern] = true
		}
		out = append(out, rule)
	}
	return out, after
}

// pairPatterns writes "git push" and "git push *" with one action, as bn
// writes shell(git push:*), back as "git push:*".
func pairPatterns(rules []opencodeRule) []opencodeRule {
	var out []opencodeRule
	for _, r := range rules {
		if strings.HasSuffix(r.pattern, " *") && slices.ContainsFunc(rules, func(o opencodeRule) bool {
			return o.pattern == strings.TrimSuffix(r.pattern, " *") && o.action == r.action
		}) {
			continue // folded into its stem
		}
		if !strings.Contains(r.pattern, "*") && slices.ContainsFunc(rules, func(o opencodeRule) bool {
			return o.pattern == r.pattern+" *" && o.action == r.action
		}) {
			r.pattern += ":*"
		}
		out = append(out, r)
	}
	return out
}

func opencodeLabel(r opencodeRule) string {
	if r.key == "*" && r.pattern == "" {
		return "every tool"
	}
	if r.pattern != "" {
		return fmt.Sprintf("%s %q", r.key, r.pattern)
	}
	return r.key
}

// opencodeAsks are the ask rules no later rule overrides, as bn
// patterns of what t grants: OpenCode decides a call by the last rule
// that matches it, so a later rule that matches all an ask does ("*", or
// "git *" after "git push *") decides every call the ask would have. An
// ask of a use denied asks nothing.
func opencodeAsks(r reader, rules []opencodeRule, t agents.Tools) []string {
	var asks []opencodeRule
	// decided are the kinds a later rule of their whole key decides after
	// an ask of every tool: that rule, not the ask, is what OpenCode does.
	decided := map[string]opencodeRule{}
	for i, rule := range rules {
		if rule.action != "ask" || slices.Contains(opencodeDefaults, rule) {
			continue
		}
		// The last later rule that covers the ask decides what it covers.
		last := -1
		for j := i + 1; j < len(rules); j++ {
			if opencodeCovers(rules[j], rule) {
				last = j
			}
		}
		if last >= 0 {
			later := rules[last]
			if later.action != "ask" {
				done := "allowed"
				if later.action == "deny" {
					done = "denied"
				}
				r.im.note("%s asks the user before each use in %s, but the later rule %s: %s overrides it (the last match wins): bn records no ask, and the use is %s",
					opencodeLabel(rule), r.info.Title, opencodeLabel(later), later.action, done)
			}
		} else {
			asks = append(asks, rule)
			every := rule.key == "*" && rule.pattern == ""
			for _, later := range rules[i+1:] {
				if w, ok := r.word(later.key, false); ok && every && later.pattern == "" {
					for _, k := range kindPatterns(w.Kinds, "") {
						decided[k] = later
					}
				}
				// The whole key's ask is "*"'s.
				asked := cmp.Or(rule.pattern, "*")
				if (later.key == rule.key || every) && later.pattern != "" && later.action == "allow" && wildcardsMeet(later.pattern, asked) {
					what := "it"
					if !wildcardCovers(asked, later.pattern) {
						what = "what both match"
					}
					r.im.note("%s allows %s without asking; bn asks before %s, as the ask of %s covers it and in bn an ask wins over an allow",
						r.info.Title, opencodeLabel(later), what, opencodeLabel(rule))
				}
			}
		}
	}
	var out []string
	for _, rule := range pairPatterns(asks) {
		var pats []string
		label := opencodeLabel(rule)
		if rule.key == "*" && rule.pattern == "" {
			var overridden []opencodeRule
			for _, ki := range agents.Kinds {
				if later, ok := decided[string(ki.Kind)]; ok && later.action != "ask" {
					if !slices.Contains(overridden, later) {
						overridden = append(overridden, later)
					}
					continue
				}
				pats = append(pats, string(ki.Kind))
			}
			for _, later := range overridden {
				r.im.note("%s asks before every tool, but the later rule %s: %s overrides it there (the last match wins): bn records no ask of %s",
					r.info.Title, opencodeLabel(later), later.action, opencodeLabel(later))
				label = "every other tool"
			}
			r.im.note("%s asks before %s; bn records an ask of each kind the agent uses, so an MCP tool asks only where the file is written as read", r.info.Title, label)
		} else {
			for _, base := range opencodeKey(r, rule.key) {
				if rule.pattern != "" {
					base = withArg(base, rule.pattern)
				}
				pats = append(pats, base)
			}
		}
		recorded := false
		for _, p := range pats {
			if tp, err := agents.ParseToolPattern(p); err != nil || t.GrantsSome(tp) {
				out = appendNew(out, p)
				recorded = true
			}
		}
		if recorded {
			r.im.note("%s asks the user before each use in %s; bn records it as an ask (tools { ask … }): "+
				"written back as ask to tools that can ask, reported widened for the others", label, r.info.Title)
		} else {
			r.im.note("%s asks the user before each use in %s, but the agent may not use it: bn records no ask", label, r.info.Title)
		}
	}
	return out
}

// opencodeCovers says whether every call rule matches, later matches
// too: the global "*", the whole key, or a pattern of the key whose
// wildcards take in all of rule's.
func opencodeCovers(later, rule opencodeRule) bool {
	if later.key == "*" && later.pattern == "" {
		return true
	}
	if later.key != rule.key {
		return false
	}
	return later.pattern == "" || rule.pattern != "" && wildcardCovers(later.pattern, rule.pattern)
}

// wildcardAlternatives are the plain wildcards one of OpenCode's is: "*"
// any run of characters, "?" any one, and a trailing " *" optional
// ("git push *" matches git push itself), so "git push *" is "git push"
// or "git push *".
func wildcardAlternatives(p string) []string {
	if stem, ok := strings.CutSuffix(p, " *"); ok {
		return []string{stem, p}
	}
	return []string{p}
}

// wildcardCovers says whether OpenCode's wildcard b matches every string
// a matches (each of a's alternatives within one of b's: where only
// their union takes one in, it says no, and an ask is kept).
func wildcardCovers(b, a string) bool {
	for _, x := range wildcardAlternatives(a) {
		if !slices.ContainsFunc(wildcardAlternatives(b), func(y string) bool { return plainCovers(y, x) }) {
			return false
		}
	}
	return true
}

// plainCovers says whether the plain wildcard b matches every string a
// does: b matches a's text, its "*" taking any of a's characters and
// wildcards, its "?" one character or "?" of a, its other characters
// only themselves.
func plainCovers(b, a string) bool {
	return wildcardWalk(func(at func(i, j int) bool, i, j int) (v bool) {
		switch {
		case i == len(b):
			v = j == len(a)
		case b[i] == '*':
			v = at(i+1, j) || j < len(a) && at(i, j+1)
		case j == len(a) || a[j] == '*':
		case b[i] == '?' || b[i] == a[j]:
			v = at(i+1, j+1)
		}
		return v
	})
}

// wildcardWalk answers step from the start of both wildcards,
// remembering each pair of positions answered: a "*" brings the same
// pair up again and again.
func wildcardWalk(step func(at func(i, j int) bool, i, j int) bool) bool {
	memo := map[[2]int]bool{}
	var at func(i, j int) bool
	at = func(i, j int) bool {
		k := [2]int{i, j}
		if v, ok := memo[k]; ok {
			return v
		}
		v := step(at, i, j)
		memo[k] = v
		return v
	}
	return at(0, 0)
}

// wildcardsMeet says whether some string matches both of OpenCode's
// wildcards.
func wildcardsMeet(a, b string) bool {
	for _, x := range wildcardAlternatives(a) {
		for _, y := range wildcardAlternatives(b) {
			if plainMeet(x, y) {
				return true
			}
		}
	}
	return false
}

// plainMeet says whether some string matches both plain wildcards: each
// "*" may end (match nothing more) or take the next character or
// wildcard of the other.
func plainMeet(a, b string) bool {
	return wildcardWalk(func(at func(i, j int) bool, i, j int) (v bool) {
		switch {
		case i < len(a) && a[i] == '*':
			v = at(i+1, j) || j < len(b) && at(i, j+1)
		case j < len(b) && b[j] == '*':
			v = at(i, j+1) || i < len(a) && at(i+1, j)
		case i == len(a) || j == len(b):
			v = i == len(a) && j == len(b)
		default:
			v = (a[i] == '?' || b[j] == '?' || a[i] == b[j]) && at(i+1, j+1)
		}
		return v
	})
}

// opencodeSettings are permission keys that are not tools.
var opencodeSettings = []string{"external_directory", "doom_loop"}

// opencodeKey maps a tool or permission key to bn patterns.
func opencodeKey(r reader, key string) []string {
	if w, ok := r.word(key, false); ok {
		return kindPatterns(w.Kinds, "")
	}
	if server, ok := strings.CutSuffix(key, "_*"); ok && server != "" && !strings.ContainsAny(server, "*?") {
		return []string{agents.MCPPattern(server, "")}
	}
	// OpenCode names an MCP tool server_tool. Read as such, a deny of one
	// keeps its meaning when the agent crosses to another tool; a server
	// whose own name holds '_' is split at its first one, as noted.
	if server, tool, ok := strings.Cut(key, "_"); ok && server != "" && tool != "" &&
		!slices.Contains(opencodeSettings, key) && !strings.ContainsAny(key, "*?") {
		r.im.note("%q read as tool %q of the MCP server %q (%s writes server_tool)", key, tool, server, r.info.Title)
		return []string{agents.MCPPattern(server, tool)}
	}
	if w, ok := r.word(key, true); ok {
		r.im.note("%s matches tool ids exactly: %q is not %q, so this rule has no effect there", r.info.Title, key, w.Name)
	}
	return []string{r.native(key)}
}

func withArg(pattern, arg string) string {
	if p, err := agents.ParseToolPattern(pattern); err == nil && p.HasArg {
		if tool, name, ok := agents.NativeTool(p); ok {
			return agents.NativePattern(tool, name+" "+arg)
		}
		return pattern
	}
	return pattern + "(" + arg + ")"
}

func removeStr(list []string, s string) []string {
	out := list[:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

func (o opencode) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	d := &frontmatterDoc{}
	t := def.TargetOf(o.info.Name)
	if name, ok := t.Fields.Get("name"); ok {
		d.set("name", name)
	}
	d.set("description", def.Description)
	var losses []Loss
	mode := def.Mode
	if mode == "" && def.ModelInvocable != nil && !*def.ModelInvocable {
		mode = "primary"
		losses = append(losses, Loss{Field: "model-invocable", Kind: Changed, Detail: "written as mode primary: " + o.info.Title + " lets only the user start primary agents"})
	} else if def.ModelInvocable != nil && !*def.ModelInvocable && mode != "primary" {
		losses = append(losses, modelStarts(fmt.Sprintf("%s's mode %s lets other agents start it", o.info.Title, mode)))
	}
	if mode != "" {
		d.set("mode", mode)
	}
	model, ml := writeModel(&def, o.info, "model", cat)
	losses = append(losses, ml...)
	if model != nil {
		d.set("model", model)
	}
	if def.Temperature != nil {
		d.set("temperature", *def.Temperature)
	}
	if def.TopP != nil {
		d.set("top_p", *def.TopP)
	}
	if def.MaxTurns != nil {
		key := "steps"
		if _, ok := t.Fields.Get("maxSteps"); ok {
			key = "maxSteps"
		}
		d.set(key, *def.MaxTurns)
	}
	if def.Color != "" {
		color, cl := writeColor(&def, o.info, nil)
		losses = append(losses, cl...)
		if color != "" {
			if hint, ok := t.Fields.Get("color"); ok && strings.EqualFold(fmt.Sprint(hint), color) {
				d.set("color", hint)
			} else {
				d.set("color", color)
			}
		}
	}
	if def.Hidden {
		d.set("hidden", true)
	} else if v, ok := t.Fields.Get("hidden"); ok && v == false {
		d.set("hidden", false)
	}
	tools, perm, tl := o.tools(&def)
	losses = append(losses, tl...)
	if tools != nil {
		d.set("tools", tools)
	}
	if perm != nil {
		d.set("permission", perm)
	}
	losses = append(losses, sectionFields(d, &def, o.info, "name", "hidden")...)
	losses = append(losses, otherLosses(&def, o.info, carried{"mode": true, "model-invocable": true, "temperature": true,
		"top-p": true, "max-turns": true, "color": true, "hidden": true, "reasoning-effort": true})...)
	if def.ReasoningEffort != "" {
		losses = append(losses, Loss{Field: "reasoning-effort", Kind: Dropped,
			Detail: o.info.Title + " agent files have no reasoning effort (a model variant or provider option sets it)"})
	}
	content, err := d.markdown(marker, def.Prompt)
	if err == nil {
		err = FitSchema(o.info, content)
	}
	return Rendered{Content: content, Losses: losses}, err
}

// tools returns the tools and permission values (nil: leave out).
func (o opencode) tools(def *agents.Definition) (any, any, []Loss) {
	// The maps as read are written back while they grant and ask what
	// the definition does: they keep the file's own spelling.
	hints := def.TargetOf(o.info.Name).Fields
	toolsHint, hasTools := hints.Get("tools")
	permHint, hasPerm := hints.Get("permission")
	if hasTools || hasPerm {
		if hinted, err := opencodeTools(reader{o.info, &Imported{}}, toolsHint, permHint); err == nil && hinted.Equal(def.Tools) {
			return toolsHint, permHint, nil
		}
	}
	var losses []Loss
	// loss adds a difference, and is it, for a widening to say what it
	// grants.
	loss := func(kind, format string, args ...any) *Loss {
		losses = append(losses, Loss{Field: "tools", Kind: kind, Detail: fmt.Sprintf(format, args...)})
		return &losses[len(losses)-1]
	}
	perm := &agents.Map{}
	// patterns collects per-key pattern rules; OpenCode applies the last
	// match, so allows come before denies.
	patterns := map[string]*agents.Map{}
	var patternKeys []string
	addPattern := func(key, pat, action string) {
		m := patterns[key]
		if m == nil {
			m = &agents.Map{}
			patterns[key] = m
			patternKeys = append(patternKeys, key)
		}
		m.Set(pat, action)
	}
	keysOf := func(k agents.Kind) []string {
		var out []string
		for _, w := range o.info.Vocabulary {
			if w.Write && len(w.Kinds) > 0 && contains(w.Kinds, k) {
				out = append(out, w.Name)
			}
		}
		return out
	}
	argsFor := func(k agents.Kind, arg string) []string {
		if k == agents.KindShell {
			return opencodeBash(arg)
		}
		return []string{arg}
	}
	allow, deny := parseRules(def.Tools.Allow), parseRules(def.Tools.Deny)
	if !def.Tools.All {
		perm.Set("*", "deny")
	}
	// A pattern of a kind the agent has whole adds nothing, and written
	// it would stand for the whole key and take the rest away.
	whole := kindSet{}
	for _, r := range allow {
		if r.native == "" && !r.mcp() && r.whole() {
			whole.add(r.kinds...)
		}
	}
	granted := kindSet{}
	for _, r := range allow {
		switch {
		case r.native != "":
			if r.native == o.info.Name {
				if l, bypass := nativeBypass(o.info, r, deny); bypass {
					losses = append(losses, l)
					continue
				}
				perm.Set(r.p.Arg, "allow")
			} else {
				loss(Dropped, "%q is a tool of another tool; %s has no such tool", r.text, o.info.Title).Drops = []string{r.text}
			}
		case r.mcp():
			if r.whole() {
				perm.Set(r.p.Kind+"_*", "allow")
			} else {
				perm.Set(opencodeMCP(r.p.Kind, r.p.Arg), "allow")
			}
		case r.whole():
			granted.add(r.kinds...)
		default:
			for _, k := range r.kinds {
				if def.Tools.All || whole.has(k) {
					continue
				}
				keys := keysOf(k)
				if len(keys) == 0 {
					loss(Dropped, "allow %q: %s has no tool for %s", r.text, o.info.Title, k).Drops = kindPatterns([]agents.Kind{k}, r.p.Arg)
					continue
				}
				for _, key := range keys {
					if !o.patterned(key) {
						// Its schema takes an action only: a map of
						// patterns makes it refuse the file, and with it
						// every agent of the project.
						granted.add(k)
						loss(Widened, "allow %q widened to every %s use: %s's %s permission takes no patterns", r.text, k, o.info.Title, key).Grants = []string{string(k)}
						continue
					}
					for _, a := range argsFor(k, r.p.Arg) {
						addPattern(key, a, "allow")
					}
				}
			}
		}
	}
	// Keys whose extra kinds are reported: granted beyond the definition,
	// or denied with kinds it grants.
	widenedBy, droppedBy := map[string]bool{}, map[string]bool{}
	for _, k := range granted.sorted() {
		keys := keysOf(k)
		if len(keys) == 0 {
			loss(Dropped, "%s: %s has no tool for it", k, o.info.Title).Drops = []string{string(k)}
			continue
		}
		for _, key := range keys {
			perm.Set(key, "allow")
			// A key that covers more kinds than the agent has (edit
			// covers changing and creating files and notebooks).
			var extra []agents.Kind
			for _, w := range o.info.Vocabulary {
				if w.Name == key && w.Write {
					extra = slices.DeleteFunc(slices.Clone(w.Kinds), granted.has)
				}
			}
			// A key a whole deny below denies grants none of them: the
			// deny's own loss says what is left out.
			deniedWhole := slices.ContainsFunc(deny, func(r rule) bool {
				return r.native == "" && !r.mcp() && r.whole() && slices.ContainsFunc(r.kinds, func(k agents.Kind) bool { return slices.Contains(keysOf(k), key) })
			})
			if len(extra) > 0 && !widenedBy[key] && !deniedWhole {
				widenedBy[key] = true
				loss(Widened, "%s's %s permission also covers %s, which the agent did not have", o.info.Title, key, kindNames(extra)).Grants = kindPatterns(extra, "")
			}
		}
	}
	// wholeFirst starts a key's patterns with its whole-key action, so
	// that what the key allows whole stays allowed (OpenCode applies the
	// last match).
	wholeFirst := func(key string) {
		if _, ok := patterns[key]; ok {
			return
		}
		if v, ok := perm.Get(key); ok && (v == "allow" || v == "ask") {
			addPattern(key, "*", v.(string))
		} else if !ok && def.Tools.All {
			addPattern(key, "*", "allow")
		}
	}
	// askKey makes what a key allows ask: the key whole, or each pattern
	// it allows. A key the agent does not have gets no ask, which would
	// grant it.
	askKey := func(key string) {
		if m := patterns[key]; m != nil {
			for _, k := range m.Keys {
				if m.Values[k] == "allow" {
					m.Set(k, "ask")
				}
			}
			return
		}
		if v, ok := perm.Get(key); ok && v == "allow" || !ok && def.Tools.All {
			perm.Set(key, "ask")
		}
	}
	// Asks come after the allows and before the denies: in bn a deny
	// wins over an ask, and an ask over an allow.
	for _, r := range parseRules(def.Tools.Ask) {
		if !def.Tools.GrantsSome(r.p) {
			continue // denied: nothing to ask
		}
		switch {
		case r.native == o.info.Name:
			askKey(r.p.Arg)
		case r.native != "":
			continue // a tool of another tool, left out above
		case r.mcp():
			if r.whole() {
				askKey(r.p.Kind + "_*")
			} else {
				askKey(opencodeMCP(r.p.Kind, r.p.Arg))
			}
		case r.whole():
			for _, k := range r.kinds {
				for _, key := range keysOf(k) {
					askKey(key)
				}
			}
		default:
			for _, k := range r.kinds {
				for _, key := range keysOf(k) {
					if !o.patterned(key) {
						loss(Widened, "ask %q not carried: %s's %s permission takes no patterns, so every %s use it allows runs without asking the user", r.text, o.info.Title, key, k)
						continue
					}
					wholeFirst(key)
					for _, a := range argsFor(k, r.p.Arg) {
						// After every allow, which the last match
						// would otherwise give back.
						if m := patterns[key]; m != nil {
							m.Delete(a)
						}
						addPattern(key, a, "ask")
					}
				}
			}
		}
	}
	for _, r := range deny {
		switch {
		case r.native == o.info.Name:
			perm.Set(r.p.Arg, "deny")
		case r.native != "":
			losses = append(losses, foreignDeny(r, o.info))
		case r.mcp():
			if r.whole() {
				perm.Set(r.p.Kind+"_*", "deny")
			} else {
				perm.Set(opencodeMCP(r.p.Kind, r.p.Arg), "deny")
			}
		case r.whole():
			for _, k := range r.kinds {
				for _, key := range keysOf(k) {
					if !slices.ContainsFunc(opencodeDefaults, func(d opencodeRule) bool { return d.key == key }) {
						perm.Set(key, "deny") // OpenCode's defaults deny the others already
					}
					// A key that covers more kinds denies them all.
					for _, w := range o.info.Vocabulary {
						if w.Name != key || !w.Write || droppedBy[key] {
							continue
						}
						if lost := slices.DeleteFunc(slices.Clone(w.Kinds), func(o agents.Kind) bool { return !def.Tools.Uses(o) }); len(lost) > 0 {
							droppedBy[key] = true
							loss(Dropped, "%s left out: %s's %s permission, denied for %q, covers it too", kindNames(lost), o.info.Title, key, r.text).Drops = kindPatterns(lost, "")
						}
					}
				}
			}
		default:
			for _, k := range r.kinds {
				for _, key := range keysOf(k) {
					if v, ok := perm.Get(key); ok && v == "deny" {
						continue // the whole key is denied already
					}
					if !o.patterned(key) {
						if def.Tools.Uses(k) {
							loss(Widened, "deny %q not carried: %s's %s permission takes no patterns, so every %s use stays allowed", r.text, o.info.Title, key, k).Grants = []string{r.text}
						}
						continue
					}
					wholeFirst(key)
					for _, a := range argsFor(k, r.p.Arg) {
						// After every allow and ask of the same
						// pattern, which the last match would
						// otherwise give back.
						if m := patterns[key]; m != nil {
							m.Delete(a)
						}
						addPattern(key, a, "deny")
					}
				}
			}
		}
	}
	for _, key := range patternKeys {
		if v, ok := perm.Get(key); ok && v == "deny" {
			continue // a whole-key deny wins over its patterns in bn
		}
		perm.Set(key, patterns[key])
	}
	// What OpenCode denies a custom agent by default is allowed in so
	// many words.
	for _, d := range opencodeDefaults {
		i := slices.IndexFunc(o.info.Vocabulary, func(w Word) bool { return w.Name == d.key })
		if v, _ := perm.Get(d.key); v != "allow" && v != "ask" && agents.Decide(def.Tools, agents.ToolPattern{Kind: string(o.info.Vocabulary[i].Kinds[0])}).Allowed {
			perm.Set(d.key, "allow")
		}
	}
	if perm.Len() == 0 {
		return nil, nil, losses
	}
	return nil, perm, losses
}

// patterned says whether the tool's schema lets a permission key hold a
// map of patterns (bash does; webfetch takes an action only).
func (o opencode) patterned(key string) bool {
	return !slices.Contains(actionOnly()[o.info.Name], key)
}

// opencodeBash turns a shell pattern's argument into OpenCode bash globs.
func opencodeBash(arg string) []string {
	if stem, ok := strings.CutSuffix(arg, ":*"); ok {
		stem = strings.Join(strings.Fields(stem), " ")
		return []string{stem, stem + " *"}
	}
	if strings.Contains(arg, "*") {
		return []string{arg}
	}
	cmd := strings.Join(strings.Fields(arg), " ")
	return []string{cmd, cmd + " *"}
}

func opencodeMCP(server, tool string) string {
	clean := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' {
				return r
			}
			return '_'
		}, s)
	}
	return clean(server) + "_" + clean(tool)
}

func contains(ks []agents.Kind, k agents.Kind) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}
