package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/kdl"
)

// Sections describes the per-tool sections an agent may hold (`copilot {
// … }`): which tools have one, and what each accepts. The dialect package
// provides it.
type Sections interface {
	// Tools lists the tools that have a section.
	Tools() []string
	// CheckField validates one field only that tool has.
	CheckField(tool, key string, value any) error
	// CheckDifferenceField says whether a difference of the tool's files
	// can name field (an accept's fingerprint names one).
	CheckDifferenceField(tool, field string) error
}

// Decoder reads layer files into agents.File values.
type Decoder struct {
	Sections Sections // nil accepts no tool sections
	// Defer leaves each agent of a KDL 2.0 config.kdl undecoded, past its
	// name and the prompt file it names, until its spec is completed
	// (agents.Spec.Complete): a command that resolves one agent then
	// decodes only the nodes of that agent. Syntax is still checked whole.
	Defer bool
}

func (d Decoder) tools() []string {
	if d.Sections == nil {
		return nil
	}
	return d.Sections.Tools()
}

// Result is a decoded config.kdl: what it says, and the KDL version it is
// written in (edits keep it).
type Result struct {
	*agents.File
	Version kdl.Version
}

// KDL decodes a config.kdl. file names it in diagnostics.
func (d Decoder) KDL(file string, src []byte) Result {
	res, _ := d.decode(file, src, false)
	return res
}

// decode decodes a config.kdl; with keep it also returns the top-level
// nodes, for editing the file.
func (d Decoder) decode(file string, src []byte, keep bool) (Result, []*kdl.Node) {
	f := &agents.File{Path: file}
	var nodes []*kdl.Node
	var version kdl.Version
	var err error
	if keep {
		var doc *kdl.Document
		if doc, err = kdl.Read(src); err == nil {
			dec := d.newDecoder(file, "", f, false)
			version, nodes = doc.Version, doc.Nodes
			for _, n := range nodes {
				dec.top(n)
			}
		}
	} else {
		version, err = d.decodeEach(file, src, f)
	}
	if err != nil {
		*f = agents.File{Path: file}
		var ke *kdl.Error
		if errors.As(err, &ke) {
			f.Fail(agents.Pos{File: file, Line: int32(ke.Line), Col: int32(ke.Col)}, "", ke.Msg, ke.Hint)
		} else {
			f.Fail(agents.Pos{File: file}, "", err.Error(), "")
		}
		return Result{File: f}, nil
	}
	markTwice(f)
	return Result{File: f, Version: version}, nodes
}

// decodeEach decodes each top-level node as soon as it is read, so the
// tree of a large file is never held whole.
func (d Decoder) decodeEach(file string, src []byte, f *agents.File) (kdl.Version, error) {
	text := string(src)
	var dec *kdlDecoder
	begin := func(v kdl.Version) {
		*f = agents.File{Path: file}
		dec = d.newDecoder(file, text, f, d.Defer && v == kdl.V2)
	}
	return kdl.ReadEach(text, begin, func(n *kdl.Node) { dec.top(n) })
}

func (d Decoder) newDecoder(file, text string, f *agents.File, deferring bool) *kdlDecoder {
	return &kdlDecoder{Decoder: d, file: file, f: f, text: text, deferring: deferring}
}

// markTwice gives each agent defined again in the file an error, first
// among its diagnostics, once the whole file is decoded.
func markTwice(f *agents.File) {
	first := make(map[string]int32, len(f.Specs))
	for _, s := range f.Specs {
		line, twice := first[s.Name]
		if !twice {
			first[s.Name] = s.Pos.Line
			continue
		}
		s.Diags = slices.Insert(s.Diags, 0, agents.Diagnostic{Severity: agents.Error, Pos: s.Pos, Agent: s.Name, Field: "agent",
			Message: fmt.Sprintf("defined twice in this file (first at line %d)", line), Hint: "merge the two agent nodes into one"})
	}
}

// top decodes one top-level node.
func (dec *kdlDecoder) top(n *kdl.Node) {
	switch n.Name {
	case "agent":
		dec.agent(n)
	case "model":
		dec.model(n)
	case "export":
		dec.export(n)
	case "source":
		dec.source(n)
	case "policy":
		dec.policy(n)
	default:
		dec.f.Fail(dec.at(n), n.Name, fmt.Sprintf("unknown top-level node %q; config.kdl holds agent, model, export, source and policy nodes", n.Name),
			agents.DidYouMean(n.Name, topLevel))
	}
}

var topLevel = []string{"agent", "model", "export", "source", "policy"}

type kdlDecoder struct {
	Decoder
	file     string
	f        *agents.File
	text     string   // the file, which deferred agents are read again from
	sections []string // the tools with sections, asked once per file
	// deferring: agents' fields are decoded when their specs complete.
	deferring bool

	// A file may hold thousands of agents: their specs and values are
	// carved out of shared chunks, and a field's values are gathered in
	// one reused slice, rather than allocated one by one.
	specs  []agents.Spec
	values []agents.SetValue
	args   []any
	strs   []string
}

