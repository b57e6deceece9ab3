package agents

import (
	"fmt"
	"unicode/utf8"
)

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
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return fmt.Errorf("holds a byte that is not UTF-8 at byte %d; save it as UTF-8 text", i)
			}
		}
	}
	return nil
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
