package kdl

import (
	"bytes"
	"fmt"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"

	kdl1 "github.com/sblinch/kdl-go"
	"github.com/sblinch/kdl-go/document"
)

// parse1 reads src as KDL 1.0 with kdl-go. v2 lists the KDL 2.0 spellings
// the scanner found (each also makes the read fail).
func parse1(src []byte) (doc *Document, err *Error, v2 []*Error) {
	scan := scan1(src)
	if len(scan.problems) > 0 {
		return nil, scan.problems[0], scan.v2
	}
	if len(scan.v2) > 0 {
		return nil, scan.v2[0], scan.v2
	}
	tree, cerr := parseChunks(src, scan.splits)
	if cerr != nil {
		return nil, syntaxError1(cerr.err, cerr.lineOffset, src), nil
	}
	c := converter{positions: scan.nodes}
	c.count(tree.Nodes)
	if !c.usable {
		// kdl-go read a structure the 1.0 grammar does not give this
		// text (it accepts values run together, like ""0): refuse rather
		// than trust it, or name wrong lines.
		return nil, &Error{Version: V1, Line: 1, Col: 1,
			Msg:  "KDL 1.0 syntax error: the file's nodes cannot be told apart (values written without spaces between them?)",
			Hint: "separate values with spaces, or write the file in KDL 2.0"}, nil
	}
	doc = &Document{Version: V1, Nodes: c.nodes(tree.Nodes)}
	if len(scan.spans) == len(doc.Nodes) {
		for i, n := range doc.Nodes {
			n.Start, n.End = scan.spans[i][0], scan.spans[i][1]
		}
	}
	return doc, nil, nil
}

// chunkBytes keeps each piece handed to kdl-go inside its 64 KiB read
// buffer: its streaming reader mis-tokenizes some documents when it has to
// refill that buffer (a valid 700 KB config was read as a syntax error).
const chunkBytes = 60 << 10

type chunkError struct {
	err        error
	lineOffset int // lines before the chunk the error is in
}

// parseChunks runs kdl-go over src in pieces cut at top-level node
// boundaries, and turns any panic inside it into an error.
func parseChunks(src []byte, splits []split) (*document.Document, *chunkError) {
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
		if sp.offset > start && next-start > chunkBytes {
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
			doc, err = nil, fmt.Errorf("parse failed: the KDL 1.0 parser crashed (%v)", r)
		}
	}()
	return kdl1.Parse(bytes.NewReader(src))
}

var errPattern1 = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^(parse|scan) failed: (.*?) at line (\d+), column (\d+)`)
})

var tokenNames1 = strings.NewReplacer(
	"Equals", "'='", "BraceOpen", "'{'", "BraceClose", "'}'", "ParensOpen", "'('", "ParensClose", "')'",
	"Semicolon", "';'", "EOF", "end of file", "FormattedString", "string", "RawString", "raw string",
	"BareIdentifier", "bare word", "Newline", "new line", "Decimal", "number", "Boolean", "boolean",
	"Null", "null", "TypeSpec", "type annotation",
)

var statePattern1 = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(` in state \w+`) })

// syntaxError1 converts a kdl-go error: its parse errors count lines from
// 0, its scan errors from 1, and "line 0, column 0" means unknown, which
// kdl-go says of an unexpected end of file: the end of src is named then.
func syntaxError1(err error, lineOffset int, src []byte) *Error {
	msg := strings.SplitN(err.Error(), "\n", 2)[0]
	e := &Error{Version: V1}
	if m := errPattern1().FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[3])
		col, _ := strconv.Atoi(m[4])
		if m[1] == "parse" && (line != 0 || col != 0) {
			line++
		}
		if line > 0 {
			e.Line, e.Col = line+lineOffset, col
		}
		msg = m[2]
	} else {
		msg = strings.TrimPrefix(strings.TrimPrefix(msg, "parse failed: "), "scan failed: ")
	}
	if e.Line == 0 {
		e.Line, e.Col = position(string(src), len(src))
	}
	e.Msg = "KDL 1.0 syntax error: " + tokenNames1.Replace(statePattern1().ReplaceAllString(msg, ""))
	e.Hint = "in KDL 1.0, quote strings, write true/false/null, end one-line blocks with ';'"
	return e
}

// converter turns kdl-go's tree into this package's, pairing each node
// with the position the scanner found for it; parse1 refuses a file where
// the counts disagree.
type converter struct {
	positions []lineCol
	next      int
	usable    bool
}

func (c *converter) count(ns []*document.Node) {
	total := 0
	var walk func([]*document.Node)
	walk = func(ns []*document.Node) {
		for _, n := range ns {
			total++
			walk(n.Children)
		}
	}
	walk(ns)
	c.usable = total == len(c.positions)
}

func (c *converter) nodes(ns []*document.Node) []*Node {
	out := make([]*Node, 0, len(ns))
	for _, dn := range ns {
		n := &Node{Name: valueString(dn.Name), Type: string(dn.Type), HasType: dn.Type != ""}
		n.Line, n.Col = c.positions[c.next].line, c.positions[c.next].col
		c.next++
		for _, a := range dn.Arguments {
			n.Args = append(n.Args, value1(a, n))
		}
		keys := make([]string, 0, dn.Properties.Len())
		props := map[string]*document.Value{}
		for k, v := range dn.Properties.Unordered() {
			keys = append(keys, k)
			props[k] = v
		}
		sort.Strings(keys)
		for _, k := range keys {
			n.Props = append(n.Props, Prop{Key: k, Value: value1(props[k], n)})
		}
		if dn.Children != nil {
			n.Block = true
			n.Children = c.nodes(dn.Children)
		}
		out = append(out, n)
	}
	return out
}

func valueString(v *document.Value) string {
	if v == nil {
		return ""
	}
	if s, ok := v.Value.(string); ok {
		return s
	}
	return v.ValueString()
}

// value1 converts a kdl-go value; it has no position of its own, so it
// takes its node's.
func value1(v *document.Value, n *Node) Value {
	out := Value{Type: string(v.Type), HasType: v.Type != "", Line: n.Line, Col: n.Col}
	switch x := v.Value.(type) {
	case string:
		out.Kind, out.Str = String, x
	case bool:
		out.Kind, out.Bool = Bool, x
	case nil:
		out.Kind = Null
	case int64:
		out.Kind, out.Str = Int, strconv.FormatInt(x, 10)
	case int:
		out.Kind, out.Str = Int, strconv.Itoa(x)
	case float64:
		out.Kind, out.Str = Float, strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(out.Str, ".eEn") {
			out.Str += ".0"
		}
	case *big.Int:
		out.Kind, out.Str = Int, x.String()
	case *big.Float:
		out.Kind, out.Str = Float, x.Text('g', -1)
	default:
		out.Kind, out.Str = String, v.ValueString()
	}
	return out
}
