package kdl

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Format writes nodes as a document in version v, four spaces per level.
// Values are written so both this package and other readers of that
// version read them back unchanged: strings quoted (raw or multi-line
// where that reads better), keywords spelled for the version.
func Format(nodes []*Node, v Version) string {
	var b strings.Builder
	writeNodes(&b, nodes, v, "")
	return b.String()
}

// FormatNode writes one node (and its children) at the given depth.
func FormatNode(n *Node, v Version, depth int) string {
	var b strings.Builder
	writeNodes(&b, []*Node{n}, v, strings.Repeat("    ", depth))
	return b.String()
}

func writeNodes(b *strings.Builder, nodes []*Node, v Version, indent string) {
	for _, n := range nodes {
		b.WriteString(indent)
		if n.HasType {
			b.WriteString("(" + Name(n.Type, v) + ")")
		}
		b.WriteString(Name(n.Name, v))
		for _, a := range n.Args {
			b.WriteByte(' ')
			b.WriteString(formatValue(a, v, indent+"    "))
		}
		for _, p := range n.Props {
			b.WriteString(" " + Name(p.Key, v) + "=" + formatValue(p.Value, v, indent+"    "))
		}
		if n.Block || len(n.Children) > 0 {
			if len(n.Children) == 0 {
				b.WriteString(" {\n" + indent + "}")
			} else {
				b.WriteString(" {\n")
				writeNodes(b, n.Children, v, indent+"    ")
				b.WriteString(indent + "}")
			}
		}
		b.WriteByte('\n')
	}
}

func formatValue(val Value, v Version, indent string) string {
	prefix := ""
	if val.HasType {
		prefix = "(" + Name(val.Type, v) + ")"
	}
	switch val.Kind {
	case String:
		if v == V2 && plainWord(val.Str) {
			return prefix + val.Str // a KDL 2.0 identifier string, as people write them
		}
		return prefix + QuoteBlock(val.Str, v, indent)
	case Int, Float:
		if v == V1 && strings.HasPrefix(val.Str, "#") {
			return prefix + Quote(val.Str, v) // KDL 1.0 has no inf or nan
		}
		return prefix + val.Str
	case Bool:
		if v == V1 {
			return prefix + fmt.Sprint(val.Bool)
		}
		return prefix + "#" + fmt.Sprint(val.Bool)
	case Null:
		if v == V1 {
			return prefix + "null"
		}
		return prefix + "#null"
	}
	return prefix + `""`
}

// Name writes a node name or property key: bare when it is a plain word
// in both versions, quoted otherwise.
func Name(s string, v Version) string {
	if plainWord(s) && !(v == V1 && s[0] == '_') { // the 1.0 reader refuses a leading '_'
		return s
	}
	return Quote(s, v)
}

// plainWord: letters, digits, '-', '_' and '.', not starting with a digit,
// a sign followed by a digit, or a '.'; never a keyword.
func plainWord(s string) bool {
	if s == "" || isDigit(s[0]) || s[0] == '.' {
		return false
	}
	switch s {
	case "true", "false", "null", "inf", "-inf", "nan":
		return false
	}
	if (s[0] == '-' || s[0] == '+') && (len(s) == 1 || isDigit(s[1]) || s[1] == '.') {
		return s == "-"
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// Quote writes s as a quoted string that both versions read the same way.
func Quote(s string, v Version) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if needsEscape(r) {
				fmt.Fprintf(&b, `\u{%x}`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// needsEscape marks characters that may not appear literally in a KDL 2.0
// string (control characters, direction controls, a BOM) or that a reader
// would take as a new line.
func needsEscape(r rune) bool {
	return isDisallowed(r) || isNewlineRune(r) || r == utf8.RuneError
}

// QuoteBlock writes s as Quote does, except that text spanning lines is
// written as lines: a KDL 2.0 multi-line string indented by indent, or a
// KDL 1.0 raw string. Text that a multi-line form cannot carry exactly
// (whitespace-only lines, control characters) stays quoted.
func QuoteBlock(s string, v Version, indent string) string {
	if !strings.Contains(s, "\n") || strings.ContainsFunc(s, func(r rune) bool { return r != '\n' && r != '\t' && needsEscape(r) }) {
		return Quote(s, v)
	}
	if v == V1 {
		hashes := "#"
		for strings.Contains(s, `"`+hashes) {
			hashes += "#"
		}
		return "r" + hashes + `"` + s + `"` + hashes
	}
	lines := strings.Split(s, "\n")
	for _, l := range lines {
		if l != "" && onlySpace(l) {
			return Quote(s, v)
		}
	}
	hashes := "#"
	for strings.Contains(s, `"""`+hashes) {
		hashes += "#"
	}
	var b strings.Builder
	b.WriteString(hashes + "\"\"\"\n")
	for _, l := range lines {
		if l != "" {
			b.WriteString(indent)
			b.WriteString(l)
		}
		b.WriteByte('\n')
	}
	b.WriteString(indent + `"""` + hashes)
	return b.String()
}