const decodeChunk = 64

// newSpec returns a zeroed Spec from the current chunk.
func (d *kdlDecoder) newSpec() *agents.Spec {
	if len(d.specs) == cap(d.specs) {
		// From a few to a full chunk, so a small file costs little.
		d.specs = make([]agents.Spec, 0, min(decodeChunk, max(4, 2*cap(d.specs))))
	}
	d.specs = d.specs[:len(d.specs)+1]
	return &d.specs[len(d.specs)-1]
}

// valueSlots returns an empty slice with room for n values of one spec;
// appends beyond n move it out of the chunk.
func (d *kdlDecoder) valueSlots(n int) []agents.SetValue {
	switch {
	case n == 0:
		return nil
	case n > decodeChunk:
		return make([]agents.SetValue, 0, n)
	}
	if cap(d.values)-len(d.values) < n {
		d.values = make([]agents.SetValue, 0, min(decodeChunk*8, max(4*n, 2*cap(d.values))))
	}
	start := len(d.values)
	d.values = d.values[:start+n]
	return d.values[start : start : start+n]
}

// trimValues hands the unused end of a spec's value slots back to the
// chunk, when they are its last reservation.
func (d *kdlDecoder) trimValues(s *agents.Spec) {
	used, free := len(s.Values), cap(s.Values)-len(s.Values)
	if free == 0 || len(d.values) < cap(s.Values) {
		return
	}
	if tail := d.values[len(d.values)-cap(s.Values):]; &tail[0] == &s.Values[:1][0] {
		d.values = d.values[:len(d.values)-free]
		s.Values = s.Values[:used:used]
	}
}

// scalars converts a node's arguments into the reused args slice; it
// stops at the first that is not a scalar.
func (d *kdlDecoder) scalars(vals []kdl.Value) ([]any, error) {
	d.args = d.args[:0]
	for _, a := range vals {
		v, err := scalar(a)
		if err != nil {
			return nil, err
		}
		d.args = append(d.args, v)
	}
	return d.args, nil
}

// stringArgs reads a node's arguments as a list of one or more strings.
func (d *kdlDecoder) stringArgs(vals []kdl.Value) ([]string, error) {
	args, err := d.scalars(vals)
	if err != nil {
		return nil, err
	}
	return stringList(args, false)
}

func (d *kdlDecoder) tools() []string {
	if d.sections == nil {
		d.sections = d.Decoder.tools()
	}
	return d.sections
}

func (d *kdlDecoder) at(n *kdl.Node) agents.Pos {
	return agents.Pos{File: d.file, Line: n.Line, Col: n.Col}
}

func (d *kdlDecoder) atValue(v kdl.Value) agents.Pos {
	return agents.Pos{File: d.file, Line: v.Line, Col: v.Col}
}

func (d *kdlDecoder) agent(n *kdl.Node) {
	name, err := oneString(n.Args)
	if err != nil {
		d.f.Fail(d.at(n), "agent", err.Error(), `write agent "name" { … }`)
		return
	}
	if err := agents.CheckName(name); err != nil {
		d.f.Fail(d.at(n), "agent", err.Error(), "")
		return
	}
	if err := noExtras(n, true); err != nil {
		d.f.Fail(d.at(n), "agent", fmt.Sprintf("agent %q: %v", name, err), "")
		return
	}
	s := d.newSpec()
	s.Name, s.Pos = name, d.at(n)
	if d.deferring {
		d.deferFields(s, n)
	} else {
		d.fields(s, n)
		d.notePromptFile(s)
	}
	d.f.Specs = append(d.f.Specs, s)
}

// fields decodes an agent node's children into s.
func (d *kdlDecoder) fields(s *agents.Spec, n *kdl.Node) {
	s.Values = d.valueSlots(len(n.Children))
	// The children seen so far: a few, so a slice beats a map.
	var givenRoom [16]*kdl.Node
	given := givenRoom[:0]
	firstOf := func(name string) *kdl.Node {
		for _, g := range given {
			if g.Name == name {
				return g
			}
		}
		return nil
	}
	for _, c := range n.Children {
		pos := d.at(c)
		if first := firstOf(c.Name); first != nil && c.Name != agents.NodeTools && c.Name != agents.NodeMCPServer && c.Name != agents.NodeAccept {
			s.AddDiag(agents.Error, pos, c.Name, fmt.Sprintf("given twice in one agent node (first at line %d)", first.Line), "keep one")
			continue
		}
		given = append(given, c)
		d.agentChild(s, c, pos)
	}
	if firstOf(agents.NodePrompt) != nil {
		if pf := firstOf(agents.NodePromptFile); pf != nil {
			s.AddDiag(agents.Error, d.at(pf), agents.NodePromptFile, "both prompt and prompt-file are set", "keep one of them")
		}
	}
	d.trimValues(s)
}

