package frontmatter

import (
	"strconv"
	"strings"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/token"
)

// Marshal writes frontmatter fields as goccy/go-yaml writes them (block
// style, multi-line strings as literal blocks), byte for byte. Fields that
// are single-line strings, booleans, ints, lists of those and mappings of
// all these, which nearly all agent files are, are written here, several
// times faster: goccy
// builds a syntax tree for each document and tests every string against
// five timestamp layouts with time.Parse to decide its quoting. Anything
// else goes to goccy/go-yaml; tests hold the two to the same bytes.
func Marshal(fields yaml.MapSlice) ([]byte, error) {
	if b, ok := marshalPlain(fields); ok {
		return b, nil
	}
	return yaml.MarshalWithOptions(fields, yaml.UseLiteralStyleIfMultiline(true))
}

// marshalPlain writes fields that hold only plain values, or says no.
func marshalPlain(fields yaml.MapSlice) ([]byte, bool) {
	return appendMapping(make([]byte, 0, 64*len(fields)), fields, "")
}

// appendMapping appends fields at an indent: single-line strings,
// booleans, ints, lists of them and non-empty mappings of them (OpenCode's
// permission and tools maps).
func appendMapping(b []byte, fields yaml.MapSlice, indent string) ([]byte, bool) {
	for _, f := range fields {
		key, ok := f.Key.(string)
		if !ok || !oneLine(key) {
			return nil, false
		}
		b = appendScalar(append(b, indent...), key)
		b = append(b, ':')
		switch v := f.Value.(type) {
		case yaml.MapSlice:
			if len(v) == 0 {
				return nil, false
			}
			if b, ok = appendMapping(append(b, '\n'), v, indent+"  "); !ok {
				return nil, false
			}
		case []string:
			if len(v) == 0 {
				b = append(b, " []\n"...)
				continue
			}
			b = append(b, '\n')
			for _, s := range v {
				if !oneLine(s) {
					return nil, false
				}
				b = append(appendScalar(append(append(b, indent...), "- "...), s), '\n')
			}
		case []any:
			if len(v) == 0 {
				return nil, false
			}
			b = append(b, '\n')
			for _, e := range v {
				if b, ok = appendValue(append(append(b, indent...), "- "...), e); !ok {
					return nil, false
				}
				b = append(b, '\n')
			}
		default:
			if b, ok = appendValue(append(b, ' '), v); !ok {
				return nil, false
			}
			b = append(b, '\n')
		}
	}
	return b, true
}

// appendValue appends a scalar value, or says it is not one written here.
func appendValue(b []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case string:
		if !oneLine(x) {
			return nil, false
		}
		return appendScalar(b, x), true
	case bool:
		return strconv.AppendBool(b, x), true
	case int:
		return strconv.AppendInt(b, int64(x), 10), true
	}
	return nil, false
}

func oneLine(s string) bool { return !strings.ContainsAny(s, "\n\r") }

// appendScalar appends a string plain, or double-quoted where goccy would
// quote it.
func appendScalar(b []byte, s string) []byte {
	if needsQuote(s) {
		return strconv.AppendQuote(b, s)
	}
	return append(b, s...)
}

// keywords are the plain strings YAML 1.2 or 1.1 reads as null or a
// boolean, which goccy quotes.
var keywords = map[string]bool{
	"null": true, "Null": true, "NULL": true, "~": true,
	"true": true, "True": true, "TRUE": true, "false": true, "False": true, "FALSE": true,
	"y": true, "Y": true, "yes": true, "Yes": true, "YES": true, "n": true, "N": true, "no": true, "No": true, "NO": true,
	"on": true, "On": true, "ON": true, "off": true, "Off": true, "OFF": true,
}

// needsQuote is goccy's token.IsNeedQuoted. A string that starts with a
// digit, a sign or a dot goes to it whole; any other is no timestamp and
// no out-of-range number, and the rest of its rule is checked here.
func needsQuote(s string) bool {
	if s == "" || strings.IndexByte("0123456789-+.", s[0]) >= 0 {
		return token.IsNeedQuoted(s)
	}
	if keywords[s] || token.ToNumber(s) != nil {
		return true
	}
	switch s[0] {
	case '*', '&', '[', '{', '}', ']', ',', '!', '|', '>', '%', '\'', '"', '@', ' ', '`':
		return true
	}
	switch s[len(s)-1] {
	case ':', ' ':
		return true
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '#', '\\':
			return true
		case ':', '-':
			if i+1 < len(s) && s[i+1] == ' ' {
				return true
			}
		}
	}
	return false
}
