package agents

import (
	"fmt"
	"slices"
	"strings"
	"sync"
)

// ToolPattern is a parsed Copilot/Claude-style tool permission pattern:
//
//	kind           every use of the tool kind (shell, write, an MCP server, …)
//	kind(arg)      one use: a shell command, a path, an MCP tool
//	kind(cmd:*)    the shell command word(s) cmd followed by anything
//	server/tool    an MCP tool; server/* is every tool of that server
//
// server/tool and server(tool) mean the same thing when server is no kind
// or alias. Written with a slash, the name is always an MCP server: an
// MCP server called fetch or memory is fetch/* and its tool fetch/fetch,
// while fetch alone is bn's webfetch.
type ToolPattern struct {
	Kind   string
	Arg    string
	HasArg bool
	// MCP: Kind names an MCP server, and Arg one of its tools.
	MCP bool
}

func (p ToolPattern) String() string {
	if p.MCP && (KindsOf(p.Kind) != nil || NearestKind(p.Kind) != "") {
		// A server named like a kind, or nearly (which read without the
		// slash is a typo), is told apart by the slash.
		if !p.HasArg {
			return p.Kind + "/*"
		}
		return p.Kind + "/" + p.Arg
	}
	if !p.HasArg {
		return p.Kind
	}
	return p.Kind + "(" + p.Arg + ")"
}

// Kinds are the kinds the pattern names (KindsOf), none for an MCP
// server's.
func (p ToolPattern) Kinds() []Kind {
	if p.MCP {
		return nil
	}
	return KindsOf(p.Kind)
}

// MCPPattern is the pattern for an MCP server's tool (tool "": every
// tool of the server), whatever the server is called.
func MCPPattern(server, tool string) string {
	p := ToolPattern{Kind: server, MCP: true}
	if tool != "" && tool != "*" {
		p.Arg, p.HasArg = tool, true
	}
	return p.String()
}

// ParseToolPattern parses s, rejecting anything the grammar does not allow.
func ParseToolPattern(s string) (ToolPattern, error) {
	if s == "" {
		return ToolPattern{}, fmt.Errorf("empty tool pattern")
	}
	if strings.TrimSpace(s) != s {
		return ToolPattern{}, fmt.Errorf("tool pattern %q has leading or trailing spaces", s)
	}
	if err := CheckText(s, false); err != nil {
		return ToolPattern{}, fmt.Errorf("tool pattern %q %w", s, err)
	}
	if open := strings.IndexByte(s, '('); open >= 0 {
		if !strings.HasSuffix(s, ")") {
			return ToolPattern{}, fmt.Errorf("tool pattern %q: missing closing ')'", s)
		}
		kind, arg := s[:open], s[open+1:len(s)-1]
		if err := checkKind(s, kind); err != nil {
			return ToolPattern{}, err
		}
		if err := checkTypo(s, kind, arg); err != nil {
			return ToolPattern{}, err
		}
		if strings.TrimSpace(arg) == "" {
			return ToolPattern{}, fmt.Errorf("tool pattern %q: empty argument; write %q for every use", s, kind)
		}
		return ToolPattern{Kind: kind, Arg: arg, HasArg: true, MCP: serverName(kind)}, nil
	}
	if strings.ContainsRune(s, ')') {
		return ToolPattern{}, fmt.Errorf("tool pattern %q: ')' without '('", s)
	}
	if server, tool, ok := strings.Cut(s, "/"); ok {
		if err := checkKind(s, server); err != nil {
			return ToolPattern{}, err
		}
		if tool == "" || strings.ContainsRune(tool, '/') {
			return ToolPattern{}, fmt.Errorf("tool pattern %q: write server/tool or server/*", s)
		}
		return ToolPattern{Kind: server, Arg: tool, HasArg: true, MCP: true}, nil
	}
	if err := checkKind(s, s); err != nil {
		return ToolPattern{}, err
	}
	if err := checkTypo(s, s, "*"); err != nil {
		return ToolPattern{}, err
	}
	return ToolPattern{Kind: s, MCP: serverName(s)}, nil
}