// deferFields notes the prompt file the agent names, which its layer needs
// now to tell prompt files from agent files, and leaves the rest to be
// decoded from the node read again when s completes.
func (d *kdlDecoder) deferFields(s *agents.Spec, n *kdl.Node) {
	var prompt agents.Spec
	var given [2]bool
	for _, c := range n.Children {
		// The first of each, as fields takes them.
		if i := slices.Index(promptNodes, c.Name); i >= 0 && !given[i] {
			given[i] = true
			d.agentChild(&prompt, c, d.at(c))
		}
	}
	d.notePromptFile(&prompt)
	dec, file, text := d.Decoder, d.file, d.text
	start, line, col := n.Start, n.Line, n.Col
	s.Defer(func(s *agents.Spec) {
		n, err := kdl.ReadNodeAt(text, start, line, col)
		if err != nil { // only if text is not the file read, which it is
			s.AddDiag(agents.Error, s.Pos, "agent", fmt.Sprintf("cannot read the agent node again: %v", err), "")
			return
		}
		(&kdlDecoder{Decoder: dec, file: file}).fields(s, n)
	})
}

var promptNodes = []string{agents.NodePrompt, agents.NodePromptFile}

// notePromptFile records the prompt file s names, if any.
func (d *kdlDecoder) notePromptFile(s *agents.Spec) {
	if s.Prompt.Set && s.Prompt.Value.File != "" {
		d.f.PromptFiles = append(d.f.PromptFiles, s.Prompt.Value.File)
	}
}

func (d *kdlDecoder) agentChild(s *agents.Spec, c *kdl.Node, pos agents.Pos) {
	switch {
	case c.Name == agents.NodeTools:
		d.toolsBlock(s, c)
		return
	case c.Name == agents.NodeMCPServer:
		d.mcpServer(s, c, pos)
		return
	case c.Name == agents.NodePlaceholders:
		d.placeholders(s, c, pos)
		return
	case c.Name == agents.NodeAccept:
		d.accept(s, c, pos)
		return
	case slices.Contains(d.tools(), c.Name):
		d.section(s, c.Name, c, pos)
		return
	}
	if err := noExtras(c, false); err != nil {
		s.AddDiag(agents.Error, pos, c.Name, err.Error(), "")
		return
	}
	args, err := d.scalars(c.Args)
	if err != nil {
		s.AddDiag(agents.Error, pos, c.Name, err.Error(), "")
		return
	}
	if err := setField(s, c.Name, args, pos, false); err != nil {
		hint := ""
		if !slices.Contains(agents.AgentNodeNames(d.tools()), c.Name) {
			hint = agents.DidYouMean(c.Name, agents.AgentNodeNames(d.tools()))
		}
		s.AddErr(pos, c.Name, err, hint)
	}
}

// setField sets one plain or structural field from its values, which
// config.kdl and frontmatter both give as a list of scalars. commas lets
// a single string hold a comma-separated list (frontmatter style).
func setField(s *agents.Spec, name string, args []any, pos agents.Pos, commas bool) error {
	if f := agents.LookupField(name); f != nil {
		v, err := typed(f.Type, args, commas)
		if err != nil {
			return err
		}
		if v, err = f.Check(v); err != nil {
			return err
		}
		s.Set(f, v, pos)
		return nil
	}
	str := func(dst *agents.Opt[string]) error {
		v, err := promptText(args)
		if err == nil && strings.TrimSpace(v) == "" {
			err = fmt.Errorf("must not be empty")
		}
		if err == nil {
			dst.Put(v, pos)
		}
		return err
	}
	switch name {
	case agents.NodeExtends:
		if err := str(&s.Extends); err != nil {
			return err
		}
		return agents.CheckName(s.Extends.Value)
	case agents.NodePromptAppend:
		return str(&s.Extra().PromptAppend)
	case agents.NodePromptPrepend:
		return str(&s.Extra().PromptPrepend)
	case agents.NodeDisable:
		v, err := flag(args)
		if err == nil {
			s.Disable.Put(v, pos)
		}
		return err
	case agents.NodeReplace:
		v, err := flag(args)
		if err == nil {
			s.Replace.Put(v, pos)
		}
		return err
	case agents.NodePrompt:
		v, err := promptText(args)
		if err == nil {
			s.Prompt.Put(agents.PromptRef{Text: v}, pos)
		}
		return err
	case agents.NodePromptFile:
		v, err := oneString(args)
		if err != nil {
			return err
		}
		clean, err := CheckPromptPath(v)
		if err != nil {
			return err
		}
		s.Prompt.Put(agents.PromptRef{File: clean}, pos)
		return nil
	}
	return fmt.Errorf("unknown field %q", name)
}

