package enforce

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// word is one shell word as bn knows it before the line runs.
type word struct {
	src string
	// vals are the words it becomes (more than one after brace
	// expansion); nil when its value is known only when the line runs.
	vals []string
	// glob: it holds a pattern the shell matches against file names, so
	// its value depends on the files there.
	glob bool
	// option: it may become a word starting with '-', which a program
	// would read as an option.
	option bool
	// fuzzy: a bracket of its pattern holds quoted text (.en["v"]),
	// whose extent its value does not show.
	fuzzy bool
}

// static reports whether w is exactly one word known now.
func (w word) static() bool { return len(w.vals) == 1 && !w.glob }

// value is w's value when static, else "".
func (w word) value() string {
	if w.static() {
		return w.vals[0]
	}
	return ""
}

// dynamic is a word made of the given source, known only at run time.
func dynamic(src string, option bool) word { return word{src: src, option: option} }

// literal makes a static word, for words bn composes (a runner's inner
// command keeps the words of the outer one).
func literal(s string) word {
	return word{src: s, vals: []string{s}, option: strings.HasPrefix(s, "-")}
}

// role is where a word stands: rules differ for a command word, an
// argument and a redirection's file.
type role int

const (
	argWord role = iota
	commandWord
	targetWord
	assignWord
	otherWord // case patterns, here-document bodies, [[ ]] operands
)

// word analyses a shell word: its value when it is known, and, through
// w.fail, every part of it that runs code or that bash and zsh read
// differently, as the mode refuses.
func (w *walker) word(wd *syntax.Word, r role) word {
	if wd == nil {
		return word{} // ${x/pat} has no replacement word
	}
	out := word{src: w.src(wd)}
	// b is the word as bash makes it, zb as zsh does: they differ where
	// bash expands "~" in an argument that looks like an assignment.
	var b, zb strings.Builder
	known, glob, braces := true, false, false
	assign := r == argWord && assignLike(wd)
	option := false // decided by the first character, once known
	first := true
	open, fuzzy := false, false // an unquoted '[' not closed in its part
	for i, part := range wd.Parts {
		if w.stopped() {
			return out
		}
		switch p := part.(type) {
		case *syntax.Lit:
			val, zval, g, br, ok := w.lit(p, r, i == 0, i > 0 && endsWithParam(wd.Parts[i-1]), assign)
			if !ok {
				known = false
				if first {
					option = true
				}
			}
			glob = glob || g
			braces = braces || br
			if open && strings.Contains(p.Value, "]") {
				// A bracket across quoted parts is a pattern still.
				glob, fuzzy = true, true
			}
			if k := strings.LastIndexByte(p.Value, '['); k >= 0 && !strings.Contains(p.Value[k:], "]") {
				open = true
			}
			if first && val != "" {
				// A pattern that starts the word may match a name
				// starting with '-'.
				option = option || val[0] == '-' || g && strings.IndexByte("*?[", p.Value[0]) >= 0
			}
			b.WriteString(val)
			zb.WriteString(zval)
			if val != "" {
				first = false
			}
		case *syntax.SglQuoted:
			val := p.Value
			if p.Dollar {
				var ok bool
				if val, ok = ansiC(p.Value); !ok {
					known = false
				}
			}
			if first && val != "" {
				option = option || val[0] == '-'
				first = false
			}
			b.WriteString(val)
			zb.WriteString(val)
		case *syntax.DblQuoted:
			if p.Dollar && w.mode != free {
				w.fail("$\"…\" is a translated string in bash and reads otherwise in zsh")
				return out
			}
			for _, q := range p.Parts {
				switch qp := q.(type) {
				case *syntax.Lit:
					val := unescapeDouble(qp.Value)
					if strings.ContainsAny(qp.Value, "$`") && w.mode != free && zshDollar(qp.Value) {
						w.fail("%q: zsh expands \"$\" followed by one of =~^+ where bash does not", qp.Value)
						return out
					}
					if first && val != "" {
						option = option || val[0] == '-'
						first = false
					}
					b.WriteString(val)
					zb.WriteString(val)
				default:
					w.expansion(q, true)
					known = false
					if first {
						option = true
						first = false
					}
				}
			}
		default:
			w.expansion(part, false)
			known = false
			if first {
				option = true
				first = false
			}
		}
	}
	out.glob = glob
	out.fuzzy = fuzzy
	out.option = option
	if !known {
		return out
	}
	if b.String() != zb.String() {
		if braces {
			w.fail("%s: bash expands \"~\" after \"=\" here and zsh does not, and the word holds braces too; write the path itself", out.src)
			return out
		}
		out.vals = []string{b.String(), zb.String()}
		return out
	}
	if !braces && len(wd.Parts) > 1 && slices.ContainsFunc(wd.Parts, openBrace) {
		// A brace expansion whose parts are quoted ({"-o",x},
		// src/{"../a",b}) spans parts, which the shell expands all the
		// same: the words it makes are checked as any other's are.
		braces = expandsBraces(wd)
	}
	if !braces {
		out.vals = []string{b.String()}
		return out
	}
	out.vals = w.braceVariants(wd, b.String())
	for _, v := range out.vals {
		out.option = out.option || strings.HasPrefix(v, "-")
	}
	return out
}

