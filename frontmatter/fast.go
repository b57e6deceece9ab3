package frontmatter

import (
	"bytes"
	"strings"
	"unicode/utf8"
)

// Most agent frontmatter is a handful of `key: value` lines. Parsing it
// with a full YAML parser dominated `list` over thousands of files, so
// fastYAML reads that simple subset itself and declines everything else
// (block scalars, nesting, anchors, numbers, escapes, continuation lines),
// which then goes to goccy/go-yaml. FuzzFastYAML checks that whatever it
// accepts, goccy reads the same way.

// fastYAML returns the top-level fields, or ok=false if the text is not
// entirely in the subset it handles.
func fastYAML(src []byte, firstLine int) ([]Entry, bool) {
	if !utf8.Valid(src) || bytes.ContainsFunc(src, unusual) {
		return nil, false
	}
	out := make([]Entry, 0, 8)
	seen := map[string]bool{} // a duplicate key goes to the full parser, which refuses it
	for i, raw := range bytes.Split(src, []byte("\n")) {
		line := strings.TrimSuffix(string(raw), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' || line[0] == '#' || strings.ContainsRune(line, '\t') {
			return nil, false
		}
		key, value, found := strings.Cut(line, ":")
		if !found || !simpleKey(key) || (value != "" && value[0] != ' ') {
			return nil, false
		}
		if seen[key] {
			return nil, false
		}
		seen[key] = true
		v, ok := fastValue(strings.TrimSpace(value))
		if !ok {
			return nil, false
		}
		out = append(out, Entry{Key: key, Value: v, Line: firstLine + i, Col: 1})
	}
	return out, true
}

// unusual marks characters whose YAML meaning the fast path does not
// replicate: control characters, and the Unicode line and byte-order marks.
func unusual(r rune) bool {
	return (r < 0x20 && r != '\n' && r != '\r') || r == 0x7f || r == 0x85 || r == 0x2028 || r == 0x2029 || r == 0xFEFF
}

func simpleKey(k string) bool {
	if k == "" || !(k[0] >= 'a' && k[0] <= 'z' || k[0] >= 'A' && k[0] <= 'Z' || k[0] == '_') {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// fastValue reads a plain, simply quoted, boolean or flow-list value.
func fastValue(v string) (any, bool) {
	switch {
	case v == "":
		return nil, false // a block list or mapping may follow
	case v == "true":
		return true, true
	case v == "false":
		return false, true
	case v[0] == '"':
		s := v[1:]
		if !strings.HasSuffix(s, `"`) || strings.ContainsAny(s[:len(s)-1], `"\`) {
			return nil, false
		}
		return s[:len(s)-1], true
	case v[0] == '\'':
		s := v[1:]
		if !strings.HasSuffix(s, "'") || strings.ContainsRune(s[:len(s)-1], '\'') {
			return nil, false
		}
		return s[:len(s)-1], true
	case v[0] == '[':
		if !strings.HasSuffix(v, "]") {
			return nil, false
		}
		inner := strings.TrimSpace(v[1 : len(v)-1])
		items := []any{}
		if inner == "" {
			return items, true
		}
		for _, it := range strings.Split(inner, ",") {
			it = strings.TrimSpace(it)
			if !plainScalar(it, true) {
				return nil, false
			}
			items = append(items, it)
		}
		return items, true
	}
	if !plainScalar(v, false) {
		return nil, false
	}
	return v, true
}

// plainScalar accepts unquoted strings that YAML reads as themselves: no
// indicator first, no ": " or " #", and nothing that could be a number,
// null or another boolean spelling. In a flow list, no flow characters.
func plainScalar(s string, inFlow bool) bool {
	if s == "" || strings.ContainsRune("-?:,[]{}#&*!|>'\"%@`.+~0123456789", rune(s[0])) {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") || strings.HasSuffix(s, " ") {
		return false
	}
	if inFlow && strings.ContainsAny(s, "[]{},\"'") {
		return false
	}
	switch strings.ToLower(s) {
	case "true", "false", "null", "yes", "no", "on", "off", "y", "n", "nan", "inf":
		return false
	}
	return true
}