// typed converts values to the Go type a field type holds.
func typed(t agents.ValueType, args []any, commas bool) (any, error) {
	switch t {
	case agents.TypeString, agents.TypeEnum:
		if _, err := oneString(args); err != nil {
			return nil, err
		}
		return args[0], nil // a string already boxed
	case agents.TypeBool:
		return flag(args)
	case agents.TypeNumber:
		if len(args) != 1 {
			return nil, fmt.Errorf("takes one number, found %d values", len(args))
		}
		switch n := args[0].(type) {
		case float64:
			return n, nil
		case int64:
			return float64(n), nil
		}
		return nil, fmt.Errorf("expects a number, found %s", describe(args[0]))
	case agents.TypeInt:
		if len(args) != 1 {
			return nil, fmt.Errorf("takes one whole number, found %d values", len(args))
		}
		if n, ok := args[0].(int64); ok {
			return n, nil
		}
		return nil, fmt.Errorf("expects a whole number, found %s", describe(args[0]))
	}
	return stringList(args, commas)
}

func stringList(args []any, commas bool) ([]string, error) {
	if len(args) == 0 {
		return nil, fmt.Errorf("needs at least one string value")
	}
	var out []string
	for _, a := range args {
		s, ok := a.(string)
		if !ok {
			return nil, fmt.Errorf("expects strings, found %s; quote it", describe(a))
		}
		if !commas {
			out = append(out, s)
			continue
		}
		for _, part := range strings.Split(s, ",") {
			if part = strings.TrimSpace(part); part != "" { // "a, b," as tools write it
				out = append(out, part)
			}
		}
	}
	return out, nil
}

// promptText reads prompt text: one string of at most MaxPromptBytes.
func promptText(args any) (string, error) {
	v, err := oneString(args)
	if err == nil && len(v) > agents.MaxPromptBytes {
		err = fmt.Errorf("is %d bytes; a prompt holds at most %d MiB", len(v), agents.MaxPromptBytes>>20)
	}
	if err == nil {
		err = agents.CheckText(v, true)
	}
	return v, err
}

func oneString(args any) (string, error) {
	switch a := args.(type) {
	case []kdl.Value:
		if len(a) != 1 {
			return "", fmt.Errorf("takes one string value, found %d values", len(a))
		}
		if a[0].Kind != kdl.String {
			return "", fmt.Errorf("expects a string, found %s; quote it", a[0].Describe())
		}
		return a[0].Str, nil
	case []any:
		if len(a) != 1 {
			return "", fmt.Errorf("takes one string value, found %d values", len(a))
		}
		s, ok := a[0].(string)
		if !ok {
			return "", fmt.Errorf("expects a string, found %s; quote it", describe(a[0]))
		}
		return s, nil
	}
	return "", fmt.Errorf("takes one string value")
}

// flag reads a boolean: no value means true.
func flag(args []any) (bool, error) {
	switch len(args) {
	case 0:
		return true, nil
	case 1:
		if b, ok := args[0].(bool); ok {
			return b, nil
		}
		return false, fmt.Errorf("expects true or false (#true or #false in KDL 2.0), found %s", describe(args[0]))
	}
	return false, fmt.Errorf("takes one value, true or false (#true or #false in KDL 2.0); found %d values", len(args))
}

func describe(v any) string {
	switch x := v.(type) {
	case string:
		return fmt.Sprintf("string %q", x)
	case bool:
		return fmt.Sprintf("boolean %v", x)
	case nil:
		return "null"
	case int64, float64:
		return fmt.Sprintf("number %v", x)
	case []any:
		return "a list"
	case *agents.Map:
		return "a mapping"
	}
	return fmt.Sprintf("%v", v)
}

var toolOps = []string{"allow", "ask", "deny", "remove", "reset", "all"}

func (d *kdlDecoder) toolsBlock(s *agents.Spec, tools *kdl.Node) {
	if err := noExtras(tools, true); err != nil || len(tools.Args) > 0 {
		if err == nil {
			err = fmt.Errorf("takes no values, only a { } block of all, allow, ask, deny, remove or reset")
		}
		s.AddDiag(agents.Error, d.at(tools), agents.NodeTools, err.Error(), `write tools { allow "read"; }`)
		return
	}
	for _, c := range tools.Children {
		pos := d.at(c)
		if err := noExtras(c, false); err != nil {
			s.AddDiag(agents.Error, pos, "tools."+c.Name, err.Error(), "")
			continue
		}
		// Patterns as plain strings, the usual case, go straight to their
		// list; anything else takes the general way and its errors.
		if list := toolList(s, c.Name); list != nil && plainStrings(c.Args) {
			d.strs = d.strs[:0]
			for _, a := range c.Args {
				d.strs = append(d.strs, a.Str)
			}
			addPatterns(s, c.Name, list, d.strs, pos)
			continue
		}
		args, err := d.scalars(c.Args)
		if err != nil {
			s.AddDiag(agents.Error, pos, "tools."+c.Name, err.Error(), "")
			continue
		}
		ToolOp(s, c.Name, args, pos, false)
	}
}

