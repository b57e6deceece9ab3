package kdl

import (
	"fmt"
	"strings"
	"unsafe"
)

// Read parses a KDL document; its strings share src's memory, which must
// not be modified afterwards. Without a version marker it reads KDL 2.0
// and falls back to 1.0. When neither reads, the error is given in the
// version the file is written in: 1.0 when the 2.0 reader stopped at a
// 1.0-only spelling, else 2.0; a file with spellings of both gets an error
// naming one of each.
func Read(src []byte) (*Document, error) {
	var nodes []*Node
	v, _, err := readEach(src, 1, func(Version) { nodes = nodes[:0] }, func(_ int, n *Node) { nodes = append(nodes, n) }, false)
	if err != nil {
		return nil, err
	}
	return &Document{Version: v, Nodes: nodes}, nil
}

// ReadEach reads a document as Read does, handing each top-level node to
// each as soon as it is read, so a caller that decodes as it goes never
// holds the whole tree. A node and everything in it is valid only until
// each returns: the next node may reuse its memory (the strings stay
// valid). begin is called before each attempt, with the version tried:
// when the 2.0 reading fails part way and the file is read as 1.0, the
// caller starts again.
//
// A large KDL 2.0 document is read in up to parts pieces side by side,
// each on its own goroutine, which calls each with the piece's number.
// The pieces are a guess at where nodes begin that is checked as they are
// read: the nodes of some pieces are to be dropped. ReadEach returns the
// pieces whose nodes make up the document, in order; the nodes within a
// piece come in order.
func ReadEach(src []byte, parts int, begin func(Version), each func(part int, n *Node)) (Version, []int, error) {
	return readEach(src, parts, begin, each, true)
}

func readEach(src []byte, parts int, begin func(Version), each func(int, *Node), reuse bool) (Version, []int, error) {
	// The strings handed out share src's memory rather than copying a file
	// that may be megabytes: src must not be modified afterwards.
	text := unsafe.String(unsafe.SliceData(src), len(src))
	// Both versions: control and direction-control characters in a
	// configuration file are a mistake or an attack, never content.
	if bad, msg := checkText(text); bad >= 0 {
		line, col := position(text, bad)
		return 0, nil, &Error{Version: V2, Line: line, Col: col, Msg: msg}
	}
	read1 := func() (*Error, []*Error) {
		begin(V1)
		doc, err, spellings2 := parse1(src)
		if err != nil {
			return err, spellings2
		}
		for _, n := range doc.Nodes {
			each(0, n)
		}
		return nil, nil
	}
	read2 := func() ([]int, *Error) {
		begin(V2)
		return parse2Parts(text, partStarts(text, parts), each, reuse)
	}
	whole := []int{0}
	switch MarkedVersion(src) {
	case V1:
		if err, _ := read1(); err != nil {
			return 0, nil, err
		}
		return V1, whole, nil
	case V2:
		used, err := read2()
		if err != nil {
			return 0, nil, err
		}
		return V2, used, nil
	}
	used, err2 := read2()
	if err2 == nil {
		return V2, used, nil
	}
	err1, spellings2 := read1()
	if err1 == nil {
		return V1, whole, nil
	}
	legacy := err2.legacy
	switch {
	case legacy && len(spellings2) > 0:
		old, new := err2, spellings2[0]
		return 0, nil, &Error{Version: V2, Line: new.Line, Col: new.Col,
			Msg: fmt.Sprintf("this file mixes KDL versions: line %d uses a 1.0 spelling (%s) and line %d a 2.0 one (%s)",
				old.Line, old.Msg, new.Line, new.Msg),
			Hint: "write the whole file in one version; bn writes KDL 2.0 (#true, #\"raw\"#), and /- kdl-version 1 on the first line forces 1.0"}
	case legacy:
		return 0, nil, err1
	}
	return 0, nil, err2
}

// ReadNodeAt reads again the top-level node of a KDL 2.0 document that an
// earlier Read or ReadEach of src found, given its Start, Line and Col. A
// caller can so keep a large file's nodes as offsets and read each one
// only when it needs it. src must be unchanged since; the node's strings
// share its memory.
func ReadNodeAt(src []byte, start, line, col int32) (*Node, error) {
	if start < 0 || int(start) >= len(src) || line < 1 || col < 1 || int(col-1) > int(start) {
		return nil, fmt.Errorf("no node can start at byte %d, line %d, column %d of a %d-byte document", start, line, col, len(src))
	}
	n, err := parse2NodeAt(unsafe.String(unsafe.SliceData(src), len(src)), int(start), line, col)
	if err != nil {
		return nil, err
	}
	return n, nil
}

// MarkedVersion returns the version a leading `/- kdl-version N` line
// names, or 0.
func MarkedVersion(src []byte) Version {
	s := strings.TrimPrefix(string(src[:min(len(src), 64)]), "\uFEFF")
	s = strings.TrimLeft(s, " \t\r\n")
	rest, ok := strings.CutPrefix(s, "/-")
	if !ok {
		return 0
	}
	fields := strings.Fields(strings.SplitN(rest, "\n", 2)[0])
	if len(fields) == 2 && fields[0] == "kdl-version" {
		switch fields[1] {
		case "1":
			return V1
		case "2":
			return V2
		}
	}
	return 0
}
