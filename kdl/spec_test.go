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
		if _, _, err := ReadEach(src, 1, func(Version) { seen = seen[:0] }, func(_ int, n *Node) { seen = append(seen, dump([]*Node{n})) }); err != nil {
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
			again, err := ReadNodeAt(src, n.Start, n.Line, n.Col)
			if err != nil {
				t.Fatalf("%s: node %d read again at byte %d: %v", name, i, n.Start, err)
			}
			if got, want := dump([]*Node{again})+positions(again), dump([]*Node{n})+positions(n); got != want {
				t.Fatalf("%s: node %d read again at byte %d:\n%s\nwant:\n%s", name, i, n.Start, got, want)
			}
		}
	}
}

// readInPieces reads src as parse2Parts does from the given starts and
// returns the nodes, with their positions, that make up the document.
func readInPieces(src string, starts []int) (string, *Error) {
	pieces := make([][]string, len(starts))
	used, err := parse2Parts(src, starts, func(part int, n *Node) {
		pieces[part] = append(pieces[part], dump([]*Node{n})+positions(n)+"\n")
	}, true)
	var b strings.Builder
	for _, i := range used {
		b.WriteString(strings.Join(pieces[i], ""))
	}
	return b.String(), err
}

// lineStarts are the offsets just after each '\n' of src but the last byte.
func lineStarts(src string) []int {
	var starts []int
	for i := 0; i < len(src)-1; i++ {
		if src[i] == '\n' {
			starts = append(starts, i+1)
		}
	}
	return starts
}

// checkPieces fails unless reading src in pieces from every line start,
// from each line start alone and from each pair of them, gives what
// reading it whole gives: the same nodes at the same places, or the same
// error.
func checkPieces(t *testing.T, src string) {
	t.Helper()
	doc, werr := parse2(src)
	var want string
	if werr == nil {
		for _, n := range doc.Nodes {
			want += dump([]*Node{n}) + positions(n) + "\n"
		}
	}
	all := lineStarts(src)
	tries := [][]int{append([]int{0}, all...)}
	for i, s := range all {
		tries = append(tries, []int{0, s})
		for _, later := range all[i+1 : min(len(all), i+40)] {
			tries = append(tries, []int{0, s, later})
		}
	}
	for _, starts := range tries {
		got, err := readInPieces(src, starts)
		if fmt.Sprint(err) != fmt.Sprint(werr) {
			t.Fatalf("%q in pieces from %v: error %v, whole %v", src, starts, err, werr)
		}
		if err == nil && got != want {
			t.Fatalf("%q in pieces from %v:\n%s\nwhole:\n%s", src, starts, got, want)
		}
	}
}

// TestReadInPiecesMatchesWhole reads documents in pieces whose starts lie
// in strings, comments, blocks and continued nodes as well as at nodes.
func TestReadInPiecesMatchesWhole(t *testing.T) {
	traps := []string{
		"agent a {\n    prompt \"\"\"\n        agent b\n        text\n        \"\"\"\n}\nagent c\n",
		"a /* comment\nb c\n*/ d\ne\n",
		"/-\nagent a {\n  x 1\n}\nagent b\n",
		"a \\\nb\nc #\"raw\nd\n\"#\ne;f\ng\n",
		"a\r\nb\rc\fd\u0085e\u2028f\u2029g\vh\ni\n",
		"a {\nb {\nc\n}\n}\nd\n",
		"a\nb {\n",
		"a\nb }\nc\n",
		"\uFEFFa\nb \"ü\"\nc\n",
	}
	inputs, _ := filepath.Glob(filepath.Join(specDir, "input", "*.kdl"))
	for _, in := range inputs {
		src, _ := os.ReadFile(in)
		traps = append(traps, string(src))
	}
	for _, src := range traps {
		if bad, _ := checkText(src); bad < 0 {
			checkPieces(t, src)
		}
	}
}

// TestPartStarts splits a large document at node lines near equal shares.
func TestPartStarts(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 4*minPart; i++ {
		fmt.Fprintf(&b, "agent a%d {\n    prompt \"\"\"\n        line\n        \"\"\"\n}\n", i)
	}
	src := b.String()
	starts := partStarts(src, 4)
	if len(starts) != 4 {
		t.Fatalf("%d starts, want 4", len(starts))
	}
	for i, s := range starts[1:] {
		if src[s-1] != '\n' || !strings.HasPrefix(src[s:], "agent") || s < (i+1)*len(src)/4 {
			t.Errorf("start %d at %d: %q", i+1, s, src[s:min(len(src), s+10)])
		}
	}
	if got := partStarts(src, 64); len(got) != 4 {
		t.Errorf("64 parts of %d bytes: %d starts, want one per %d bytes", len(src), len(got), minPart)
	}
	checkPieces(t, src[:2000])
	doc, err := parse2(src)
	if err != nil {
		t.Fatal(err)
	}
	var want string
	for _, n := range doc.Nodes {
		want += dump([]*Node{n}) + positions(n) + "\n"
	}
	if got, err := readInPieces(src, starts); err != nil || got != want {
		t.Errorf("read in pieces: error %v, %d nodes, whole %d", err, strings.Count(got, "\n"), len(doc.Nodes))
	}
}
