package kdl

import (
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// specDir holds the KDL 2.0 specification's official test cases
// (CC BY-SA 4.0; see its README).
const specDir = "testdata/spec"

// TestSpecSuite runs every official case: each _fail input must be
// rejected, and every other input must read as the same data as its
// expected_kdl file.
func TestSpecSuite(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join(specDir, "input", "*.kdl"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no spec cases in %s: %v", specDir, err)
	}
	passed := 0
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".kdl")
		ok := t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			doc, perr := parse2(string(src))
			if strings.HasSuffix(name, "_fail") {
				if perr == nil {
					t.Fatalf("accepted invalid input:\n%s\nread as:\n%s", src, dump(doc.Nodes))
				}
				return
			}
			if perr != nil {
				t.Fatalf("rejected valid input: %v\n%s", perr, src)
			}
			want, err := os.ReadFile(filepath.Join(specDir, "expected_kdl", name+".kdl"))
			if err != nil {
				t.Fatal(err)
			}
			wdoc, werr := parse2(string(want))
			if werr != nil {
				t.Fatalf("cannot read the expected file: %v", werr)
			}
			if got, exp := dump(doc.Nodes), dump(wdoc.Nodes); got != exp {
				t.Fatalf("input:\n%s\nread as:\n%s\nwant:\n%s", src, got, exp)
			}
		})
		if ok {
			passed++
		}
	}
	t.Logf("KDL 2.0 spec suite: %d of %d cases pass", passed, len(inputs))
}

// dump prints nodes as comparable data: properties deduplicated (the last
// one wins) and sorted, numbers by value.
func dump(nodes []*Node) string {
	var b strings.Builder
	var walk func([]*Node, string)
	walk = func(ns []*Node, indent string) {
		for _, n := range ns {
			b.WriteString(indent)
			if n.HasType {
				fmt.Fprintf(&b, "(%q)", n.Type)
			}
			fmt.Fprintf(&b, "%q", n.Name)
			for _, a := range n.Args {
				b.WriteString(" " + dumpValue(a))
			}
			props := map[string]Value{}
			for _, p := range n.Props {
				props[p.Key] = p.Value
			}
			keys := make([]string, 0, len(props))
			for k := range props {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				fmt.Fprintf(&b, " %q=%s", k, dumpValue(props[k]))
			}
			if len(n.Children) > 0 {
				b.WriteString(" {\n")
				walk(n.Children, indent+"  ")
				b.WriteString(indent + "}")
			}
			b.WriteString("\n")
		}
	}
	walk(nodes, "")
	return b.String()
}

// positions lists where a node, its values and its children are.
func positions(n *Node) string {
	s := fmt.Sprintf("%s@%d:%d[%d,%d)", n.Name, n.Line, n.Col, n.Start, n.End)
	for _, a := range n.Args {
		s += fmt.Sprintf(" %d:%d", a.Line, a.Col)
	}
	for _, p := range n.Props {
		s += fmt.Sprintf(" %s=%d:%d", p.Key, p.Value.Line, p.Value.Col)
	}
	for _, c := range n.Children {
		s += " {" + positions(c) + "}"
	}
	return s
}

func dumpValue(v Value) string {
	s := ""
	if v.HasType {
		s = fmt.Sprintf("(%q)", v.Type)
	}
	switch v.Kind {
	case String:
		return s + fmt.Sprintf("%q", v.Str)
	case Bool:
		return s + fmt.Sprint(v.Bool)
	case Null:
		return s + "null"
	case Int:
		n, _ := v.BigInt()
		return s + "int:" + n.String()
	case Float:
		if strings.HasPrefix(v.Str, "#") {
			return s + v.Str
		}
		r, ok := new(big.Rat).SetString(v.Str)
		if !ok {
			return s + "badfloat:" + v.Str
		}
		return s + "float:" + r.RatString()
	}
	return s + "?"
}

// TestReadEachReusesSafely reads every valid spec case node by node, as
// the decoder does: each node, dumped while it is valid, must equal the
// node Read keeps, though ReadEach reuses one node's memory for the next.
// Each 2.0 node read again by ReadNodeAt must be the same, positions too.
func TestReadEachReusesSafely(t *testing.T) {
	inputs, _ := filepath.Glob(filepath.Join(specDir, "input", "*.kdl"))
	// Plus a file of many nested nodes, to cross the storage chunks.
	var many strings.Builder
	// Its nodes alternate shapes, so anything a reused node kept would show.
	for i := range 3 * arenaChunk {
		fmt.Fprintf(&many, "n%d %d k=v { a 1 2; b { c \"x\" } }\nm%d\n(t)o { p; }\n", i, i, i)
	}
	// And nodes that start mid-line after wide characters.
	many.WriteString("\"ü\" 1; \"äö\" \"é\" { b \"ö\"; c 2 }; d\n")
	cases := map[string][]byte{"many": []byte(many.String())}
	for _, in := range inputs {
		if src, err := os.ReadFile(in); err == nil && !strings.HasSuffix(in, "_fail.kdl") {
			cases[filepath.Base(in)] = src
		}
	}
	for name, src := range cases {
		doc, err := Read(src)
		if err != nil {
			continue // valid in 2.0 only by its expected form; Read's own tests cover it
		}
		var seen []string
		if _, err := ReadEach(string(src), func(Version) { seen = seen[:0] }, func(n *Node) { seen = append(seen, dump([]*Node{n})) }); err != nil {
			t.Fatalf("%s: ReadEach: %v", name, err)
		}
		if len(seen) != len(doc.Nodes) {
			t.Fatalf("%s: ReadEach gave %d nodes, Read %d", name, len(seen), len(doc.Nodes))
		}
		for i, n := range doc.Nodes {
			if want := dump([]*Node{n}); seen[i] != want {
				t.Fatalf("%s: node %d read one by one:\n%s\nwant:\n%s", name, i, seen[i], want)
			}
			if doc.Version != V2 {
				continue
			}
			again, err := ReadNodeAt(string(src), n.Start, n.Line, n.Col)
			if err != nil {
				t.Fatalf("%s: node %d read again at byte %d: %v", name, i, n.Start, err)
			}
			if got, want := dump([]*Node{again})+positions(again), dump([]*Node{n})+positions(n); got != want {
				t.Fatalf("%s: node %d read again at byte %d:\n%s\nwant:\n%s", name, i, n.Start, got, want)
			}
		}
	}
}
