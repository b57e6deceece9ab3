package frontmatter

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/binnacle-dev/bn/agents"
	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
)

// Markdown is a markdown file split into its YAML frontmatter and body.
type Markdown struct {
	YAML     []byte // the frontmatter, without the --- lines
	YAMLLine int    // file line of the first frontmatter line
	Body     []byte
	BodyLine int // file line where the body starts
}

// ErrNone says a file has no frontmatter.
var ErrNone = errors.New("no YAML frontmatter: an agent file starts with a line '---', then 'name: …', then '---'")

// Split splits src, accepting a UTF-8 BOM and CRLF line ends.
func Split(src []byte) (Markdown, error) {
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	first, rest, ok := cutLine(src)
	if !isFence(first) {
		return Markdown{}, ErrNone
	}
	if !ok {
		return Markdown{}, errors.New("frontmatter opened on line 1 is never closed with '---'")
	}
	line := 2
	for off := 0; off <= len(rest); line++ {
		l, after, more := cutLine(rest[off:])
		if isFence(l) {
			return Markdown{YAML: rest[:off], YAMLLine: 2, Body: after, BodyLine: line + 1}, nil
		}
		if !more {
			break
		}
		off = len(rest) - len(after)
	}
	return Markdown{}, errors.New("frontmatter opened on line 1 is never closed with '---'")
}

// Has reports whether src starts with a frontmatter fence.
func Has(src []byte) bool {
	first, _, _ := cutLine(bytes.TrimPrefix(src, []byte("\uFEFF")))
	return isFence(first)
}

func cutLine(b []byte) (line, rest []byte, ok bool) {
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		return b, nil, false
	}
	return b[:i], b[i+1:], true
}

func isFence(line []byte) bool {
	return string(bytes.TrimRight(line, " \t\r")) == "---"
}

// Entry is one top-level key of the frontmatter. Values are those of
// agents.Data: string, bool, int64, float64, nil, []any, *agents.Map
// (keeping the file's key order).
type Entry struct {
	Key   string
	Value any
	Line  int // file line and column of the key
	Col   int
}

// Error is a problem at a place in the file.
type Error struct {
	Line, Col int
	Msg       string
	// Final: the input is refused, not read again line by line as a
	// lenient reader would (which would misread it).
	Final bool
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
	}
	return e.Msg
}

// Read parses the frontmatter as strict YAML: one mapping, no duplicate
// keys. Positions are lines of the whole file.
func Read(md Markdown) ([]Entry, error) {
	if len(bytes.TrimSpace(md.YAML)) == 0 {
		return nil, nil
	}
	if entries, ok := fastYAML(md.YAML, md.YAMLLine); ok {
		return entries, nil
	}
	if err := checkBounds(md.YAML, md.YAMLLine); err != nil {
		return nil, err
	}
	astFile, err := parser.ParseBytes(md.YAML, 0)
	if err != nil {
		return nil, yamlError(err, md.YAMLLine-1)
	}
	if len(astFile.Docs) != 1 || astFile.Docs[0].Body == nil {
		return nil, &Error{Line: md.YAMLLine, Col: 1, Msg: "frontmatter must be one YAML mapping of key: value lines"}
	}
	var pairs []*ast.MappingValueNode
	switch body := astFile.Docs[0].Body.(type) {
	case *ast.MappingNode:
		pairs = body.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{body}
	default:
		return nil, &Error{Line: md.YAMLLine, Col: 1, Msg: "frontmatter must be a YAML mapping of key: value lines, found " + body.Type().String()}
	}
	if err := noAliases(md, astFile.Docs[0].Body); err != nil {
		return nil, err
	}
	out := make([]Entry, 0, len(pairs))
	for _, kv := range pairs {
		tok := kv.Key.GetToken()
		var v any
		if err := yaml.NodeToValue(kv.Value, &v, yaml.UseOrderedMap()); err != nil {
			return nil, yamlError(err, md.YAMLLine-1)
		}
		if b, ok := v.([]byte); ok {
			return nil, &Error{Line: tok.Position.Line + md.YAMLLine - 1, Col: tok.Position.Column,
				Msg: fmt.Sprintf("%s: is !!binary data (%d bytes); agent files hold text: write the value as plain text", tok.Value, len(b)), Final: true}
		}
		d, err := data(v)
		if err != nil {
			return nil, &Error{Line: tok.Position.Line + md.YAMLLine - 1, Col: tok.Position.Column, Msg: fmt.Sprintf("%s: %v", tok.Value, err)}
		}
		out = append(out, Entry{Key: tok.Value, Value: d, Line: tok.Position.Line + md.YAMLLine - 1, Col: tok.Position.Column})
	}
	return out, nil
}