// plainStrings says whether vals are one or more strings with no type
// annotation.
func plainStrings(vals []kdl.Value) bool {
	for _, v := range vals {
		if v.Kind != kdl.String || v.HasType {
			return false
		}
	}
	return len(vals) > 0
}

// ToolOp records one all, allow, deny, remove or reset line of a tools
// block; config.kdl and frontmatter share it.
func ToolOp(s *agents.Spec, op string, args []any, pos agents.Pos, commas bool) {
	// Only a diagnostic names the field, so it is spelled out only then.
	fail := func(msg, hint string) { s.AddDiag(agents.Error, pos, "tools."+op, msg, hint) }
	switch op {
	case "reset", "all":
		v, err := flag(args)
		if err != nil {
			fail(err.Error(), "")
			return
		}
		if op == "reset" {
			s.Tools.Reset.Put(v, pos)
		} else {
			s.Tools.All.Put(v, pos)
		}
		return
	}
	list := toolList(s, op)
	if list == nil {
		fail(fmt.Sprintf("unknown %q in tools; use all, allow, ask, deny, remove or reset", op), agents.DidYouMean(op, toolOps))
		return
	}
	vals, err := stringList(args, commas)
	if err != nil {
		fail(err.Error(), "")
		return
	}
	addPatterns(s, op, list, vals, pos)
}

// toolList is the pattern list a tools operation adds to, or nil when op
// adds none.
func toolList(s *agents.Spec, op string) *[]agents.Pattern {
	switch op {
	case "allow":
		return &s.Tools.Allow
	case "ask":
		return &s.Tools.Ask
	case "deny":
		return &s.Tools.Deny
	case "remove":
		return &s.Tools.Remove
	}
	return nil
}

// addPatterns checks each tool pattern of a tools operation and adds it
// to list.
func addPatterns(s *agents.Spec, op string, list *[]agents.Pattern, vals []string, pos agents.Pos) {
	*list = slices.Grow(*list, len(vals))
	for _, v := range vals {
		p, err := agents.ParseToolPattern(v)
		if typo := (*agents.KindTypoError)(nil); errors.As(err, &typo) {
			s.AddDiag(agents.Error, pos, "tools."+op, typo.Problem(), typo.Fix())
			continue
		}
		if err != nil {
			s.AddDiag(agents.Error, pos, "tools."+op, err.Error(), `patterns look like "read", "shell(git:*)", "shell(git push)" or "server/*"`)
			continue
		}
		if w := agents.LintToolPattern(p); w != "" && op != "remove" {
			s.AddDiag(agents.Warning, pos, "tools."+op, w, "")
		}
		*list = append(*list, agents.Pattern{Text: v, Pos: pos})
	}
}

// mcpServer reads `mcp-server "name"` (a server configured elsewhere) or
// `mcp-server "name" { type "stdio"; command "npx"; … }`.
func (d *kdlDecoder) mcpServer(s *agents.Spec, n *kdl.Node, pos agents.Pos) {
	name, err := oneString(n.Args)
	if err == nil && (n.HasType || len(n.Props) > 0) {
		err = fmt.Errorf("takes the server's name and a { } block of its settings")
	}
	if err != nil {
		s.AddDiag(agents.Error, pos, agents.NodeMCPServer, err.Error(), `write mcp-server "github" { command "npx"; args "-y" "server" }`)
		return
	}
	srv := agents.MCPServer{Name: name}
	if n.Block {
		cfg := &agents.Map{}
		for _, c := range n.Children {
			v, err := dataFromNode(c)
			if err != nil {
				s.AddDiag(agents.Error, d.at(c), agents.NodeMCPServer+"."+c.Name, err.Error(), "")
				return
			}
			cfg.Set(c.Name, v)
		}
		srv.Config = cfg
	}
	s.AddMCP(srv, pos)
}

// placeholders reads placeholders { key "text" }: what {key} in the
// prompt stands for in files written for other tools.
func (d *kdlDecoder) placeholders(s *agents.Spec, n *kdl.Node, pos agents.Pos) {
	if len(n.Args) > 0 || len(n.Props) > 0 || n.HasType || !n.Block {
		s.AddDiag(agents.Error, pos, agents.NodePlaceholders, "takes a { } block of key \"text\" lines", `write placeholders { description "the task you are given" }`)
		return
	}
	for _, c := range n.Children {
		text, err := oneString(c.Args)
		if err == nil {
			err = noExtras(c, false)
		}
		if err == nil && !agents.PlaceholderKey(c.Name) {
			err = fmt.Errorf("a placeholder name is lower-case letters, digits, '-' and '_'")
		}
		if err != nil {
			s.AddDiag(agents.Error, d.at(c), agents.NodePlaceholders+"."+c.Name, err.Error(), "")
			continue
		}
		m := s.Extra()
		m.Placeholders = append(m.Placeholders, agents.TargetField{Key: c.Name, Value: text, Pos: d.at(c)})
	}
}

