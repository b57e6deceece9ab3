package agents

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Brief is s cut to at most n bytes (on a character's boundary), saying
// how long it was.
func Brief(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes in all)", s[:cut], len(s))
}

// CheckText refuses a control character in s: C0 and C1 controls and
// DEL, which no agent field needs and which, written to a terminal,
// move the cursor, repaint the screen or set its title. Free text (a
// description, a prompt, a tool's own text) may hold tabs and line
// breaks; names, models and tool entries are one line (multiline false).
func CheckText(s string, multiline bool) error {
	for i, r := range s {
		if multiline && (r == '\t' || r == '\n' || r == '\r') {
			continue
		}
		if IsControl(r) {
			what := "a control character"
			if r == 0x1b {
				what = "ESC, which starts a terminal escape sequence"
			}
			return fmt.Errorf("holds %U (%s) at byte %d; remove it", r, what, i)
		}
		if !multiline && invisible(r) {
			return fmt.Errorf("holds %U (%s, which looks like nothing or a plain space, so the value reads as one it is not and matches nothing that looks the same) at byte %d; remove it, or type a plain space", r, invisibleKind(r), i)
		}
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return fmt.Errorf("holds a byte that is not UTF-8 at byte %d; save it as UTF-8 text", i)
			}
		}
	}
	return nil
}

// invisible says whether r, in a one-line value (a name, a model, a
// pattern, an id), hides what the value is: a format character (a
// zero-width space, a soft hyphen, a byte-order mark, a bidirectional
// override) or a space or line separator other than U+0020. A deny
// "shell(r\u200bm:*)" reads as shell(rm:*) and denies nothing.
func invisible(r rune) bool {
	return r > unicode.MaxASCII && (unicode.Is(unicode.Cf, r) || unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp))
}

func invisibleKind(r rune) string {
	if unicode.Is(unicode.Cf, r) {
		return "an invisible format character"
	}
	return "a space or line separator other than the plain space"
}

// IsControl says whether r is a C0 or C1 control character or DEL.
func IsControl(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= 0x80 && r <= 0x9f
}

// CheckData refuses a control character in a tool's own value (a key,
// or a string anywhere in it), as CheckText does for free text.
func CheckData(v any) error {
	switch x := v.(type) {
	case string:
		return CheckText(x, true)
	case []any:
		for i, e := range x {
			if err := CheckData(e); err != nil {
				return fmt.Errorf("item %d %w", i+1, err)
			}
		}
	case *Map:
		for _, k := range x.Keys {
			if err := CheckText(k, false); err != nil {
				return fmt.Errorf("key %q %w", k, err)
			}
			if err := CheckData(x.Values[k]); err != nil {
				return fmt.Errorf("%s %w", k, err)
			}
		}
	}
	return nil
}
