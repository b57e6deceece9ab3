package enforce

import (
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// shellPattern is a shell rule's argument, compiled to match the words
// of a command as the shell would run it:
//
//	git diff     the words git, diff, then anything ("git diff --stat")
//	git diff:*   the same
//	rm*          '*' is any run of characters: "rm", "rmdir -p x"
//	*            every command
type shellPattern struct {
	set   bool // a shell rule (else the zero value matches nothing)
	whole bool
	words []string // the words a command starts with
	glob  string   // a pattern with '*', matched on the words joined by spaces
	first string   // glob's first word, which the command word must match
}

func compileShellPattern(p agents.ToolPattern) shellPattern {
	sp := shellPattern{set: true}
	arg := strings.Join(strings.Fields(p.Arg), " ")
	if !p.HasArg || arg == "*" || arg == "*:*" {
		sp.whole = true
		return sp
	}
	if stem, ok := strings.CutSuffix(arg, ":*"); ok {
		if !strings.Contains(stem, "*") {
			sp.words = strings.Fields(stem)
			return sp
		}
		arg = stem + "*"
	}
	if strings.Contains(arg, "*") {
		sp.glob = arg
		sp.first = strings.Fields(arg)[0]
		return sp
	}
	sp.words = strings.Fields(arg)
	return sp
}

// sentinel stands, in a joined command, for a word bn does not know: no
// pattern text holds it, so only a '*' can match it.
const sentinel = "\x00"

// allows matches a command's words for an allow: its command word is
// the word the pattern names, exactly; a word not known now matches
// only a '*' of the pattern, or what comes after the pattern's words.
func (sp shellPattern) allows(ws []word) bool {
	switch {
	case !sp.set:
		return false
	case sp.whole:
		return true
	case sp.glob == "":
		if len(ws) < len(sp.words) {
			return false
		}
		for i, p := range sp.words {
			if !ws[i].static() || ws[i].value() != p {
				return false
			}
		}
		return true
	}
	if len(ws) == 0 || !ws[0].static() || !wordGlob(sp.first, ws[0].value()) {
		return false
	}
	parts := make([]string, len(ws))
	for i, x := range ws {
		parts[i] = sentinel
		if x.static() && !strings.Contains(x.value(), sentinel) {
			parts[i] = x.value()
		}
	}
	return agents.MatchWildcard(sp.glob, strings.Join(parts, " "))
}

// denies matches a command's words for a deny, erring towards a match:
// any case, and a word not known now may be any word (or several).
// ws[0] is already the command's base name.
func (sp shellPattern) denies(ws []word) bool {
	switch {
	case !sp.set:
		return false
	case sp.whole:
		return true
	case sp.glob == "":
		for i, p := range sp.words {
			if i >= len(ws) {
				return false
			}
			if ws[i].vals == nil || ws[i].glob {
				return true // may be p
			}
			if !anyFold(ws[i], p) {
				return false
			}
		}
		return true
	}
	parts := make([]string, len(ws))
	for i, x := range ws {
		if len(x.vals) != 1 {
			return true
		}
		parts[i] = strings.ToLower(x.vals[0])
	}
	if !wordGlob(strings.ToLower(sp.first), parts[0]) {
		return false
	}
	return agents.MatchWildcard(strings.ToLower(sp.glob), strings.Join(parts, " "))
}

// anyFold: one of the values w may take is p, in any case.
func anyFold(w word, p string) bool {
	for _, v := range w.vals {
		if strings.EqualFold(v, p) {
			return true
		}
	}
	return false
}

// wordGlob matches one word against a pattern word whose '*' does not
// cross a space.
func wordGlob(p, s string) bool {
	if strings.Contains(s, " ") && strings.Contains(p, "*") {
		return false
	}
	return agents.MatchWildcard(p, s)
}

// normalizeForDeny is a command as deny rules see it: the command word
// reduced to its base name, and a program's own prefixes dropped (git's
// global options).
func normalizeForDeny(ws []word) []word {
	out := make([]word, len(ws))
	copy(out, ws)
	if ws[0].static() {
		out[0] = literal(baseName(ws[0].value()))
	} else {
		out[0] = dynamic(ws[0].src, true)
	}
	if out[0].static() && out[0].value() == "git" {
		out = append(out[:1], gitSubcommand(out[1:], false)...)
	}
	return out
}

// normalizeForAllow is a command as allow rules see it: as written, but
// for the global options of git that change nothing of what runs.
func normalizeForAllow(ws []word) []word {
	if ws[0].value() != "git" {
		return ws
	}
	return append([]word{ws[0]}, gitSubcommand(ws[1:], true)...)
}
