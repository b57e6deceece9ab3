package emit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// JSON config files (.vscode/mcp.json, ~/.copilot/mcp-config.json, .mcp.json)
// belong to their users: bn changes one member and keeps every other byte —
// other servers, key order, comments and trailing commas, which VS Code
// allows — as it was. SetMember parses just enough JSONC to do that.

// jsonSpan is a parsed value: where it is, and for objects its members.
type jsonSpan struct {
	start, end int // value bytes [start, end)
	object     bool
	members    []jsonMember
	closeBrace int // offset of '}' for objects
}

type jsonMember struct {
	key   string
	start int // offset of the key's opening quote
	value jsonSpan
}

type jsoncParser struct {
	src []byte
	off int
}

// JSONCError is a syntax error at a 1-based line and column.
type JSONCError struct {
	Line, Col int
	Msg       string
}

func (e *JSONCError) Error() string { return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg) }

func (p *jsoncParser) fail(format string, args ...any) error {
	p.off = min(p.off, len(p.src))
	line := 1 + bytes.Count(p.src[:p.off], []byte("\n"))
	col := p.off - bytes.LastIndexByte(p.src[:p.off], '\n')
	return &JSONCError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// skip passes whitespace and // and /* */ comments.
func (p *jsoncParser) skip() error {
	for p.off < len(p.src) {
		switch c := p.src[p.off]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.off++
		case bytes.HasPrefix(p.src[p.off:], []byte("//")):
			for p.off < len(p.src) && p.src[p.off] != '\n' {
				p.off++
			}
		case bytes.HasPrefix(p.src[p.off:], []byte("/*")):
			end := bytes.Index(p.src[p.off+2:], []byte("*/"))
			if end < 0 {
				return p.fail("comment never closed")
			}
			p.off += end + 4
		default:
			return nil
		}
	}
	return nil
}

func (p *jsoncParser) value() (jsonSpan, error) {
	if err := p.skip(); err != nil {
		return jsonSpan{}, err
	}
	if p.off >= len(p.src) {
		return jsonSpan{}, p.fail("unexpected end of file")
	}
	start := p.off
	switch c := p.src[p.off]; {
	case c == '{':
		return p.object()
	case c == '[':
		p.off++
		for first := true; ; first = false {
			if err := p.skip(); err != nil {
				return jsonSpan{}, err
			}
			if p.off < len(p.src) && p.src[p.off] == ']' {
				p.off++
				return jsonSpan{start: start, end: p.off}, nil
			}
			if !first {
				if p.off >= len(p.src) || p.src[p.off] != ',' {
					return jsonSpan{}, p.fail("expected ',' or ']'")
				}
				p.off++
				if err := p.skip(); err != nil {
					return jsonSpan{}, err
				}
				if p.off < len(p.src) && p.src[p.off] == ']' { // trailing comma
					p.off++
					return jsonSpan{start: start, end: p.off}, nil
				}
			}
			if _, err := p.value(); err != nil {
				return jsonSpan{}, err
			}
		}
	case c == '"':
		if _, err := p.str(); err != nil {
			return jsonSpan{}, err
		}
		return jsonSpan{start: start, end: p.off}, nil
	default:
		for p.off < len(p.src) && strings.IndexByte(",:]} \t\r\n/", p.src[p.off]) < 0 {
			p.off++
		}
		var v any
		if err := json.Unmarshal(p.src[start:p.off], &v); err != nil || p.off == start {
			p.off = start
			return jsonSpan{}, p.fail("expected a value")
		}
		return jsonSpan{start: start, end: p.off}, nil
	}
}

func (p *jsoncParser) str() (string, error) {
	start := p.off
	p.off++
	for p.off < len(p.src) {
		switch p.src[p.off] {
		case '\\':
			p.off = min(p.off+2, len(p.src))
			continue
		case '"':
			p.off++
			var s string
			if err := json.Unmarshal(p.src[start:p.off], &s); err != nil {
				p.off = start
				return "", p.fail("invalid string")
			}
			return s, nil
		case '\n':
			return "", p.fail("string never closed")
		}
		p.off++
	}
	return "", p.fail("string never closed")
}