// checkTypo refuses a name that is no kind but nearly one (shel, reed):
// read as an MCP server, it would grant nothing and deny nothing, and a
// check of it would answer for a server no agent has. An MCP server so
// named is written with the slash, which always names a server.
func checkTypo(pattern, kind, arg string) error {
	if !serverName(kind) {
		return nil
	}
	near := NearestKind(kind)
	if near == "" {
		return nil
	}
	e := &KindTypoError{Pattern: pattern, Kind: kind, Meant: near, Server: kind + "/*"}
	if arg != "*" {
		e.Meant, e.Server = near+"("+arg+")", kind+"/"+arg
	}
	return e
}

// KindTypoError is a pattern whose kind is a slip for a known one: Meant
// is the pattern with that kind, Server how an MCP server so named is
// written.
type KindTypoError struct {
	Pattern, Kind, Meant, Server string
}

// Problem is what is wrong, without the fix.
func (e *KindTypoError) Problem() string {
	return fmt.Sprintf("tool pattern %q: %q is no tool kind", e.Pattern, e.Kind)
}

// Fix is how to write what was meant.
func (e *KindTypoError) Fix() string {
	return fmt.Sprintf("did you mean %q? An MCP server named %q is written %q", e.Meant, e.Kind, e.Server)
}

func (e *KindTypoError) Error() string { return e.Problem() + "; " + e.Fix() }

// NearestKind returns the kind or alias name is a slip of the keys for,
// or "" when it is one, or none. Unlike a hint, this refuses a name, and
// bare names are MCP servers' too, so it is kept to the slips that seldom
// make another word (see slip) in names of four letters or more.
func NearestKind(name string) string {
	if len(name) < 4 || KindsOf(name) != nil {
		return ""
	}
	l := strings.ToLower(name)
	for _, k := range kindNames() {
		if slip(l, k) {
			return k
		}
	}
	return ""
}

// slip says whether typed is word with one slip: two letters swapped, a
// letter left out or doubled or added inside the word, or one typed for a
// key beside it or a vowel for a vowel (reed). A first letter changed or
// letters added at the end are not slips: they make the words MCP servers
// are named (head, gist, tasks, plane, reader).
func slip(typed, word string) bool {
	n, m := len(typed), len(word)
	i := 0
	for i < n && i < m && typed[i] == word[i] {
		i++
	}
	switch {
	case n == m && i > 0 && i < n:
		if i+1 < n && typed[i] == word[i+1] && typed[i+1] == word[i] && typed[i+2:] == word[i+2:] {
			return true // swapped
		}
		return typed[i+1:] == word[i+1:] && (nearKeys(typed[i], word[i]) || isVowel(typed[i]) && isVowel(word[i]))
	case n == m-1:
		return i > 0 && typed[i:] == word[i+1:] // left out
	case n == m+1:
		return i > 0 && i < m && typed[i+1:] == word[i:] // added inside
	}
	return false
}

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

// nearKeys says whether a and b are beside each other on a QWERTY
// keyboard, where each row sits half a key right of the one above.
func nearKeys(a, b byte) bool {
	rows := [...]string{"qwertyuiop", "asdfghjkl", "zxcvbnm"}
	ra, ca, rb, cb := -1, 0, -1, 0
	for r, row := range rows {
		if c := strings.IndexByte(row, a); c >= 0 {
			ra, ca = r, c
		}
		if c := strings.IndexByte(row, b); c >= 0 {
			rb, cb = r, c
		}
	}
	if ra < 0 || rb < 0 {
		return false
	}
	if ra > rb { // a on the lower row
		ra, ca, rb, cb = rb, cb, ra, ca
	}
	switch rb - ra {
	case 0:
		return ca-cb == 1 || cb-ca == 1
	case 1:
		return cb == ca || cb == ca-1
	}
	return false
}