// noAliases refuses YAML anchors and aliases: expanded, a few lines can
// name billions of values, and read line by line they would be misread
// ("&d text" as the text). The parsed tree is searched; nothing expands.
func noAliases(md Markdown, body ast.Node) error {
	var found ast.Node
	var mark string // &name or *name
	ast.Walk(visitor(func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.AnchorNode:
			found, mark = n, "&"+x.Name.String()
		case *ast.AliasNode:
			found, mark = n, "*"+x.Value.String()
		}
		return found == nil
	}), body)
	if found == nil {
		return nil
	}
	tk := found.GetToken()
	return &Error{Line: tk.Position.Line + md.YAMLLine - 1, Col: tk.Position.Column, Final: true,
		Msg: fmt.Sprintf("YAML anchors and aliases (%s) are not read; write each value out in full", mark)}
}

// visitor walks a YAML tree while fn says to go on.
type visitor func(ast.Node) bool

func (v visitor) Visit(n ast.Node) ast.Visitor {
	if n == nil || !v(n) {
		return nil
	}
	return v
}

// data converts goccy's decoded values (ordered maps included).
func data(v any) (any, error) {
	switch x := v.(type) {
	case yaml.MapSlice:
		m := &agents.Map{}
		for _, item := range x {
			key, ok := item.Key.(string)
			if !ok {
				key = fmt.Sprint(item.Key)
			}
			d, err := data(item.Value)
			if err != nil {
				return nil, err
			}
			m.Set(key, d)
		}
		return m, nil
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			d, err := data(e)
			if err != nil {
				return nil, err
			}
			out[i] = d
		}
		return out, nil
	}
	return agents.Data(v)
}

// yamlPosPattern finds positions goccy puts inside its messages, which
// count lines from the start of the frontmatter. Compiled on first use:
// bn sits on the launch path, so start-up pays for nothing it may not use.
var yamlPosPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`at \[\d+:\d+\]`) })

// yamlError converts a goccy error into one located in the file.
func yamlError(err error, lineOffset int) *Error {
	e := &Error{Msg: "invalid YAML frontmatter: " + err.Error()}
	var ge yaml.Error
	if errors.As(err, &ge) {
		msg := yamlPosPattern().ReplaceAllStringFunc(ge.GetMessage(), func(m string) string {
			var line, col int
			fmt.Sscanf(m, "at [%d:%d]", &line, &col)
			return fmt.Sprintf("at line %d", line+lineOffset)
		})
		e.Msg = "invalid YAML frontmatter: " + msg
		if tok := ge.GetToken(); tok != nil {
			e.Line, e.Col = tok.Position.Line+lineOffset, tok.Position.Column
		}
	}
	return e
}

var keyLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_-]*):(?:\s+(.*))?$`) })

// Lenient reads frontmatter as agent tools do: strict YAML first; when
// that fails, top-level `key: value` lines (with `- item` lists and
// indented continuations). The note says where strict YAML failed.
func Lenient(md Markdown) (entries []Entry, note string, err error) {
	entries, strictErr := Read(md)
	if strictErr == nil {
		return entries, "", nil
	}
	if e, ok := strictErr.(*Error); ok && e.Final {
		return nil, "", strictErr
	}
	note = fmt.Sprintf("frontmatter is not strict YAML (%s); read line by line, as the agent tools do", strictErr)
	entries = nil
	index := map[string]int{}
	key := ""
	for i, line := range strings.Split(strings.ReplaceAll(string(md.YAML), "\r\n", "\n"), "\n") {
		trimmed := strings.TrimSpace(line)
		var cur *Entry
		if key != "" {
			cur = &entries[index[key]]
		}
		switch m := keyLine().FindStringSubmatch(line); {
		case trimmed == "" || strings.HasPrefix(trimmed, "#"):
		case m != nil:
			key = m[1]
			var v any = []any{}
			if m[2] != "" {
				v = unquote(m[2])
			}
			if at, dup := index[key]; dup {
				entries[at].Value = v
			} else {
				index[key] = len(entries)
				entries = append(entries, Entry{Key: key, Value: v, Line: md.YAMLLine + i, Col: 1})
			}
		case cur != nil && strings.HasPrefix(trimmed, "- ") && isList(cur.Value):
			cur.Value = append(cur.Value.([]any), unquote(strings.TrimPrefix(trimmed, "- ")))
		case cur != nil && line[0] == ' ' && isString(cur.Value):
			cur.Value = cur.Value.(string) + " " + trimmed // a folded continuation
		default:
			return nil, "", &Error{Line: md.YAMLLine + i, Col: 1, Msg: fmt.Sprintf("frontmatter line %q is not `key: value`", line)}
		}
	}
	return entries, note, nil
}

func isList(v any) bool   { _, ok := v.([]any); return ok }
func isString(v any) bool { _, ok := v.(string); return ok }

func unquote(s string) any {
	s = strings.TrimSpace(s)
	if len(s) >= 2 && (s[0] == '"' && s[len(s)-1] == '"' || s[0] == '\'' && s[len(s)-1] == '\'') {
		return s[1 : len(s)-1]
	}
	if strings.HasPrefix(s, "[") && strings.HasSuffix(s, "]") {
		items := []any{}
		for _, it := range strings.Split(s[1:len(s)-1], ",") {
			if it = strings.TrimSpace(it); it != "" {
				items = append(items, unquote(it))
			}
		}
		return items
	}
	switch s {
	case "true":
		return true
	case "false":
		return false
	}
	return s
}