// checkAcceptField checks the field of a well-formed fingerprint.
func (d *kdlDecoder) checkAcceptField(fp string) error {
	parts := strings.Split(fp, ":")
	return d.Sections.CheckDifferenceField(parts[0], parts[1])
}

// accept reads accept "TARGET:FIELD:HASH" …: differences of the agent's
// files, reviewed, that export --strict lets pass.
func (d *kdlDecoder) accept(s *agents.Spec, n *kdl.Node, pos agents.Pos) {
	const hint = `copy the fingerprint an export's report prints after the difference: accept "copilot:tools:1a2b3c4d"`
	err := noExtras(n, false)
	if err == nil && len(n.Args) == 0 {
		err = fmt.Errorf("takes one or more fingerprints")
	}
	if err != nil {
		s.AddDiag(agents.Error, pos, agents.NodeAccept, err.Error(), hint)
		return
	}
	for _, a := range n.Args {
		at := agents.Pos{File: d.file, Line: a.Line, Col: a.Col}
		switch {
		case a.Kind != kdl.String:
			s.AddDiag(agents.Error, at, agents.NodeAccept, "takes fingerprints, as strings", hint)
		case agents.CheckFingerprint(a.Str, d.tools()) != nil:
			s.AddDiag(agents.Error, at, agents.NodeAccept, agents.CheckFingerprint(a.Str, d.tools()).Error(), "")
		case d.checkAcceptField(a.Str) != nil:
			s.AddDiag(agents.Error, at, agents.NodeAccept, fmt.Sprintf("fingerprint %q %v", a.Str, d.checkAcceptField(a.Str)), hint)
		default:
			m := s.Extra()
			m.Accepts = append(m.Accepts, agents.Pattern{Text: a.Str, Pos: at})
		}
	}
}

// Section keys bn reads itself; every other key is a field of the tool,
// under the tool's own name for it.
const (
	SectionID      = "id"
	SectionPartial = "partial"
	SectionRemove  = "remove"
)

// Partials are the values of a section's partial key.
var Partials = []string{"widen", "narrow"}

func (d *kdlDecoder) section(s *agents.Spec, tool string, n *kdl.Node, pos agents.Pos) {
	if len(n.Args) > 0 || len(n.Props) > 0 || n.HasType || !n.Block {
		s.AddDiag(agents.Error, pos, tool, "takes a { } block of fields for "+tool+" only", fmt.Sprintf(`write %s { id "name" }`, tool))
		return
	}
	entries := make([]sectionEntry, 0, len(n.Children))
	for _, c := range n.Children {
		v, err := dataFromNode(c)
		if err != nil {
			s.AddDiag(agents.Error, d.at(c), tool+"."+c.Name, err.Error(), "")
			continue
		}
		entries = append(entries, sectionEntry{c.Name, v, d.at(c)})
	}
	applySection(d.Sections, s, tool, entries, pos)
}

type sectionEntry struct {
	key   string
	value any
	pos   agents.Pos
}

// applySection records a tool's section; config.kdl and frontmatter
// share it.
func applySection(sec Sections, s *agents.Spec, tool string, entries []sectionEntry, pos agents.Pos) {
	t := s.Target(tool, pos)
	for _, e := range entries {
		field := tool + "." + e.key
		fail := func(err error, hint string) { s.AddDiag(agents.Error, e.pos, field, err.Error(), hint) }
		switch e.key {
		case SectionID:
			id, ok := e.value.(string)
			if !ok || strings.TrimSpace(id) == "" {
				fail(fmt.Errorf("expects the agent's name in %s", tool), "")
				continue
			}
			if err := files.CheckRel(id); err != nil {
				fail(fmt.Errorf("id %w", err), "an id becomes the agent's file name in "+tool+": use a plain name such as \"reviewer\" (or \"group/reviewer\" where the tool reads subdirectories)")
				continue
			}
			t.ID.Put(id, e.pos)
		case SectionRemove:
			list, err := dataStrings(e.value)
			if err != nil {
				fail(err, "")
				continue
			}
			for _, k := range list {
				t.Removals = append(t.Removals, agents.Pattern{Text: k, Pos: e.pos})
			}
		case SectionPartial:
			v, ok := e.value.(string)
			p, err := agents.ParseEnum(v, Partials)
			if !ok || err != nil {
				fail(fmt.Errorf("expects \"widen\" or \"narrow\""), "")
				continue
			}
			t.Partial.Put(p, e.pos)
		case agents.UnreadKey:
			if _, ok := e.value.(*agents.Map); !ok {
				fail(fmt.Errorf("expects a block of the keys %s does not read, kept to write back", tool), "write "+tool+" { unread { level 3 } }")
				continue
			}
			t.Fields = append(t.Fields, agents.TargetField{Key: e.key, Value: e.value, Pos: e.pos})
		default:
			if err := agents.CheckData(e.value); err != nil {
				fail(err, "")
				continue
			}
			if err := sec.CheckField(tool, e.key, e.value); err != nil {
				var warn agents.Diagnostic
				if !errors.As(err, &warn) || warn.Severity != agents.Warning {
					fail(err, "")
					continue
				}
				// A value the tool loads and ignores: kept, to write back.
				s.AddDiag(agents.Warning, e.pos, field, warn.Message, warn.Hint)
			}
			t.Fields = append(t.Fields, agents.TargetField{Key: e.key, Value: e.value, Pos: e.pos})
		}
	}
}

