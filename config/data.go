package config

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/kdl"
)

// Tool data (a tool's own fields, an MCP server's configuration) is kept
// in config.kdl as readable nodes, not as an opaque string:
//
//	key "value"                 a string, number, boolean or #null
//	key "a" "b"                 a list of two or more plain values
//	key { - "a" }               a list, one item per '-' node
//	key { - { label "x" } }     a list of mappings
//	key { a 1; b #true }        a mapping
//	(array)key / (object)key    an empty list / an empty mapping

// dataFromNode reads the value a data node holds.
func dataFromNode(n *kdl.Node) (any, error) {
	if len(n.Props) > 0 {
		return nil, fmt.Errorf("does not take properties (found %s=…); write each key as its own node", n.Props[0].Key)
	}
	if n.HasType {
		switch {
		case n.Type == "array" && len(n.Args) == 0 && len(n.Children) == 0:
			return []any{}, nil
		case n.Type == "object" && len(n.Args) == 0 && len(n.Children) == 0:
			return &agents.Map{}, nil
		}
		return nil, fmt.Errorf("type annotation (%s) is not used here; (array) and (object) mark an empty list or mapping", n.Type)
	}
	switch {
	case len(n.Args) > 0 && n.Block:
		return nil, fmt.Errorf("takes values or a { } block, not both")
	case len(n.Args) == 1:
		return scalar(n.Args[0])
	case len(n.Args) > 1:
		out := make([]any, len(n.Args))
		for i, a := range n.Args {
			v, err := scalar(a)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case !n.Block:
		return nil, fmt.Errorf("needs a value, a { } block, (array) or (object)")
	}
	items := 0
	for _, c := range n.Children {
		if c.Name == "-" {
			items++
		}
	}
	if items > 0 && items != len(n.Children) {
		return nil, fmt.Errorf("mixes list items (-) and keys; a block is either a list or a mapping")
	}
	if items > 0 {
		out := make([]any, 0, items)
		for _, c := range n.Children {
			v, err := dataFromNode(c)
			if err != nil {
				return nil, fmt.Errorf("item %d: %w", len(out)+1, err)
			}
			out = append(out, v)
		}
		return out, nil
	}
	m := &agents.Map{}
	for _, c := range n.Children {
		if _, dup := m.Get(c.Name); dup {
			return nil, fmt.Errorf("key %q is given twice", c.Name)
		}
		v, err := dataFromNode(c)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c.Name, err)
		}
		m.Set(c.Name, v)
	}
	return m, nil
}

func scalar(v kdl.Value) (any, error) {
	if v.HasType {
		return nil, fmt.Errorf("type annotation (%s) is not used here", v.Type)
	}
	switch v.Kind {
	case kdl.String:
		return v.Str, nil
	case kdl.Bool:
		return v.Bool, nil
	case kdl.Null:
		return nil, nil
	case kdl.Int:
		n, err := v.Int64()
		if err != nil {
			return nil, err
		}
		return n, nil
	}
	f, err := v.Float64()
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return nil, fmt.Errorf("%s is not a finite number", v.Str)
	}
	return f, nil
}

// dataNode writes a data value as a node named key.
func dataNode(key string, v any) *kdl.Node {
	n := &kdl.Node{Name: key}
	switch x := v.(type) {
	case []any:
		if len(x) == 0 {
			n.Type, n.HasType = "array", true
			return n
		}
		plain := len(x) > 1
		for _, e := range x {
			if _, ok := scalarValue(e); !ok {
				plain = false
			}
		}
		if plain {
			for _, e := range x {
				sv, _ := scalarValue(e)
				n.Args = append(n.Args, sv)
			}
			return n
		}
		n.Block = true
		for _, e := range x {
			n.Children = append(n.Children, dataNode("-", e))
		}
		return n
	case *agents.Map:
		if x.Len() == 0 {
			n.Type, n.HasType = "object", true
			return n
		}
		n.Block = true
		for _, k := range x.Keys {
			n.Children = append(n.Children, dataNode(k, x.Values[k]))
		}
		return n
	}
	sv, _ := scalarValue(v)
	n.Args = []kdl.Value{sv}
	return n
}

func scalarValue(v any) (kdl.Value, bool) {
	switch x := v.(type) {
	case string:
		return kdl.Value{Kind: kdl.String, Str: x}, true
	case bool:
		return kdl.Value{Kind: kdl.Bool, Bool: x}, true
	case nil:
		return kdl.Value{Kind: kdl.Null}, true
	case int64:
		return kdl.Value{Kind: kdl.Int, Str: strconv.FormatInt(x, 10)}, true
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eE") {
			s += ".0"
		}
		return kdl.Value{Kind: kdl.Float, Str: s}, true
	}
	return kdl.Value{}, false
}
