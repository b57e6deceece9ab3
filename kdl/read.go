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
	// Both versions: control and direction-control characters in a
	// configuration file are a mistake or an attack, never content.
	text := string(src)
	if bad, msg := checkText(text); bad >= 0 {
		line, col := position(text, bad)
		return nil, &Error{Version: V2, Line: line, Col: col, Msg: msg}
	}
	switch MarkedVersion(src) {
	case V1:
		doc, err, _ := parse1(src)
		if err != nil {
			return nil, err
		}
		return doc, nil
	case V2:
		doc, err := parse2Checked(text)
		if err != nil {
			return nil, err
		}
		return doc, nil
	}
	doc, err2 := parse2Checked(text)
	if err2 == nil {
		return doc, nil
	}
	doc1, err1, spellings2 := parse1(src)
	if err1 == nil {
		return doc1, nil
	}
	legacy := err2.legacy
	switch {
	case legacy && len(spellings2) > 0:
		old, new := err2, spellings2[0]
		return nil, &Error{Version: V2, Line: new.Line, Col: new.Col,
			Msg: fmt.Sprintf("this file mixes KDL versions: line %d uses a 1.0 spelling (%s) and line %d a 2.0 one (%s)",
				old.Line, old.Msg, new.Line, new.Msg),
			Hint: "write the whole file in one version; bn writes KDL 2.0 (#true, #\"raw\"#), and /- kdl-version 1 on the first line forces 1.0"}
	case legacy:
		return nil, err1
	}
	return nil, err2
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