// endsWithParam reports whether a word part is an unbraced parameter
// expansion ("$x"), after which zsh reads "[" as a subscript and ":" as a
// modifier.
func endsWithParam(p syntax.WordPart) bool {
	pe, ok := p.(*syntax.ParamExp)
	return ok && pe.Short
}

// assignLike reports whether a word starts NAME= unquoted: bash expands
// "~" after its "=" and after each ":" that follows, even as a program's
// argument (dd of=~/x); zsh does not unless MAGIC_EQUAL_SUBST is set.
func assignLike(wd *syntax.Word) bool {
	l, ok := wd.Parts[0].(*syntax.Lit)
	if !ok {
		return false
	}
	name, _, ok := strings.Cut(l.Value, "=")
	return ok && syntax.ValidName(name)
}

// tilde is where a tilde prefix ("~", "~+", "~-", "~user") leads, as a
// path bn can check: "~+" is the current directory, so "."; "~-" the
// previous one, which bn knows after a cd it follows in the line, unless
// the line may set OLDPWD itself. False when bn cannot know it (the
// previous directory otherwise, another user's home).
func (w *walker) tilde(prefix string) (string, bool) {
	switch prefix {
	case "~":
		// The home directory is a path, not shell text: its
		// backslashes (Windows') are kept, not read as escapes.
		return w.e.ctx.Home, w.e.ctx.Home != ""
	case "~+":
		return ".", true
	case "~-":
		if prev, ok := w.here.previous(); ok && !w.namedSets && !strings.Contains(w.line, "OLDPWD") {
			return prev, true
		}
		if w.mode != free {
			w.fail("%q: ~- is the previous directory ($OLDPWD), which bn knows only after a cd in the line it follows, taken whichever way the line runs, with nothing in the line that may set OLDPWD; write the path itself", prefix)
		}
	}
	return "", false
}

// lit reads an unquoted literal: its value with backslashes removed as
// bash and zsh make it (they differ in an assignment-like word, assign),
// whether it holds glob characters or brace expansion, and false when
// its value is not known now (a "~user", "~-", zsh's "=cmd").
func (w *walker) lit(p *syntax.Lit, r role, start, afterParam, assign bool) (val, zval string, glob, braces, ok bool) {
	s := p.Value
	guarded := w.mode != free
	if guarded && afterParam && (strings.HasPrefix(s, "[") || strings.HasPrefix(s, ":")) {
		w.fail("%q after a parameter is a subscript or a modifier in zsh and plain text in bash; write \"${name}\" and quote the rest", s)
		return "", "", false, false, false
	}
	if guarded && zshDollar(s) {
		w.fail("%q: zsh expands \"$\" followed by one of =~^+ where bash does not", s)
		return "", "", false, false, false
	}
	ok = true
	if start && strings.HasPrefix(s, "=") && len(s) > 1 && guarded {
		// zsh replaces "=cmd" with the command's path.
		ok = false
	}
	var b, zb strings.Builder
	if start && strings.HasPrefix(s, "~") {
		end := strings.IndexByte(s, '/')
		if end < 0 {
			end = len(s)
		}
		dir, placed := w.tilde(s[:end])
		if !placed {
			return "", "", false, false, false
		}
		b.WriteString(dir)
		zb.WriteString(dir)
		s = s[end:]
	}
	eq := -1 // where an assignment-like word's value starts
	if assign && start {
		eq = strings.IndexByte(s, '=') + 1
	}
	colon := false // the last character was an unescaped ':'
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '~' && assign && (i == eq || colon) {
			// bash's tilde prefix in an assignment ends at '/' or ':'.
			end := i + strings.IndexAny(s[i:]+"/", "/:")
			dir, placed := w.tilde(s[i:end])
			if !placed {
				return "", "", false, false, false
			}
			b.WriteString(dir)
			zb.WriteString(s[i:end])
			glob = true // zsh's EXTENDED_GLOB reads "~" as a glob operator
			i = end - 1
			colon = false
			continue
		}
		colon = c == ':'
		switch c {
		case '\\':
			if i+1 < len(s) {
				i++
				if s[i] != '\n' {
					b.WriteByte(s[i])
					zb.WriteByte(s[i])
				}
			}
			continue
		case '*', '?':
			glob = true
		case '[':
			glob = glob || strings.IndexByte(s[i+1:], ']') >= 0
		case '^', '#':
			// zsh's EXTENDED_GLOB, which a user's configuration may set.
			if i > 0 || c == '^' {
				glob = true
			}
		case '~':
			if i > 0 {
				// bash expands "~" after "=" or ":" in arguments that look
				// like assignments, zsh does not; with EXTENDED_GLOB it is
				// a glob operator.
				glob = true
			}
		case '{':
			if strings.ContainsAny(s[i:], ",.") && strings.Contains(s[i:], "}") {
				braces = true
			}
		}
		b.WriteByte(c)
		zb.WriteByte(c)
	}
	return b.String(), zb.String(), glob, braces, ok
}

