package agents

import (
	"bytes"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	kdl "github.com/sblinch/kdl-go"
	"github.com/sblinch/kdl-go/document"
)

// File is what one layer file contributes: agent specs, and file-level
// diagnostics. An error among Diags (a syntax error, an unknown top-level
// node, an invalid agent name) means the file cannot be trusted, and the
// layer fails closed.
type File struct {
	Path  string
	Specs []*Spec
	Diags Diagnostics
}

func (f *File) fail(pos Pos, field, msg, hint string) {
	f.Diags = append(f.Diags, Diagnostic{Severity: Error, Pos: pos, Field: field, Message: msg, Hint: hint})
}

// agentFields are the child nodes an agent node may hold.
var agentFields = []string{
	"description", "execution", "lifecycle", "model", "reasoning-effort", "show-reasoning",
	"render-markdown", "tags", "hidden", "disable", "extends", "tools", "prompt", "prompt-file",
	"prompt-append", "prompt-prepend",
}

var toolFields = []string{"allow", "deny", "remove", "reset"}

// DecodeKDL decodes a config.kdl. file is the name used in diagnostics.
func DecodeKDL(file string, src []byte) *File {
	f := &File{Path: file}
	scan := scanKDL(file, src)
	if len(scan.problems) > 0 {
		f.Diags = append(f.Diags, scan.problems...)
		return f
	}
	doc, err := parseKDL(src, scan.splits)
	if err != nil {
		f.Diags = append(f.Diags, kdlSyntaxError(file, err.err, err.lineOffset))
		return f
	}
	d := kdlDecoder{file: file, f: f}
	d.indexPositions(doc, scan.nodes)
	d.decode(doc)
	return f
}

// kdlChunkBytes keeps each piece handed to kdl-go inside its 64 KiB read
// buffer: its streaming reader mis-tokenizes some documents when it has to
// refill that buffer (a valid 700 KB config was read as a syntax error).
const kdlChunkBytes = 60 << 10

type chunkError struct {
	err        error
	lineOffset int // lines before the chunk the error is in
}

// parseKDL runs kdl-go over src in pieces cut at top-level node
// boundaries, and turns any panic inside it into an error.
func parseKDL(src []byte, splits []split) (*document.Document, *chunkError) {
	doc := &document.Document{}
	start, startLine := 0, 1
	flush := func(end int) *chunkError {
		part, err := parseChunk(src[start:end])
		if err != nil {
			return &chunkError{err, startLine - 1}
		}
		doc.Nodes = append(doc.Nodes, part.Nodes...)
		return nil
	}
	for i, sp := range splits {
		next := len(src)
		if i+1 < len(splits) {
			next = splits[i+1].offset
		}
		if sp.offset > start && next-start > kdlChunkBytes {
			if err := flush(sp.offset); err != nil {
				return nil, err
			}
			start, startLine = sp.offset, sp.line
		}
	}
	if err := flush(len(src)); err != nil {
		return nil, err
	}
	return doc, nil
}

func parseChunk(src []byte) (doc *document.Document, err error) {
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, fmt.Errorf("parse failed: the KDL parser crashed (%v)", r)
		}
	}()
	return kdl.Parse(bytes.NewReader(src))
}

