package kdl

import (
	"fmt"
	"strings"
)

// Read parses a KDL document. Without a version marker it reads KDL 2.0
// and falls back to 1.0. When neither reads, the error is given in the
// version the file is written in: 1.0 when the 2.0 reader stopped at a
// 1.0-only spelling, else 2.0; a file with spellings of both gets an error
// naming one of each.
func Read(src []byte) (*Document, error) {
	var nodes []*Node
	v, err := readEach(string(src), func(Version) { nodes = nodes[:0] }, func(n *Node) { nodes = append(nodes, n) }, false)
	if err != nil {
		return nil, err
	}
	return &Document{Version: v, Nodes: nodes}, nil
}

// ReadEach reads a document as Read does, handing each top-level node to
// each as soon as it is read; the nodes' strings share text's memory, so a caller that decodes as it goes never
// holds the whole tree. A node and everything in it is valid only until
// each returns: the next node may reuse its memory (the strings stay
// valid). begin is called before each attempt, with the version tried:
// when the 2.0 reading fails part way and the file is read as 1.0, the
// caller starts again.
func ReadEach(text string, begin func(Version), each func(n *Node)) (Version, error) {
	return readEach(text, begin, each, true)
}

func readEach(text string, begin func(Version), each func(*Node), reuse bool) (Version, error) {
	// Both versions: control and direction-control characters in a
	// configuration file are a mistake or an attack, never content.
	if bad, msg := checkText(text); bad >= 0 {
		line, col := position(text, bad)
		return 0, &Error{Version: V2, Line: line, Col: col, Msg: msg}
	}
	read1 := func() (*Error, []*Error) {
		begin(V1)
		doc, err, spellings2 := parse1([]byte(text))
		if err != nil {
			return err, spellings2
		}
		for _, n := range doc.Nodes {
			each(n)
		}
		return nil, nil
	}
	read2 := func() *Error {
		begin(V2)
		return parse2Each(text, each, reuse)
	}
	switch MarkedVersion(text) {
	case V1:
		if err, _ := read1(); err != nil {
			return 0, err
		}
		return V1, nil
	case V2:
		if err := read2(); err != nil {
			return 0, err
		}
		return V2, nil
	}
	err2 := read2()
	if err2 == nil {
		return V2, nil
	}
	err1, spellings2 := read1()
	if err1 == nil {
		return V1, nil
	}
	legacy := err2.legacy
	switch {
	case legacy && len(spellings2) > 0:
		old, new := err2, spellings2[0]
		return 0, &Error{Version: V2, Line: new.Line, Col: new.Col,
			Msg: fmt.Sprintf("this file mixes KDL versions: line %d uses a 1.0 spelling (%s) and line %d a 2.0 one (%s)",
				old.Line, old.Msg, new.Line, new.Msg),
			Hint: "write the whole file in one version; bn writes KDL 2.0 (#true, #\"raw\"#), and /- kdl-version 1 on the first line forces 1.0"}
	case legacy:
		return 0, err1
	}
	return 0, err2
}

// ReadNodeAt reads again the top-level node of a KDL 2.0 document that an
// earlier Read or ReadEach of text found, given its Start, Line and Col. A
// caller can so keep a large file's nodes as offsets and read each one
// only when it needs it. The node's strings share text's memory.
func ReadNodeAt(text string, start, line, col int32) (*Node, error) {
	if start < 0 || int(start) >= len(text) || line < 1 || col < 1 || int(col-1) > int(start) {
		return nil, fmt.Errorf("no node can start at byte %d, line %d, column %d of a %d-byte document", start, line, col, len(text))
	}
	n, err := parse2NodeAt(text, int(start), line, col)
	if err != nil {
		return nil, err
	}
	return n, nil
}

// MarkedVersion returns the version a leading `/- kdl-version N` line
// names, or 0.
func MarkedVersion(text string) Version {
	s := strings.TrimPrefix(text[:min(len(text), 64)], "\uFEFF")
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
