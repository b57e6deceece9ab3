package agents

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/parser"
	"github.com/sblinch/kdl-go/document"
)

// Markdown is a markdown file split into its YAML frontmatter and body.
type Markdown struct {
	YAML     []byte // the frontmatter, without the --- lines
	YAMLLine int    // file line of the first frontmatter line
	Body     []byte
	BodyLine int // file line where the body starts
}

var errNoFrontmatter = errors.New("no YAML frontmatter: an agent file starts with a line '---', then 'name: …', then '---'")

// SplitFrontmatter splits src, accepting a UTF-8 BOM and CRLF line ends.
func SplitFrontmatter(src []byte) (Markdown, error) {
	src = bytes.TrimPrefix(src, []byte("\uFEFF"))
	first, rest, ok := cutLine(src)
	if !isFence(first) {
		return Markdown{}, errNoFrontmatter
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

// HasFrontmatter reports whether src starts with a frontmatter fence.
func HasFrontmatter(src []byte) bool {
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

// frontmatterKeys maps each accepted key (kebab- or snake-case) to the KDL
// field it sets.
var frontmatterKeys = func() map[string]string {
	m := map[string]string{"name": "name"}
	for _, f := range agentFields {
		m[f] = f
		m[strings.ReplaceAll(f, "-", "_")] = f
	}
	return m
}()

// DecodeMarkdown decodes an agent file: YAML frontmatter with the same
// fields as a config.kdl agent node, and the body as the prompt. With
// lazyBody the body is not kept: the prompt is marked FromBody, to be read
// from the file when needed.
func DecodeMarkdown(file string, src []byte, lazyBody bool) *File {
	f := &File{Path: file}
	md, err := SplitFrontmatter(src)
	if err != nil {
		f.fail(Pos{File: file, Line: 1}, "", err.Error(), "")
		return f
	}
	fields, err := yamlFields(file, md)
	if err != nil {
		f.Diags = append(f.Diags, asDiagnostic(file, err))
		return f
	}
	nameField, ok := fields["name"]
	if !ok {
		f.fail(Pos{File: file, Line: 1}, "name", "missing: an agent file needs a name", "add a line 'name: <agent-name>' to the frontmatter")
		return f
	}
	name, isString := nameField.value.(string)
	if !isString {
		f.fail(nameField.pos, "name", fmt.Sprintf("expects a string, found %v", nameField.value), "")
		return f
	}
	if err := CheckName(name); err != nil {
		f.fail(nameField.pos, "name", err.Error(), "")
		return f
	}
	s := &Spec{Name: name, Pos: Pos{File: file, Line: 1}}
	for _, key := range slices.Sorted(maps.Keys(fields)) {
		fv := fields[key]
		field, known := frontmatterKeys[key]
		switch {
		case key == "name":
		case !known:
			s.addDiag(Warning, fv.pos, key, "not a bn field; ignored", DidYouMean(key, slices.Collect(maps.Keys(frontmatterKeys))))
		case field == "tools":
			decodeFrontmatterTools(s, fv)
		default:
			args, err := yamlArgs(fv.value, field == "tags")
			if err == nil {
				err = decodeField(s, field, fv.pos, args)
			}
			if err != nil {
				s.addDiag(Error, fv.pos, key, err.Error(), "")
			}
		}
	}
	if body := bytes.TrimSpace(md.Body); len(body) > 0 {
		ref := PromptRef{FromBody: true}
		if !lazyBody {
			ref = PromptRef{Text: string(body)}
		}
		if s.Prompt.Set {
			s.addDiag(Error, s.Prompt.Pos, "prompt", "the file has a body, which is the prompt, and also sets prompt or prompt-file", "keep one")
		} else {
			s.Prompt.Put(ref, Pos{File: file, Line: md.BodyLine})
		}
	}
	f.Specs = []*Spec{s}
	return f
}

type yamlField struct {
	value any
	pos   Pos
}

// yamlFields parses the frontmatter into its top-level keys, with the file
// position of each.
func yamlFields(file string, md Markdown) (map[string]yamlField, error) {
	out := map[string]yamlField{}
	if len(bytes.TrimSpace(md.YAML)) == 0 {
		return out, nil
	}
	if fields, ok := fastYAML(file, md.YAML, md.YAMLLine); ok {
		return fields, nil
	}
	astFile, err := parser.ParseBytes(md.YAML, 0)
	if err != nil {
		return nil, yamlError{err: err, lineOffset: md.YAMLLine - 1}
	}
	if len(astFile.Docs) != 1 || astFile.Docs[0].Body == nil {
		return nil, Diagnostic{Severity: Error, Pos: Pos{File: file, Line: md.YAMLLine}, Message: "frontmatter must be one YAML mapping of key: value lines"}
	}
	var pairs []*ast.MappingValueNode
	switch body := astFile.Docs[0].Body.(type) {
	case *ast.MappingNode:
		pairs = body.Values
	case *ast.MappingValueNode:
		pairs = []*ast.MappingValueNode{body}
	default:
		return nil, Diagnostic{Severity: Error, Pos: Pos{File: file, Line: md.YAMLLine}, Message: "frontmatter must be a YAML mapping of key: value lines, found " + body.Type().String()}
	}
	for _, kv := range pairs {
		tok := kv.Key.GetToken()
		pos := Pos{File: file, Line: tok.Position.Line + md.YAMLLine - 1, Col: tok.Position.Column}
		key := tok.Value // the parser has already rejected duplicate keys
		var v any
		if err := yaml.NodeToValue(kv.Value, &v); err != nil {
			return nil, yamlError{err: err, lineOffset: md.YAMLLine - 1}
		}
		out[key] = yamlField{value: v, pos: pos}
	}
	return out, nil
}

// yamlError carries a goccy error whose lines count from the frontmatter.
type yamlError struct {
	err        error
	lineOffset int
}

func (e yamlError) Error() string { return e.err.Error() }

// yamlPosPattern finds positions goccy puts inside its messages, which count
// lines from the start of the frontmatter. Patterns compile on first use:
// compiling at start-up would cost every bn run, which sits on the launch path.
var yamlPosPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`at \[\d+:\d+\]`) })