// kindNames are the kinds, then the aliases, as a pattern spells them;
// listed when a slip is first looked for, not at start.
var kindNames = sync.OnceValue(func() []string {
	out := make([]string, 0, len(Kinds)+len(aliases))
	for _, k := range Kinds {
		out = append(out, string(k.Kind))
	}
	return append(out, AliasNames()...)
})

// serverName says whether a name before parentheses, or alone, is an MCP
// server's: neither a kind nor a tool's own name.
func serverName(kind string) bool {
	return KindsOf(kind) == nil && !strings.HasPrefix(kind, NativePrefix)
}

func checkKind(pattern, kind string) error {
	if kind == "" {
		return fmt.Errorf("tool pattern %q: missing tool kind before the argument", pattern)
	}
	kind = strings.TrimPrefix(kind, NativePrefix)
	for _, r := range kind {
		ok := r == '_' || r == '-' || r == '.' || r == '@' ||
			(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9')
		if !ok {
			return fmt.Errorf("tool pattern %q: tool kind %q may hold only letters, digits, '_', '-', '.' and '@'", pattern, kind)
		}
	}
	return nil
}

// LintToolPattern returns a warning for patterns that parse but probably do
// not mean what was intended, or "" when there is none.
func LintToolPattern(p ToolPattern) string {
	if !p.HasArg || !strings.EqualFold(p.Kind, "shell") {
		return ""
	}
	body := strings.TrimSuffix(p.Arg, ":*")
	if i := strings.IndexByte(body, ':'); i >= 0 {
		return fmt.Sprintf("%q: ':' only has a meaning in the ':*' suffix; did you mean %q or %q?",
			p.String(), p.Kind+"("+body[:i]+" "+body[i+1:]+")", p.Kind+"("+body[:i]+":*)")
	}
	return ""
}

// Matches reports whether the pattern p covers the whole tool use req,
// which is written in the same grammar (for example "shell(git push
// origin main)"). Kinds compare through their aliases: "view" covers a
// request for "read", "edit" does not cover one for "write" (which also
// creates files).
func (p ToolPattern) Matches(req ToolPattern) bool {
	return p.kindCovers(req, true) && p.argCovers(req)
}

// Overlaps reports whether p covers any part of req: a deny rule that
// overlaps a request refuses it.
func (p ToolPattern) Overlaps(req ToolPattern) bool {
	return p.kindCovers(req, false) && p.argCovers(req)
}

// kindCovers compares kinds: all of req's kinds (whole) or any of them.
func (p ToolPattern) kindCovers(req ToolPattern, whole bool) bool {
	pk, rk := p.Kinds(), req.Kinds()
	if pk == nil || rk == nil {
		return pk == nil && rk == nil && p.MCP == req.MCP && strings.EqualFold(p.Kind, req.Kind)
	}
	for _, k := range rk {
		in := slices.Contains(pk, k)
		if whole && !in {
			return false
		}
		if !whole && in {
			return true
		}
	}
	return whole
}

func (p ToolPattern) argCovers(req ToolPattern) bool {
	if !p.HasArg || p.Arg == "*" {
		return true
	}
	if !req.HasArg {
		return false
	}
	if slices.Contains(p.Kinds(), KindShell) {
		return MatchCommand(normalizeSpaces(p.Arg), normalizeSpaces(req.Arg))
	}
	return MatchWildcard(p.Arg, req.Arg)
}

// MatchCommand matches a shell command against a shell pattern argument:
//
//	git push    "git push" and "git push …" (whole words), not "git pushy"
//	git:*       "git", "git …" and binnacle's "git:…"
//	rm*         '*' anywhere is any run of characters: "rm", "rmdir -p x"
func MatchCommand(pattern, cmd string) bool {
	if pattern == "*" {
		return true
	}
	if stem, ok := strings.CutSuffix(pattern, ":*"); ok {
		return cmd == stem || strings.HasPrefix(cmd, stem+" ") || strings.HasPrefix(cmd, stem+":")
	}
	if strings.Contains(pattern, "*") {
		return MatchWildcard(pattern, cmd)
	}
	return cmd == pattern || strings.HasPrefix(cmd, pattern+" ")
}

func normalizeSpaces(s string) string { return strings.Join(strings.Fields(s), " ") }

// MatchWildcard matches s against a pattern where '*' stands for any run of
// characters and everything else is literal.
func MatchWildcard(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(s, mid)
		if i < 0 {
			return false
		}
		s = s[i+len(mid):]
	}
	return strings.HasSuffix(s, last)
}

