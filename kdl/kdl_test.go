package kdl

import (
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	other "github.com/calico32/kdl-go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestReadVersions(t *testing.T) {
	tests := []struct {
		name, src string
		version   Version
	}{
		{"2.0 keywords", "agent \"a\" {\n    hidden #true\n    execution host\n}\n", V2},
		{"valid in both reads as 2.0", "agent \"a\" {\n    description \"x\"\n}\n", V2},
		{"1.0 booleans fall back", "agent \"a\" {\n    hidden true\n}\n", V1},
		{"1.0 raw string", "agent \"a\" {\n    prompt r#\"say \"hi\"\"#\n}\n", V1},
		{"1.0 marker", "/- kdl-version 1\nagent \"a\"\n", V1},
		{"2.0 marker", "/- kdl-version 2\nagent \"a\"\n", V2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Read([]byte(tt.src))
			require.NoError(t, err)
			assert.Equal(t, tt.version, doc.Version)
			require.Len(t, doc.Nodes, 1)
			assert.Equal(t, "agent", doc.Nodes[0].Name)
		})
	}
}

func TestReadSameData(t *testing.T) {
	v1, err := Read([]byte("a \"x\" true null 1.5 {\n    b r#\"q\"#\n}\n"))
	require.NoError(t, err)
	v2, err := Read([]byte("a x #true #null 1.5 {\n    b #\"q\"#\n}\n"))
	require.NoError(t, err)
	assert.Equal(t, V1, v1.Version)
	assert.Equal(t, V2, v2.Version)
	assert.Equal(t, dump(v2.Nodes), dump(v1.Nodes))
}

func TestReadErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"2.0 error", "agent \"a\" {\n    hidden #maybe\n}\n", "2:12: unknown keyword #maybe"},
		{"1.0 error in a 1.0 file", "agent \"a\" {\n    hidden true\n    model \"x\" = 1\n}\n", "3:15: KDL 1.0 syntax error"},
		{"mixed", "agent \"a\" {\n    hidden true\n    show-reasoning #false\n}\n",
			"3:20: this file mixes KDL versions: line 2 uses a 1.0 spelling (true is a keyword in KDL 2.0, written #true) and line 3 a 2.0 one (#false is KDL 2.0; KDL 1.0 spells it false)"},
		{"forced 1.0", "/- kdl-version 1\nagent \"a\" {\n    hidden #true\n}\n", "3:12: #true is KDL 2.0; KDL 1.0 spells it true"},
		{"forced 2.0", "/- kdl-version 2\nagent \"a\" {\n    hidden true\n}\n", "3:12: true is a keyword in KDL 2.0"},
		{"unterminated", "agent \"a\" {\n    description \"x\n}\n", "2:17: a quoted string cannot span lines"},
		{"unclosed block", "agent \"a\" {\n    description \"x\"\n", "3:1: the children block is never closed"},
		{"nul byte", "agent \"a\x00\"\n", "1:9: control character U+0000 is not allowed"},
		{"invalid utf-8", "agent \"\xff\"\n", "1:8: the file is not valid UTF-8 here"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read([]byte(tt.src))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestPositionsAndSpans(t *testing.T) {
	src := "// config\nagent \"a\" {\n    tools {\n        allow \"view\" \"grep\"\n    }\n}\n\n(t)agent \"b\"; agent \"c\" x=1\n"
	for _, force := range []string{"", "/- kdl-version 1\n"} {
		doc, err := Read([]byte(force + src))
		require.NoError(t, err, force)
		shift := int32(strings.Count(force, "\n"))
		off := int32(len(force))
		require.Len(t, doc.Nodes, 3)
		a := doc.Nodes[0]
		assert.Equal(t, [2]int32{2 + shift, 1}, [2]int32{a.Line, a.Col})
		allow := a.Children[0].Children[0]
		assert.Equal(t, [2]int32{4 + shift, 9}, [2]int32{allow.Line, allow.Col})
		text := force + src
		assert.Equal(t, "agent \"a\" {\n    tools {\n        allow \"view\" \"grep\"\n    }\n}", text[a.Start:a.End])
		assert.Equal(t, `(t)agent "b"`, text[doc.Nodes[1].Start:doc.Nodes[1].End])
		assert.Equal(t, `agent "c" x=1`, text[doc.Nodes[2].Start:doc.Nodes[2].End])
		assert.Equal(t, off, a.Start-int32(strings.Index(src, "agent")))
	}
	doc, err := Read([]byte("a \"x\" 𝄞 \"y\"\n"))
	require.NoError(t, err)
	assert.Equal(t, int32(9), doc.Nodes[0].Args[2].Col, "columns count characters, not bytes")
}

func TestFormatRoundTrip(t *testing.T) {
	texts := []string{"plain", "with \"quotes\" and \\", "line one\nline two\n\n  indented\n", "tab\tand\u200e direction",
		"ends with quotes\"\"\"#\n", "  \nwhitespace-only line", "#true", "", "a\r\nb"}
	for _, v := range []Version{V1, V2} {
		for _, s := range texts {
			n := &Node{Name: "node name", Args: []Value{{Kind: String, Str: s}, {Kind: Bool, Bool: true}, {Kind: Null}, {Kind: Int, Str: "-12"}},
				Props:    []Prop{{Key: "k", Value: Value{Kind: String, Str: s}}},
				Children: []*Node{{Name: "child", Args: []Value{{Kind: String, Str: s}}}}, Block: true}
			out := Format([]*Node{n}, v)
			doc, err := Read([]byte(out))
			require.NoError(t, err, "%s\n%s", v, out)
			assert.Equal(t, v == V1, doc.Version == V1 || !strings.ContainsAny(out, "#"), out)
			assert.Equal(t, dump([]*Node{n}), dump(doc.Nodes), "%s:\n%s", v, out)
		}
	}
}

func FuzzFormat(f *testing.F) {
	f.Add("x", "y")
	f.Add("multi\nline\n", "  x")
	f.Fuzz(func(t *testing.T, name, text string) {
		if !isText(name) || !isText(text) {
			t.Skip()
		}
		n := &Node{Name: name, Args: []Value{{Kind: String, Str: text}}, Children: []*Node{{Name: text}}, Block: true}
		for _, v := range []Version{V2, V1} {
			out := Format([]*Node{n}, v)
			var doc *Document
			var err error
			if v == V1 {
				var e *Error
				doc, e, _ = parse1([]byte(out))
				if e != nil {
					err = e
				}
			} else {
				var e *Error
				doc, e = parse2(out)
				if e != nil {
					err = e
				}
			}
			if err != nil {
				t.Fatalf("%s: cannot read back %q: %v", v, out, err)
			}
			if got, want := dump(doc.Nodes), dump([]*Node{n}); got != want {
				t.Fatalf("%s: %q read back as\n%s\nwant\n%s", v, out, got, want)
			}
		}
	})
}

// isText keeps the writer's fuzz inputs to strings a document can hold.
func isText(s string) bool {
	for _, r := range s {
		if r == 0xFFFD {
			return false
		}
	}
	return strings.ToValidUTF8(s, "") == s
}

// FuzzParse2 checks the 2.0 reader against an independent one: both
// accept or both reject, and both read the same data. Seeds are the
// official suite.
func FuzzParse2(f *testing.F) {
	inputs, _ := filepath.Glob(filepath.Join(specDir, "input", "*.kdl"))
	for _, in := range inputs {
		src, _ := os.ReadFile(in)
		f.Add(string(src))
	}
	f.Add("n " + strings.Repeat("{ n ", MaxDepth+5) + strings.Repeat("}", MaxDepth+5))
	f.Add("n " + strings.Repeat("(t)\"v\" ", 5000))
	f.Fuzz(func(t *testing.T, src string) {
		ours, err := parse2(src)
		if err != nil && strings.Contains(err.Msg, "nested more than") {
			return // the other reader has no depth limit
		}
		if bad, _ := checkText(src); bad >= 0 {
			// Invalid UTF-8 and disallowed code points (section 3.19):
			// the other reader lets some through.
			if err == nil {
				t.Fatalf("accepted %q", src)
			}
			return
		}
		theirs, terr := other.ParseString(src, other.WithVersion(other.Version2))
		if err != nil && terr == nil && strings.Contains(err.Msg, "-inf is reserved") {
			// The grammar's disallowed keywords list -inf but, as written,
			// only subtract them from identifiers that cannot start with
			// a sign; the other reader takes the letter, this one the intent.
			return
		}
		if err != nil && terr == nil && strings.Contains(err.Msg, "closing quotes") && strings.Contains(src, `\`) {
			return // only literal whitespace may precede closing quotes; the other reader takes escapes too
		}
		if err != nil && terr == nil && (strings.Contains(err.Msg, "must come before children blocks") || strings.Contains(err.Msg, "but none follows")) {
			return // after a block the grammar allows only /- blocks; the other reader takes /- values and a bare /- too
		}
		if err == nil && terr != nil && strings.Contains(terr.Error(), "invalid float literal") {
			return // the other reader cannot hold huge exponents; the syntax is valid
		}
		if err == nil && terr != nil && strings.Contains(terr.Error(), "invalid integer literal") && (strings.Contains(src, "+0") || strings.Contains(src, "-0")) {
			return // the other reader rejects a sign on 0x, 0o and 0b numbers, which the grammar allows
		}
		if err == nil && terr != nil && strings.Contains(terr.Error(), "invalid UTF-8 encoding") && strings.ContainsRune(src, utf8.RuneError) {
			return // the other reader takes a literal U+FFFD, which is valid text, for a decoding error
		}
		if err == nil && terr != nil && strings.Contains(terr.Error(), "invalid surrogate") {
			return // the other reader takes \u{D80} (U+0D80) for a surrogate
		}
		if (err == nil) != (terr == nil) {
			t.Fatalf("disagreement on %q: ours %v, theirs %v", src, err, terr)
		}
		if err != nil {
			if err.Line < 1 || err.Col < 1 {
				t.Fatalf("unlocated error %v for %q", err, src)
			}
			return
		}
		for i, n := range ours.Nodes {
			again, err := parse2NodeAt(src, int(n.Start), n.Line, n.Col)
			if err != nil {
				t.Fatalf("node %d of %q read again: %v", i, src, err)
			}
			if got, want := dump([]*Node{again})+positions(again), dump([]*Node{n})+positions(n); got != want {
				t.Fatalf("node %d of %q read again as\n%s\nnot\n%s", i, src, got, want)
			}
		}
		if strings.Contains(src, `"""`) && strings.ContainsAny(src, "\r\\") {
			// The other reader counts a CRLF in a multi-line string as two
			// lines, and reads escapes before removing the indentation, so
			// an escaped whitespace character counts as indentation.
			return
		}
		if got, want := dump(ours.Nodes), dumpOther(theirs.Nodes); got != want {
			t.Fatalf("%q read as\n%s\nbut the other reader says\n%s", src, got, want)
		}
	})
}

func dumpOther(nodes []*other.Node) string {
	conv := func(v other.Value) Value {
		out := Value{}
		out.Type, out.HasType = v.TypeAnnotation()
		switch v.Kind() {
		case other.String:
			out.Kind, out.Str = String, v.String()
		case other.Bool:
			out.Kind, out.Bool = Bool, v.Bool()
		case other.Null:
			out.Kind = Null
		case other.Int:
			out.Kind, out.Str = Int, big.NewInt(int64(v.Int())).String()
		case other.BigInt:
			out.Kind, out.Str = Int, v.BigInt().String()
		case other.Float, other.BigFloat:
			lit, _ := v.Literal()
			out.Kind, out.Str = Float, strings.ReplaceAll(lit, "_", "")
		}
		return out
	}
	var walk func([]*other.Node) []*Node
	walk = func(ns []*other.Node) []*Node {
		var out []*Node
		for _, n := range ns {
			m := &Node{Name: n.Name()}
			m.Type, m.HasType = n.TypeAnnotation()
			for _, a := range n.Arguments() {
				m.Args = append(m.Args, conv(a))
			}
			keys := make([]string, 0)
			for k := range n.Properties() {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				m.Props = append(m.Props, Prop{Key: k, Value: conv(n.Properties()[k])})
			}
			m.Children = walk(n.Children().Nodes)
			out = append(out, m)
		}
		return out
	}
	return dump(walk(nodes))
}

// Children nested past MaxDepth are refused where they pass it, in both
// versions, before any recursive reader runs out of stack.
func TestDepthLimit(t *testing.T) {
	// Fewer than MaxItems nodes, which 1.0's scanner counts before it looks at depth.
	deep := "n " + strings.Repeat("{ n ", 500_000) + strings.Repeat("}", 500_000)
	for _, src := range []string{deep, "/- kdl-version 1\n" + deep} {
		_, err := Read([]byte(src))
		require.Error(t, err)
		assert.Contains(t, err.Error(), fmt.Sprintf("children are nested more than %d deep", MaxDepth))
	}
	ok := "n " + strings.Repeat("{ n ", MaxDepth) + strings.Repeat("}", MaxDepth)
	_, err := Read([]byte(ok))
	assert.NoError(t, err)
}

// A long line is read in time linear in its length: a megabyte line of
// values took over a minute when every value's column was counted from
// the line's start. It is timed against the same nodes one a line, not
// against a clock, which a loaded machine under the race detector can
// outrun.
func TestLongLineLinear(t *testing.T) {
	line := strings.Repeat(`n (t)"é";`, 200_000)
	start := time.Now()
	doc, err := Read([]byte(line))
	long := time.Since(start)
	require.NoError(t, err)
	require.Len(t, doc.Nodes, 200_000)
	last := doc.Nodes[len(doc.Nodes)-1].Args[0]
	assert.Equal(t, int32(len([]rune(line))-3), last.Col, "columns count characters: the last string starts 4 before the line ends")

	start = time.Now()
	doc, err = Read([]byte(strings.Repeat(`n (t)"é"`+"\n", 200_000)))
	short := time.Since(start)
	require.NoError(t, err)
	require.Len(t, doc.Nodes, 200_000)
	assert.Less(t, long, 4*short+100*time.Millisecond, "one long line (%v) against as many short ones (%v)", long, short)
}

// A node holds at most MaxEntries values and properties, counting those
// commented out, in both versions; the error names the node and the place
// of the first one past the bound.
func TestEntriesLimit(t *testing.T) {
	args := func(n int) string { return strings.Repeat(` "v"`, n) }
	props := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, ` k%d="v"`, i)
		}
		return b.String()
	}
	past := 1 + MaxEntries*4 + 2 // the column of the value past the bound after "n"
	tests := []struct {
		name string
		src  string
		line int // 0: reads
		col  int // 0: not checked
	}{
		{"args at the bound", "n" + args(MaxEntries), 0, 0},
		{"args past it", "n" + args(MaxEntries+1), 1, past},
		{"on a later line", "m\nn" + args(MaxEntries+1), 2, past},
		{"props past it", "n" + props(MaxEntries+1), 1, 0},
		{"mixed past it", "n" + args(MaxEntries/2) + props(MaxEntries/2+1), 1, 0},
		{"commented out count", "n" + args(MaxEntries) + " /-x", 1, past + 2},
		{"over continued lines", "n" + strings.Repeat(args(MaxEntries/4)+" \\\n", 4) + " x", 5, 2},
		{"children have their own", "n" + args(MaxEntries) + " {\n n" + args(MaxEntries) + "\n}", 0, 0},
		{"1.0 at the bound", "/- kdl-version 1\nn" + args(MaxEntries), 0, 0},
		{"1.0 args past it", "/- kdl-version 1\nn" + args(MaxEntries+1), 2, past},
		{"1.0 props past it", "/- kdl-version 1\nn" + props(MaxEntries+1), 2, 0},
		{"1.0 commented out count", "/- kdl-version 1\nn" + args(MaxEntries) + " /-x", 2, past + 2},
		{"1.0 children have their own", "/- kdl-version 1\nn" + args(MaxEntries) + " {\n n" + args(MaxEntries) + "\n}", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkLimit(t, tt.src, fmt.Sprintf(`node "n" has more than %d values and properties`, MaxEntries), tt.line, tt.col)
		})
	}
}

// checkLimit reads src and checks that it reads (line 0) or fails with
// msg at line, and at col unless it is 0.
func checkLimit(t *testing.T, src, msg string, line, col int) {
	t.Helper()
	_, err := Read([]byte(src))
	if line == 0 {
		require.NoError(t, err)
		return
	}
	var ke *Error
	require.ErrorAs(t, err, &ke)
	assert.Equal(t, msg, ke.Msg)
	assert.Equal(t, line, ke.Line)
	if col > 0 {
		assert.Equal(t, col, ke.Col)
	}
}

// A node far past MaxEntries is refused before its entries are stored:
// reading 4 million values (an 8 MB line) takes a part of the memory that
// keeping them would, 256 MB for the values alone.
func TestEntriesLimitMemory(t *testing.T) {
	src := "n" + strings.Repeat(" 1", 4_000_000)
	for _, v := range []string{"", "/- kdl-version 1\n"} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Read([]byte(v + src))
		runtime.ReadMemStats(&after)
		require.Error(t, err)
		assert.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(128<<20), "version marker %q", v)
	}
}

// A document holds at most MaxItems nodes, values and properties, counting
// those commented out (the version marker is a node and a value), in both
// versions; the error names the place of the first one past the bound.
func TestItemsLimit(t *testing.T) {
	nodes := func(n int) string { return strings.Repeat("n;", n) }
	tests := []struct {
		name string
		src  string
		line int // 0: reads
		col  int
	}{
		{"nodes at the bound", nodes(MaxItems), 0, 0},
		{"nodes past it", nodes(MaxItems) + "\nn", 2, 1},
		{"children count", "n {\n" + nodes(MaxItems-1) + "\nn\n}", 3, 1},
		{"values count", "m" + strings.Repeat(" 1", MaxEntries) + "\n" + nodes(MaxItems-MaxEntries-1) + "\nn", 3, 1},
		{"commented out count", nodes(MaxItems) + "\n/-n", 2, 3},
		{"1.0 nodes at the bound", "/- kdl-version 1\n" + nodes(MaxItems-2), 0, 0},
		{"1.0 nodes past it", "/- kdl-version 1\n" + nodes(MaxItems-2) + "\nn", 3, 1},
		{"1.0 values count", "/- kdl-version 1\nm" + strings.Repeat(" 1", MaxEntries) + "\n" + nodes(MaxItems-MaxEntries-3) + "\nn", 4, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkLimit(t, tt.src, fmt.Sprintf("this file has more than %d nodes, values and properties", MaxItems), tt.line, tt.col)
		})
	}
}

// A KDL 1.0 raw string's hashes are read in time linear in their number:
// a 300 KB run of them took minutes when each was counted from the
// opening r again, and a copy of the closing was made at every character
// inside. Timed against as many short raw strings, not a clock.
func TestRawHashesLinear(t *testing.T) {
	const n = 200_000
	long := "n r" + strings.Repeat("#", n) + `"x"` + strings.Repeat("#", n) + "\n"
	start := time.Now()
	doc, err := Read([]byte("/- kdl-version 1\n" + long))
	longTime := time.Since(start)
	require.NoError(t, err)
	require.Len(t, doc.Nodes, 1)
	assert.Equal(t, "x", doc.Nodes[0].Args[0].Str)

	start = time.Now()
	_, err = Read([]byte("/- kdl-version 1\n" + strings.Repeat(`n r#"x"#`+"\n", n/4)))
	shortTime := time.Since(start)
	require.NoError(t, err)
	assert.Less(t, longTime, 4*shortTime+100*time.Millisecond, "one long raw string (%v) against many short ones (%v)", longTime, shortTime)

	// Unclosed, the run is an error naming the string, as before.
	_, err = Read([]byte("/- kdl-version 1\nn r" + strings.Repeat("#", n) + " x\n"))
	require.Error(t, err)
}