var kdlErrPattern = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(parse|scan) failed: (.*?) at line (\d+), column (\d+)`)
})

var kdlTokenNames = strings.NewReplacer(
	"Equals", "'='", "BraceOpen", "'{'", "BraceClose", "'}'", "ParensOpen", "'('", "ParensClose", "')'",
	"Semicolon", "';'", "EOF", "end of file", "FormattedString", "string", "RawString", "raw string",
	"BareIdentifier", "bare word", "Newline", "new line", "Decimal", "number", "Boolean", "boolean",
	"Null", "null", "TypeSpec", "type annotation",
)

var kdlStatePattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` in state \w+`) })

// kdlSyntaxError converts a kdl-go error: its parse errors count lines from
// 0, its scan errors from 1, and "line 0, column 0" means unknown.
func kdlSyntaxError(file string, err error, lineOffset int) Diagnostic {
	msg := strings.SplitN(err.Error(), "\n", 2)[0]
	pos := Pos{File: file}
	if m := kdlErrPattern().FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[3])
		col, _ := strconv.Atoi(m[4])
		if m[1] == "parse" && (line != 0 || col != 0) {
			line++
		}
		if line > 0 {
			pos.Line, pos.Col = line+lineOffset, col
		}
		msg = m[2]
	} else {
		msg = strings.TrimPrefix(strings.TrimPrefix(msg, "parse failed: "), "scan failed: ")
	}
	msg = kdlTokenNames.Replace(kdlStatePattern().ReplaceAllString(msg, ""))
	return Diagnostic{Severity: Error, Pos: pos, Message: "KDL syntax error: " + msg,
		Hint: "bn reads KDL 1.0: quote strings, write true/false/null, end one-line blocks with ';'"}
}

type kdlDecoder struct {
	file string
	f    *File
	pos  map[*document.Node]Pos
}

// indexPositions pairs the scanner's node positions with the tree, which
// lists the same nodes in the same order. If the counts disagree the
// positions are dropped rather than risk naming a wrong line.
func (d *kdlDecoder) indexPositions(doc *document.Document, positions []lineCol) {
	nodes := make([]*document.Node, 0, len(positions))
	var walk func([]*document.Node)
	walk = func(ns []*document.Node) {
		for _, n := range ns {
			nodes = append(nodes, n)
			walk(n.Children)
		}
	}
	walk(doc.Nodes)
	if len(nodes) != len(positions) {
		return
	}
	d.pos = make(map[*document.Node]Pos, len(nodes))
	for i, n := range nodes {
		d.pos[n] = Pos{d.file, int(positions[i].line), int(positions[i].col)}
	}
}

func (d *kdlDecoder) at(n *document.Node) Pos {
	if p, ok := d.pos[n]; ok {
		return p
	}
	return Pos{File: d.file}
}

func nodeName(n *document.Node) string {
	if n.Name == nil {
		return ""
	}
	if s, ok := n.Name.Value.(string); ok {
		return s
	}
	return n.Name.ValueString()
}

func (d *kdlDecoder) decode(doc *document.Document) {
	seen := map[string]Pos{}
	for _, n := range doc.Nodes {
		name := nodeName(n)
		if name != "agent" {
			d.f.fail(d.at(n), name, fmt.Sprintf("unknown top-level node %q; config.kdl holds only agent nodes", name),
				DidYouMean(name, []string{"agent"}))
			continue
		}
		agentName, err := stringArg(n)
		if err != nil {
			d.f.fail(d.at(n), "agent", err.Error(), `write agent "name" { … }`)
			continue
		}
		if err := CheckName(agentName); err != nil {
			d.f.fail(d.at(n), "agent", err.Error(), "")
			continue
		}
		if err := noExtras(n, true); err != nil {
			d.f.fail(d.at(n), "agent", fmt.Sprintf("agent %q: %v", agentName, err), "")
			continue
		}
		spec := &Spec{Name: agentName, Pos: d.at(n)}
		if first, dup := seen[agentName]; dup {
			spec.addDiag(Error, d.at(n), "agent", fmt.Sprintf("defined twice in this file (first at line %d)", first.Line),
				"merge the two agent nodes into one")
		} else {
			seen[agentName] = d.at(n)
		}
		d.decodeAgent(spec, n)
		d.f.Specs = append(d.f.Specs, spec)
	}
}

func (d *kdlDecoder) decodeAgent(s *Spec, agent *document.Node) {
	given := map[string]Pos{}
	for _, n := range agent.Children {
		name, pos := nodeName(n), d.at(n)
		if first, dup := given[name]; dup && name != "tools" {
			s.addDiag(Error, pos, name, fmt.Sprintf("given twice in one agent node (first at line %d)", first.Line), "keep one")
			continue
		}
		given[name] = pos
		if name == "tools" {
			d.decodeTools(s, n)
			continue
		}
		if err := noExtras(n, false); err != nil {
			s.addDiag(Error, pos, name, err.Error(), "")
			continue
		}
		if err := decodeField(s, name, pos, n.Arguments); err != nil {
			hint := ""
			if !slices.Contains(agentFields, name) {
				hint = DidYouMean(name, agentFields)
			}
			s.addDiag(Error, pos, name, err.Error(), hint)
		}
	}
	if given["prompt"].File != "" && given["prompt-file"].File != "" {
		s.addDiag(Error, given["prompt-file"], "prompt-file", "both prompt and prompt-file are set", "keep one of them")
	}
}

func (d *kdlDecoder) decodeTools(s *Spec, tools *document.Node) {
	if err := noExtras(tools, true); err != nil || len(tools.Arguments) > 0 {
		if err == nil {
			err = fmt.Errorf("takes no values, only a { } block of allow/deny/remove/reset")
		}
		s.addDiag(Error, d.at(tools), "tools", err.Error(), `write tools { allow "view"; }`)
		return
	}
	for _, n := range tools.Children {
		name, pos := nodeName(n), d.at(n)
		if err := noExtras(n, false); err != nil {
			s.addDiag(Error, pos, "tools."+name, err.Error(), "")
			continue
		}
		s.applyToolOp(name, n.Arguments, pos)
	}
}

// applyToolOp records one allow, deny, remove or reset line of a tools
// block; config.kdl and frontmatter share it.
func (s *Spec) applyToolOp(name string, args []*document.Value, pos Pos) {
	field := "tools." + name
	var list *[]Pattern
	switch name {
	case "reset":
		v, err := boolArgs(args)
		if err != nil {
			s.addDiag(Error, pos, field, err.Error(), "")
			return
		}
		s.Tools.Reset.Put(v, pos)
		return
	case "allow":
		list = &s.Tools.Allow
	case "deny":
		list = &s.Tools.Deny
	case "remove":
		list = &s.Tools.Remove
	default:
		s.addDiag(Error, pos, field, fmt.Sprintf("unknown %q in tools; use allow, deny, remove or reset", name), DidYouMean(name, toolFields))
		return
	}
	vals, err := stringArgs(args)
	if err != nil {
		s.addDiag(Error, pos, field, err.Error(), "")
		return
	}
	for _, v := range vals {
		if p, ok := s.checkPattern(pos, field, v); ok {
			*list = append(*list, Pattern{Text: p, Pos: pos})
		}
	}
}

// checkPattern validates one tool pattern, recording problems on the spec.
func (s *Spec) checkPattern(pos Pos, field, text string) (string, bool) {
	p, err := ParseToolPattern(text)
	if err != nil {
		s.addDiag(Error, pos, field, err.Error(), `patterns look like "view", "shell(git:*)", "shell(git push)" or "server/*"`)
		return "", false
	}
	if w := LintToolPattern(p); w != "" && field != "tools.remove" {
		s.addDiag(Warning, pos, field, w, "")
	}
	return text, true
}

// decodeField sets one scalar field of s from a node's arguments. The same
// function decodes markdown frontmatter, so both formats agree on types.
func decodeField(s *Spec, name string, pos Pos, args []*document.Value) error {
	str := func(dst *Opt[string]) error {
		v, err := oneString(args)
		if err == nil {
			if strings.TrimSpace(v) == "" {
				return fmt.Errorf("must not be empty")
			}
			dst.Put(v, pos)
		}
		return err
	}
	flag := func(dst *Opt[bool]) error {
		v, err := boolArgs(args)
		if err == nil {
			dst.Put(v, pos)
		}
		return err
	}
	switch name {
	case "description":
		return str(&s.Description)
	case "model":
		return str(&s.Model)
	case "extends":
		if err := str(&s.Extends); err != nil {
			return err
		}
		return CheckName(s.Extends.Value)
	case "prompt-append":
		return str(&s.PromptAppend)
	case "prompt-prepend":
		return str(&s.PromptPrepend)
	case "execution":
		v, err := enumArg(args, []string{string(Host), string(Container)})
		if err == nil {
			s.Execution.Put(Execution(v), pos)
		}
		return err
	case "lifecycle":
		v, err := enumArg(args, []string{string(Stateful), string(Stateless)})
		if err == nil {
			s.Lifecycle.Put(Lifecycle(v), pos)
		}
		return err
	case "reasoning-effort":
		v, err := enumArg(args, ReasoningEfforts)
		if err == nil {
			s.ReasoningEffort.Put(v, pos)
		}
		return err
	case "show-reasoning":
		return flag(&s.ShowReasoning)
	case "render-markdown":
		return flag(&s.RenderMarkdown)
	case "hidden":
		return flag(&s.Hidden)
	case "disable":
		return flag(&s.Disable)
	case "tags":
		tags, err := stringArgs(args)
		if err != nil {
			return err
		}
		for _, t := range tags {
			if t == "" || strings.ContainsAny(t, " \t\n,") {
				return fmt.Errorf("tag %q must be one word without spaces or commas", t)
			}
		}
		s.Tags.Put(tags, pos)
		return nil
	case "prompt":
		v, err := oneString(args)
		if err == nil {
			s.Prompt.Put(PromptRef{Text: v}, pos)
		}
		return err
	case "prompt-file":
		v, err := oneString(args)
		if err != nil {
			return err
		}
		clean, err := CheckPromptPath(v)
		if err != nil {
			return err
		}
		s.Prompt.Put(PromptRef{File: clean}, pos)
		return nil
	}
	return fmt.Errorf("unknown field %q", name)
}

// CheckPromptPath checks a prompt-file path: relative, slash-separated,
// inside its directory. It returns the cleaned path.
func CheckPromptPath(p string) (string, error) {
	switch {
	case strings.HasPrefix(p, "/") || strings.HasPrefix(p, `\`) || (len(p) > 1 && p[1] == ':'):
		return "", fmt.Errorf("%q is absolute; prompt-file must be relative to the directory of the file that names it", p)
	case strings.Contains(p, `\`):
		return "", fmt.Errorf("%q: write paths with '/'", p)
	}
	clean := path.Clean(p)
	if !fs.ValidPath(clean) || clean == "." || strings.HasPrefix(clean, "../") || clean == ".." {
		return "", fmt.Errorf("%q leaves its directory; prompt-file must name a file inside the directory of the file that names it", p)
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == ".." {
			return "", fmt.Errorf("%q uses '..'; prompt-file must name a file inside the directory of the file that names it", p)
		}
	}
	return clean, nil
}

// noExtras rejects properties, type annotations and (unless allowed)
// children: bn uses none of them, and ignoring them would hide mistakes.
func noExtras(n *document.Node, childrenOK bool) error {
	if n.Properties.Len() > 0 {
		for k := range n.Properties.Unordered() {
			return fmt.Errorf("does not take properties (found %s=…); write values as arguments", k)
		}
	}
	if n.Type != "" {
		return fmt.Errorf("type annotation (%s) is not used by bn; remove it", n.Type)
	}
	for _, a := range n.Arguments {
		if a.Type != "" {
			return fmt.Errorf("type annotation (%s) is not used by bn; remove it", a.Type)
		}
	}
	if !childrenOK && n.Children != nil {
		return fmt.Errorf("does not take a { } block")
	}
	return nil
}

func typeName(v *document.Value) string {
	switch x := v.Value.(type) {
	case string:
		return fmt.Sprintf("string %q", x)
	case bool:
		return fmt.Sprintf("boolean %v", x)
	case nil:
		return "null"
	default:
		return "number " + v.ValueString()
	}
}

func stringArg(n *document.Node) (string, error) { return oneString(n.Arguments) }

func oneString(args []*document.Value) (string, error) {
	if len(args) != 1 {
		return "", fmt.Errorf("takes one string value, found %d values", len(args))
	}
	s, ok := args[0].Value.(string)
	if !ok {
		return "", fmt.Errorf("expects a string, found %s; quote it", typeName(args[0]))
	}
	return s, nil
}

func stringArgs(args []*document.Value) ([]string, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("needs at least one string value")
	}
	out := make([]string, len(args))
	for i, a := range args {
		s, ok := a.Value.(string)
		if !ok {
			return nil, fmt.Errorf("expects strings, found %s; quote it", typeName(a))
		}
		out[i] = s
	}
	return out, nil
}

// boolArgs reads a flag: no value means true, else exactly one boolean.
func boolArgs(args []*document.Value) (bool, error) {
	switch len(args) {
	case 0:
		return true, nil
	case 1:
		if b, ok := args[0].Value.(bool); ok {
			return b, nil
		}
		return false, fmt.Errorf("expects true or false, found %s", typeName(args[0]))
	}
	return false, fmt.Errorf("takes one value, true or false; found %d values", len(args))
}

func enumArg(args []*document.Value, allowed []string) (string, error) {
	v, err := oneString(args)
	if err != nil {
		return "", err
	}
	return ParseEnum(v, allowed)
}