func asDiagnostic(file string, err error) Diagnostic {
	var d Diagnostic
	if errors.As(err, &d) {
		return d
	}
	d = Diagnostic{Severity: Error, Pos: Pos{File: file}, Message: "invalid YAML frontmatter: " + err.Error()}
	var ye yamlError
	var ge yaml.Error
	if errors.As(err, &ye) && errors.As(ye.err, &ge) {
		msg := yamlPosPattern().ReplaceAllStringFunc(ge.GetMessage(), func(m string) string {
			var line, col int
			fmt.Sscanf(m, "at [%d:%d]", &line, &col)
			return fmt.Sprintf("at line %d", line+ye.lineOffset)
		})
		d.Message = "invalid YAML frontmatter: " + msg
		if tok := ge.GetToken(); tok != nil {
			d.Pos.Line, d.Pos.Col = tok.Position.Line+ye.lineOffset, tok.Position.Column
		}
	}
	return d
}

// yamlArgs turns a YAML value into the argument list a KDL node would have,
// so frontmatter and KDL share one decoder. splitCommas accepts "a, b".
func yamlArgs(v any, splitCommas bool) ([]*document.Value, error) {
	switch x := v.(type) {
	case []any:
		args := make([]*document.Value, len(x))
		for i, e := range x {
			if _, nested := e.(map[string]any); nested {
				return nil, fmt.Errorf("expects a list of plain values, found a mapping")
			}
			if _, nested := e.([]any); nested {
				return nil, fmt.Errorf("expects a list of plain values, found a nested list")
			}
			args[i] = &document.Value{Value: e}
		}
		return args, nil
	case map[string]any:
		return nil, fmt.Errorf("expects a value, found a mapping")
	case string:
		if splitCommas {
			var args []*document.Value
			for _, part := range strings.Split(x, ",") {
				if part = strings.TrimSpace(part); part != "" { // "a, b," as tools write it
					args = append(args, &document.Value{Value: part})
				}
			}
			return args, nil
		}
	case uint64:
		v = int64(x)
	}
	return []*document.Value{{Value: v}}, nil
}

// decodeFrontmatterTools reads `tools:` as an allow list ("a, b" or a YAML
// list, as Claude and Copilot write it) or as a mapping of
// allow/deny/remove/reset.
func decodeFrontmatterTools(s *Spec, fv yamlField) {
	lists := map[string]any{"allow": fv.value}
	if m, ok := fv.value.(map[string]any); ok {
		lists = m
	}
	for _, key := range slices.Sorted(maps.Keys(lists)) {
		args, err := yamlArgs(lists[key], true)
		if err != nil {
			s.addDiag(Error, fv.pos, "tools."+key, err.Error(), "")
			continue
		}
		s.applyToolOp(key, args, fv.pos)
	}
}