func (p *jsoncParser) object() (jsonSpan, error) {
	span := jsonSpan{start: p.off, object: true}
	p.off++
	for {
		if err := p.skip(); err != nil {
			return jsonSpan{}, err
		}
		if p.off >= len(p.src) {
			return jsonSpan{}, p.fail("unexpected end of file")
		}
		if p.src[p.off] == '}' {
			span.closeBrace = p.off
			p.off++
			span.end = p.off
			return span, nil
		}
		if len(span.members) > 0 {
			if p.off >= len(p.src) || p.src[p.off] != ',' {
				return jsonSpan{}, p.fail("expected ',' or '}'")
			}
			p.off++
			if err := p.skip(); err != nil {
				return jsonSpan{}, err
			}
			if p.off < len(p.src) && p.src[p.off] == '}' { // trailing comma
				continue
			}
		}
		if p.off >= len(p.src) || p.src[p.off] != '"' {
			return jsonSpan{}, p.fail("expected a quoted key")
		}
		m := jsonMember{start: p.off}
		key, err := p.str()
		if err != nil {
			return jsonSpan{}, err
		}
		m.key = key
		if err := p.skip(); err != nil {
			return jsonSpan{}, err
		}
		if p.off >= len(p.src) || p.src[p.off] != ':' {
			return jsonSpan{}, p.fail("expected ':' after key %q", key)
		}
		p.off++
		if m.value, err = p.value(); err != nil {
			return jsonSpan{}, err
		}
		span.members = append(span.members, m)
	}
}

func parseJSONC(src []byte) (jsonSpan, error) {
	p := &jsoncParser{src: src}
	v, err := p.value()
	if err != nil {
		return jsonSpan{}, err
	}
	if err := p.skip(); err != nil {
		return jsonSpan{}, err
	}
	if p.off != len(src) {
		return jsonSpan{}, p.fail("unexpected text after the value")
	}
	if !v.object {
		p.off = v.start
		return jsonSpan{}, p.fail("expected a JSON object")
	}
	return v, nil
}

// SetMember returns src (JSONC) with the member at path set to value,
// creating objects on the way, and leaving everything else untouched.
// An empty or blank src is treated as {}.
func SetMember(src []byte, path []string, value any) ([]byte, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		src = []byte("{}\n")
	}
	root, err := parseJSONC(src)
	if err != nil {
		return nil, err
	}
	obj := root
	depth := 0
	for ; depth < len(path)-1; depth++ {
		m, ok := findMember(obj, path[depth])
		if !ok {
			break
		}
		if !m.value.object {
			return nil, fmt.Errorf("%q is not an object; bn will not replace it", strings.Join(path[:depth+1], "."))
		}
		obj = m.value
	}
	indent := detectIndent(src)
	level := depth + 1
	if m, ok := findMember(obj, path[depth]); ok && depth == len(path)-1 {
		text, err := marshalIndented(value, indent, level)
		if err != nil {
			return nil, err
		}
		return splice(src, m.value.start, m.value.end, text), nil
	}
	// Build what is missing: the rest of the path wrapped around value.
	nested := value
	for i := len(path) - 1; i > depth; i-- {
		nested = map[string]any{path[i]: nested}
	}
	text, err := marshalIndented(nested, indent, level)
	if err != nil {
		return nil, err
	}
	key, _ := json.Marshal(path[depth])
	member := string(key) + ": " + string(text)
	pad := "\n" + strings.Repeat(indent, level)
	closePad := "\n" + strings.Repeat(indent, level-1)
	if len(obj.members) == 0 {
		return splice(src, obj.start+1, obj.closeBrace, []byte(pad+member+closePad)), nil
	}
	last := obj.members[len(obj.members)-1]
	insert := []byte("," + pad + member)
	if hasTrailingComma(src, last.value.end, obj.closeBrace) {
		insert = []byte(pad + member + ",")
		at := bytes.IndexByte(src[last.value.end:obj.closeBrace], ',') + last.value.end + 1
		return splice(src, at, at, insert), nil
	}
	return splice(src, last.value.end, last.value.end, insert), nil
}

func findMember(obj jsonSpan, key string) (jsonMember, bool) {
	for i := len(obj.members) - 1; i >= 0; i-- { // the last duplicate is the one readers use
		if obj.members[i].key == key {
			return obj.members[i], true
		}
	}
	return jsonMember{}, false
}

func hasTrailingComma(src []byte, from, to int) bool {
	p := &jsoncParser{src: src[:to], off: from}
	return p.skip() == nil && p.off < to && src[p.off] == ','
}

func splice(src []byte, from, to int, text []byte) []byte {
	out := make([]byte, 0, len(src)+len(text))
	out = append(out, src[:from]...)
	out = append(out, text...)
	return append(out, src[to:]...)
}

// detectIndent returns the file's indentation unit (two spaces if unsure).
func detectIndent(src []byte) string {
	for _, line := range strings.Split(string(src), "\n")[1:] {
		trimmed := strings.TrimLeft(line, " \t")
		if n := len(line) - len(trimmed); n > 0 && trimmed != "" {
			return line[:n]
		}
	}
	return "  "
}

func marshalIndented(v any, indent string, level int) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent(strings.Repeat(indent, level), indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
