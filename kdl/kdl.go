package kdl

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Version is a KDL language version.
type Version int

const (
	V1 Version = 1
	V2 Version = 2
)

func (v Version) String() string { return fmt.Sprintf("KDL %d.0", int(v)) }

// Document is a parsed KDL file.
type Document struct {
	Version Version
	Nodes   []*Node
}

// Node is one KDL node. Children is nil and Block false when the node has
// no { } block.
type Node struct {
	Name     string
	Type     string // type annotation; HasType tells "" from none
	HasType  bool
	Args     []Value
	Props    []Prop // in source order, duplicates kept
	Children []*Node
	Block    bool
	Line     int32 // 1-based position of the node's first character
	Col      int32
	// Start and End are the byte offsets of the node's text, from its
	// type annotation or name to its last value or closing brace. They are
	// set for top-level nodes, so a file can be edited node by node.
	Start, End int32
}

// Prop is a property, key=value.
type Prop struct {
	Key   string
	Value Value
}

// Kind says what a value is.
type Kind uint8

const (
	String Kind = iota + 1
	Int
	Float
	Bool
	Null
)

func (k Kind) String() string {
	switch k {
	case String:
		return "string"
	case Int, Float:
		return "number"
	case Bool:
		return "boolean"
	case Null:
		return "null"
	}
	return "value"
}

// Value is an argument or property value. Str holds a string's text, or a
// number's literal without underscores ("0x1f", "1.5e3", "#inf").
type Value struct {
	Kind    Kind
	Str     string
	Bool    bool
	Type    string
	HasType bool
	Line    int32
	Col     int32
}

// Int64 returns an integer value, or an error when it is not an integer or
// does not fit.
func (v Value) Int64() (int64, error) {
	if v.Kind != Int {
		return 0, fmt.Errorf("not an integer")
	}
	n, ok := v.BigInt()
	if !ok || !n.IsInt64() {
		return 0, fmt.Errorf("%s does not fit in 64 bits", v.Str)
	}
	return n.Int64(), nil
}

// BigInt returns an integer value at any size.
func (v Value) BigInt() (*big.Int, bool) {
	if v.Kind != Int {
		return nil, false
	}
	s, neg := v.Str, false
	switch {
	case strings.HasPrefix(s, "-"):
		s, neg = s[1:], true
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	}
	base := 10
	if len(s) > 2 && s[0] == '0' {
		switch s[1] {
		case 'x':
			base, s = 16, s[2:]
		case 'o':
			base, s = 8, s[2:]
		case 'b':
			base, s = 2, s[2:]
		}
	}
	n, ok := new(big.Int).SetString(s, base)
	if ok && neg {
		n.Neg(n)
	}
	return n, ok
}

// Float64 returns a number as a float64 (integers too).
func (v Value) Float64() (float64, error) {
	switch v.Kind {
	case Int:
		n, ok := v.BigInt()
		if !ok {
			return 0, fmt.Errorf("invalid number %s", v.Str)
		}
		f, _ := new(big.Float).SetInt(n).Float64()
		return f, nil
	case Float:
		switch v.Str {
		case "#inf":
			return math.Inf(1), nil
		case "#-inf":
			return math.Inf(-1), nil
		case "#nan":
			return math.NaN(), nil
		}
		return strconv.ParseFloat(v.Str, 64)
	}
	return 0, fmt.Errorf("not a number")
}

// Describe names the value for error messages: `string "x"`, `number 5`.
func (v Value) Describe() string {
	switch v.Kind {
	case String:
		return fmt.Sprintf("string %q", v.Str)
	case Int, Float:
		return "number " + v.Str
	case Bool:
		return fmt.Sprintf("boolean %v", v.Bool)
	case Null:
		return "null"
	}
	return "value"
}

// Error is a syntax error at a place in the file.
type Error struct {
	Version Version
	Line    int
	Col     int
	Msg     string
	Hint    string
	// legacy marks a 2.0 reading that stopped at a 1.0-only spelling.
	legacy bool
}

func (e *Error) Error() string {
	s := e.Msg
	if e.Line > 0 {
		s = fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
	}
	if e.Hint != "" {
		s += " (" + e.Hint + ")"
	}
	return s
}

// MaxDepth bounds how deeply children blocks nest. bn's files nest a few
// levels; a limit keeps a hostile file from exhausting the stack of a
// recursive reader.
const MaxDepth = 100

// MaxEntries bounds the values and properties one node holds, counting
// those commented out with /-. A hand-written list (tags, a tools block's
// allow) holds tens; a generated allow list may hold tens of thousands,
// and bn resolves 20,000 patterns in one list; five times that is still a
// few megabytes to read. Without a bound one line of a 64 MiB file grew
// to gigabytes. It is checked as each entry is read, before any is stored
// past it.
const MaxEntries = 100_000

// MaxItems bounds the nodes, values and properties of one document,
// counting those commented out. A config.kdl of 10,000 agents holds about
// 200,000; a file near the 64 MiB size limit can hold 30 million, which
// read and checked took over 20 GB. It is checked as each is read.
const MaxItems = 1_000_000

// tooManyItems is the error for a document past MaxItems.
func tooManyItems(v Version, line, col int) *Error {
	return &Error{Version: v, Line: line, Col: col,
		Msg:  fmt.Sprintf("this file has more than %d nodes, values and properties", MaxItems),
		Hint: "a config.kdl of 10,000 agents has about 200,000; split the agents over layers or agent files"}
}

// tooManyEntries is the error for a node past MaxEntries.
func tooManyEntries(v Version, line, col int, node string) *Error {
	return &Error{Version: v, Line: line, Col: col,
		Msg:  fmt.Sprintf("node %q has more than %d values and properties", node, MaxEntries),
		Hint: "even a generated list holds far fewer; remove the extra ones"}
}