// expandsBraces says whether brace expansion makes more than one word
// of wd: {"a"} and {""} stay one word, as in the shell.
func expandsBraces(wd *syntax.Word) bool {
	cp := &syntax.Word{Parts: slices.Clone(wd.Parts)}
	if !syntax.SplitBraces(cp) {
		return false
	}
	n := 0
	for _, err := range expand.BracesSeq(nil, cp) {
		if n++; err != nil || n > 1 {
			return true
		}
	}
	return false
}

// openBrace says whether a word part is a literal holding "{".
func openBrace(p syntax.WordPart) bool {
	l, ok := p.(*syntax.Lit)
	return ok && strings.IndexByte(l.Value, '{') >= 0
}

// zshDollar reports a "$" zsh expands and bash leaves alone: $=x, $~x,
// $^x, $+x (and in bash "$" before them is a plain character).
func zshDollar(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '$' && strings.IndexByte("=~^+", s[i+1]) >= 0 {
			return true
		}
	}
	return false
}

// braceVariants expands braces as bash does, bounded. zsh expands the
// same lists and sequences; a word where they could differ is read both
// ways, so the words it may become are all checked.
func (w *walker) braceVariants(wd *syntax.Word, flat string) []string {
	cp := &syntax.Word{Parts: append([]syntax.WordPart(nil), wd.Parts...)}
	syntax.SplitBraces(cp)
	out := []string{flat}
	for v, err := range expand.BracesSeq(nil, cp) {
		if err == nil && len(out) > braceBudget {
			err = errTooMany
		}
		var s string
		if err == nil {
			s, err = expand.Literal(nil, v)
		}
		if err != nil {
			// Giving up must refuse: an unchecked name may be one the
			// rules deny.
			w.fail("%s: too many words to check (brace expansion makes more than %d); write the names out", w.src(wd), braceBudget)
			return nil
		}
		out = append(out, s)
	}
	return out
}

// braceBudget bounds the words one brace expansion may make.
const braceBudget = 256

// unescapeDouble removes the backslashes double quotes remove: before $,
// `, ", \ and a newline.
func unescapeDouble(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
			i++
			if s[i] != '\n' {
				b.WriteByte(s[i])
			}
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// ansiC decodes a $'…' string's escapes where bash and zsh agree; false
// for any other escape.
func ansiC(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch c = s[i]; c {
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'e', 'E':
			b.WriteByte(0x1b)
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '\\', '\'', '"', '?':
			b.WriteByte(c)
		case 'x', 'u', 'U':
			n := map[byte]int{'x': 2, 'u': 4, 'U': 8}[c]
			j := i + 1
			for j < len(s) && j < i+1+n && isHex(s[j]) {
				j++
			}
			if j == i+1 {
				return "", false
			}
			v, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			if c == 'x' {
				b.WriteByte(byte(v))
			} else {
				if v == 0 || v > utf8.MaxRune {
					return "", false
				}
				b.WriteRune(rune(v))
			}
			i = j - 1
		case '0', '1', '2', '3', '4', '5', '6', '7':
			j := i
			for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
				j++
			}
			v, _ := strconv.ParseUint(s[i:j], 8, 16)
			b.WriteByte(byte(v))
			i = j - 1
		default:
			return "", false
		}
	}
	return b.String(), true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