// Decision is the answer to "may a rule list grant this use?".
type Decision struct {
	Allowed bool
	Rule    string // the pattern that decided; empty when no rule matched
	List    string // "deny", "allow", "unrestricted", or "" when no rule matched
}

// Decide compares a use, written as a pattern, with the rules: the deny
// list first (deny wins), then the allow list, or allows it when the
// agent is unrestricted. A use no rule allows is not allowed. It answers
// what the rules say of kinds and patterns (does this agent have shell
// at all? does "shell(git:*)" cover "shell(git push)"?) and reads a
// shell argument as a pattern, not as a command line: whether a call
// may run is decided by package enforce, which parses command lines and
// resolves paths. Loading rejects malformed patterns; should one get
// here anyway, a deny pattern that does not parse denies everything
// (fail closed) and an allow pattern allows nothing.
func Decide(tools Tools, req ToolPattern) Decision {
	for _, d := range tools.Deny {
		if p, err := ParseToolPattern(d); err != nil || p.Overlaps(req) {
			return Decision{Allowed: false, Rule: d, List: "deny"}
		}
	}
	if tools.All {
		return Decision{Allowed: true, List: "unrestricted"}
	}
	for _, a := range tools.Allow {
		if p, err := ParseToolPattern(a); err == nil && p.Matches(req) {
			return Decision{Allowed: true, Rule: a, List: "allow"}
		}
	}
	return Decision{}
}

// Uses says whether an agent may use a kind at all: the kind is not
// denied whole, and is granted whole or by some pattern. A tool that
// offers or withholds a kind whole answers the same question.
func (t Tools) Uses(k Kind) bool {
	for _, d := range t.Deny {
		if p, err := ParseToolPattern(d); err == nil && !p.HasArg && slices.Contains(p.Kinds(), k) {
			return false
		}
	}
	if t.All {
		return true
	}
	for _, a := range t.Allow {
		if p, err := ParseToolPattern(a); err == nil && slices.Contains(p.Kinds(), k) {
			return true
		}
	}
	return false
}

// Beyond lists what t grants that old does not: "every tool" when t is
// unrestricted and old is not, each allow pattern no allow of old covers
// whole, and each deny of old that no deny of t covers whole ("no longer
// denies …"). It judges rules, not every request they decide: a rule it
// names may grant nothing new in practice, but nothing t grants beyond
// old goes unnamed.
func (t Tools) Beyond(old Tools) []string {
	var out []string
	covered := func(rules []string, p string) bool {
		req, err := ParseToolPattern(p)
		if err != nil {
			return false
		}
		return slices.ContainsFunc(rules, func(r string) bool {
			rp, err := ParseToolPattern(r)
			return err == nil && rp.Matches(req)
		})
	}
	switch {
	case t.All && !old.All:
		out = append(out, "every tool")
	case !t.All && !old.All:
		for _, a := range t.Allow {
			if !covered(old.Allow, a) {
				out = append(out, a)
			}
		}
	}
	for _, d := range old.Deny {
		if !covered(t.Deny, d) {
			out = append(out, "no longer denies "+d)
		}
	}
	return out
}