// dataStrings reads a string or a list of strings.
func dataStrings(v any) ([]string, error) {
	switch x := v.(type) {
	case string:
		return []string{x}, nil
	case []any:
		out := make([]string, 0, len(x))
		for _, e := range x {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("expects strings, found %s", describe(e))
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("expects a string or a list of strings, found %s", describe(v))
}

// model reads a catalog entry: model "id" { claude "spelling" …; copilot … }.
func (d *kdlDecoder) model(n *kdl.Node) {
	id, err := oneString(n.Args)
	if err == nil {
		err = noExtras(n, true)
	}
	if err != nil {
		d.f.Fail(d.at(n), "model", err.Error(), `write model "canonical-id" { claude "its-spelling" }`)
		return
	}
	e := &agents.ModelEntry{ID: id, Tools: map[string][]string{}, Pos: d.at(n)}
	for _, c := range n.Children {
		pos := d.at(c)
		if !slices.Contains(d.tools(), c.Name) {
			d.f.Fail(pos, "model."+c.Name, fmt.Sprintf("model %q: unknown tool %q; use one of %s", id, c.Name, strings.Join(d.tools(), ", ")),
				agents.DidYouMean(c.Name, d.tools()))
			continue
		}
		if err := noExtras(c, false); err != nil {
			d.f.Fail(pos, "model."+c.Name, err.Error(), "")
			continue
		}
		spellings, err := d.stringArgs(c.Args)
		if err != nil {
			d.f.Fail(pos, "model."+c.Name, err.Error(), "")
			continue
		}
		e.Tools[c.Name] = spellings
	}
	d.f.Models = append(d.f.Models, e)
}

// export reads export settings: export { built-in-agents #false }.
func (d *kdlDecoder) export(n *kdl.Node) {
	if err := noExtras(n, true); err != nil || len(n.Args) > 0 {
		d.f.Fail(d.at(n), "export", "takes a { } block of settings", "write export { built-in-agents #false }")
		return
	}
	for _, c := range n.Children {
		pos := d.at(c)
		if c.Name != "built-in-agents" {
			d.f.Fail(pos, "export."+c.Name, fmt.Sprintf("unknown export setting %q", c.Name), agents.DidYouMean(c.Name, []string{"built-in-agents"}))
			continue
		}
		args, err := d.scalars(c.Args)
		var v bool
		if err == nil {
			v, err = flag(args)
		}
		if err != nil {
			d.f.Fail(pos, "export.built-in-agents", err.Error(), "")
			continue
		}
		d.f.Settings.ExportBuiltIns.Put(v, pos)
	}
}

// noExtras rejects properties, type annotations and (unless allowed)
// children: bn uses none of them, and ignoring them would hide mistakes.
func noExtras(n *kdl.Node, childrenOK bool) error {
	if len(n.Props) > 0 {
		return fmt.Errorf("does not take properties (found %s=…); write values as arguments", n.Props[0].Key)
	}
	if n.HasType {
		return fmt.Errorf("type annotation (%s) is not used by bn; remove it", n.Type)
	}
	for _, a := range n.Args {
		if a.HasType {
			return fmt.Errorf("type annotation (%s) is not used by bn; remove it", a.Type)
		}
	}
	if !childrenOK && n.Block {
		return fmt.Errorf("does not take a { } block")
	}
	return nil
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

// source reads a shared layer: source NAME { url "…"; ref "…"; path "…" }.
func (d *kdlDecoder) source(n *kdl.Node) {
	pos := d.at(n)
	example := `source team { url "https://example.com/agents.git"; ref v1; path agents }`
	if len(n.Args) != 1 || n.Args[0].Kind != kdl.String || len(n.Props) > 0 || !n.Block {
		d.f.Fail(pos, "source", "takes a name and a { } block: url, ref and path", "write "+example)
		return
	}
	src := agents.SourceSpec{Name: n.Args[0].Str, Path: ".", Pos: pos}
	if agents.CheckName(src.Name) != nil {
		d.f.Fail(pos, "source", fmt.Sprintf("source %q: a source's name is %s (it names the source's directory in bn's cache)", src.Name, agents.NameRule), "write "+example)
		return
	}
	if slices.ContainsFunc(d.f.Sources, func(o agents.SourceSpec) bool { return o.Name == src.Name }) {
		d.f.Fail(pos, "source", fmt.Sprintf("source %q is declared twice in this file", src.Name), "keep one")
		return
	}
	keys := []string{"url", "ref", "path"}
	for _, c := range n.Children {
		cpos := d.at(c)
		v, err := oneString(c.Args)
		if err == nil && (len(c.Props) > 0 || len(c.Children) > 0) {
			err = fmt.Errorf("takes one string value")
		}
		switch {
		case !slices.Contains(keys, c.Name):
			d.f.Fail(cpos, "source."+c.Name, fmt.Sprintf("source %q: unknown setting %q; use url, ref and path", src.Name, c.Name), agents.DidYouMean(c.Name, keys))
			continue
		case err != nil:
			d.f.Fail(cpos, "source."+c.Name, fmt.Sprintf("source %q: %s %v", src.Name, c.Name, err), "")
			continue
		}
		switch c.Name {
		case "url":
			src.URL = v
		case "ref":
			src.Ref = v
		case "path":
			clean := path.Clean(strings.TrimSuffix(v, "/"))
			if !fs.ValidPath(clean) || strings.Contains(v, `\`) {
				d.f.Fail(cpos, "source.path", fmt.Sprintf("source %q: path %q is not a directory inside the repository", src.Name, v),
					"write it relative to the repository root, with '/', like agents or team/agents")
				continue
			}
			src.Path = clean
		}
	}
	if src.URL == "" || src.Ref == "" {
		d.f.Fail(pos, "source", fmt.Sprintf("source %q needs a url and a ref", src.Name), "write "+example)
		return
	}
	if strings.HasPrefix(src.Ref, "-") || strings.HasPrefix(src.URL, "-") {
		d.f.Fail(pos, "source", fmt.Sprintf("source %q: a url or ref may not start with '-'", src.Name), "")
		return
	}
	d.f.Sources = append(d.f.Sources, src)
}

// policy reads what no agent may do: policy { deny …; models …; lock … }.
func (d *kdlDecoder) policy(n *kdl.Node) {
	pos := d.at(n)
	if len(n.Args) > 0 || len(n.Props) > 0 || !n.Block {
		d.f.Fail(pos, "policy", "takes a { } block of deny, models and lock", `write policy { deny "shell(rm:*)" }`)
		return
	}
	if d.f.Policy != nil {
		d.f.Fail(pos, "policy", "a file holds one policy node", "merge them")
		return
	}
	p := &agents.Policy{Pos: pos}
	keys := []string{"deny", "models", "lock"}
	for _, c := range n.Children {
		cpos := d.at(c)
		if !slices.Contains(keys, c.Name) {
			d.f.Fail(cpos, "policy."+c.Name, fmt.Sprintf("unknown policy setting %q; use deny, models and lock", c.Name), agents.DidYouMean(c.Name, keys))
			continue
		}
		values, err := d.stringArgs(c.Args)
		if err == nil && (len(c.Props) > 0 || len(c.Children) > 0 || len(values) == 0) {
			err = fmt.Errorf("takes one or more strings")
		}
		if err != nil {
			d.f.Fail(cpos, "policy."+c.Name, err.Error(), "")
			continue
		}
		switch c.Name {
		case "deny":
			for _, v := range values {
				if _, err := agents.ParseToolPattern(v); err != nil {
					d.f.Fail(cpos, "policy.deny", fmt.Sprintf("%q: %v", v, err), "")
					continue
				}
				p.Deny = append(p.Deny, agents.Pattern{Text: v, Pos: cpos})
			}
		case "models":
			p.Models, p.ModelsPos = append(p.Models, values...), cpos
		case "lock":
			for _, v := range values {
				if agents.LookupField(v) == nil {
					d.f.Fail(cpos, "policy.lock", fmt.Sprintf("%q is not a field bn has", v), agents.DidYouMean(v, fieldNames()))
					continue
				}
				p.Lock = append(p.Lock, agents.Pattern{Text: v, Pos: cpos})
			}
		}
	}
	d.f.Policy = p
}

func fieldNames() []string {
	out := make([]string, len(agents.Fields))
	for i, f := range agents.Fields {
		out[i] = f.Name
	}
	return out
}
