package kdl

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// kdl-go's document tree has no positions and its syntax errors are vague
// about KDL 2.0 spellings (and `"""` is silently mis-parsed). scan1 is a
// small KDL 1.0 lexer run before kdl-go: it reports 2.0 spellings, and
// records the position of every node kdl-go will keep, in document order,
// and the byte span of every top-level node.

type tokKind uint8

const (
	tWord tokKind = iota
	tString
	tLBrace
	tRBrace
	tSemi
	tNewline
	tEq
	tSlashdash
	tType
)

type token struct {
	kind       tokKind
	start, end int // byte offsets
	line, col  int32
}

// lineCol is a 1-based position in the file being scanned.
type lineCol struct{ line, col int32 }

type kdlScan struct {
	nodes []lineCol // positions of nodes kdl-go keeps, pre-order
	// spans are the byte spans of the top-level nodes kdl-go keeps.
	spans    [][2]int32
	v2       []*Error // KDL 2.0 spellings
	problems []*Error // unclosed strings and comments
	// splits are places where the document may be cut into independent
	// pieces: the start of a line holding only a top-level node's start.
	splits []split
}

type split struct {
	offset int // byte offset of the line start
	line   int // 1-based line number of that line
}

type lexer struct {
	src        []byte
	off        int
	line, col  int
	toks       []token
	unfinished bool
	openLine   int // where the unterminated string or comment starts
	openCol    int
	openWhat   string
	// words counts the bare words and strings since the last node
	// terminator, less one per '=': the node's name and entries. first
	// is the first of them, the node's name.
	words int
	first token
	// items counts the same over the whole document, for MaxItems.
	items   int
	tooMany *Error // set when a node passes MaxEntries or the document MaxItems; lexing stops
}

func isKDLSpace(r rune) bool {
	switch r {
	case ' ', '\t', '\u00A0', '\u1680', '\u202F', '\u205F', '\u3000', '\uFEFF':
		return true
	}
	return r >= '\u2000' && r <= '\u200A'
}

func isKDLNewline(r rune) bool {
	switch r {
	case '\n', '\r', '\u0085', '\u000C', '\u2028', '\u2029':
		return true
	}
	return false
}

// asciiWordEnd marks the ASCII characters that end a bare word.
var asciiWordEnd = func() (t [128]bool) {
	for _, c := range " \t\n\r\f\\/(){}<>;[]=,\"" {
		t[c] = true
	}
	return t
}()

func isWordEnd(r rune) bool {
	if r < 128 {
		return r < 0 || asciiWordEnd[r]
	}
	return isKDLSpace(r) || isKDLNewline(r)
}

func (l *lexer) peek(n int) rune {
	if n == 0 && l.off < len(l.src) && l.src[l.off] < utf8.RuneSelf {
		return rune(l.src[l.off])
	}
	off := l.off
	var r rune
	for i := 0; i <= n; i++ {
		if off >= len(l.src) {
			return -1
		}
		var size int
		r, size = utf8.DecodeRune(l.src[off:])
		off += size
	}
	return r
}

func (l *lexer) next() rune {
	if l.off >= len(l.src) {
		return -1
	}
	r, size := rune(l.src[l.off]), 1
	if r >= utf8.RuneSelf {
		r, size = utf8.DecodeRune(l.src[l.off:])
	}
	l.off += size
	if r == '\r' && l.off < len(l.src) && l.src[l.off] == '\n' {
		l.off++
	}
	if isKDLNewline(r) {
		l.line++
		l.col = 1
	} else {
		l.col++
	}
	return r
}

func (l *lexer) emit(kind tokKind, start, line, col int) {
	t := token{kind: kind, start: start, end: l.off, line: int32(line), col: int32(col)}
	switch kind {
	case tNewline, tSemi, tLBrace, tRBrace:
		l.words = 0
	case tEq:
		l.words--
		l.items--
	case tWord, tString:
		if l.words == 0 {
			l.first = t
		}
		// Checked here, before the tokens of a long node pile up.
		if l.words++; l.words > MaxEntries+1 {
			l.tooMany = tooManyEntries(V1, line, col, strings.Trim(string(l.src[l.first.start:l.first.end]), `"`))
		}
		if l.items++; l.items > MaxItems {
			l.tooMany = tooManyItems(V1, line, col)
		}
	}
	l.toks = append(l.toks, t)
}

func (l *lexer) skipBlockComment() {
	depth := 1
	for depth > 0 {
		switch r := l.next(); {
		case r < 0:
			l.unfinished = true
			return
		case r == '/' && l.peek(0) == '*':
			l.next()
			depth++
		case r == '*' && l.peek(0) == '/':
			l.next()
			depth--
		}
	}
}

func (l *lexer) skipLine() {
	for r := l.peek(0); r >= 0 && !isKDLNewline(r); r = l.peek(0) {
		l.next()
	}
}

func (l *lexer) lexQuoted() {
	for {
		switch r := l.next(); r {
		case -1:
			l.unfinished = true
			return
		case '\\':
			l.next()
		case '"':
			return
		}
	}
}

func (l *lexer) lexRaw(hashes int) {
	closing := []byte("\"" + strings.Repeat("#", hashes))
	for {
		if l.off >= len(l.src) {
			l.unfinished = true
			return
		}
		// Compared in place: a copy of the closing's length at every
		// character made a long run of hashes quadratic.
		if bytes.HasPrefix(l.src[l.off:], closing) {
			for range closing {
				l.next()
			}
			return
		}
		l.next()
	}
}

// rawStart reports whether the input at the cursor opens a raw string
// (r"…" or r#…#"…"#…#) and how many hashes it uses. The hashes are
// counted in the bytes ('#' is one byte), not by peek(n), which decodes
// n characters each time: a 300 KB run of them took minutes.
func (l *lexer) rawStart() (int, bool) {
	if l.peek(0) != 'r' {
		return 0, false
	}
	rest := l.src[l.off+1:]
	n := len(rest) - len(bytes.TrimLeft(rest, "#"))
	return n, n < len(rest) && rest[n] == '"'
}

func (l *lexer) run() {
	if strings.HasPrefix(string(l.src[:min(3, len(l.src))]), "\uFEFF") {
		l.off = 3
	}
	for l.off < len(l.src) && !l.unfinished && l.tooMany == nil {
		start, line, col := l.off, l.line, l.col
		l.openLine, l.openCol = line, col
		r := l.peek(0)
		switch {
		case isKDLSpace(r):
			l.next()
		case isKDLNewline(r):
			l.next()
			l.emit(tNewline, start, line, col)
		case r == '/' && l.peek(1) == '/':
			l.skipLine()
		case r == '/' && l.peek(1) == '*':
			l.next()
			l.next()
			l.openWhat = "/* comment"
			l.skipBlockComment()
		case r == '/' && l.peek(1) == '-':
			l.next()
			l.next()
			l.emit(tSlashdash, start, line, col)
		case r == '\\':
			// Line continuation: the escaped newline is not a terminator.
			l.next()
			for p := l.peek(0); p >= 0 && isKDLSpace(p); p = l.peek(0) {
				l.next()
			}
			if l.peek(0) == '/' && l.peek(1) == '/' {
				l.skipLine()
			}
			if isKDLNewline(l.peek(0)) {
				l.next()
			}
		case r == '"':
			l.next()
			l.openWhat = "string"
			l.lexQuoted()
			l.emit(tString, start, line, col)
		case r == '{' || r == '}' || r == ';' || r == '=':
			l.next()
			l.emit(punctuation[r], start, line, col)
		case r == '(':
			for p := l.next(); p >= 0 && p != ')'; p = l.next() {
			}
			l.emit(tType, start, line, col)
		default:
			if hashes, ok := l.rawStart(); ok {
				for i := 0; i < hashes+2; i++ {
					l.next()
				}
				l.openWhat = "raw string"
				l.lexRaw(hashes)
				l.emit(tString, start, line, col)
				continue
			}
			l.next()
			for p := l.peek(0); p >= 0 && !isWordEnd(p); p = l.peek(0) {
				l.next()
			}
			l.emit(tWord, start, line, col)
		}
	}
}

var punctuation = map[rune]tokKind{'{': tLBrace, '}': tRBrace, ';': tSemi, '=': tEq}

func isKDL1Literal(w []byte) bool {
	switch string(w) {
	case "true", "false", "null":
		return true
	}
	for len(w) > 0 && (w[0] == '+' || w[0] == '-') {
		w = w[1:]
	}
	return len(w) > 0 && w[0] >= '0' && w[0] <= '9'
}

func scan1(src []byte) (res kdlScan) {
	l := &lexer{src: src, line: 1, col: 1, toks: make([]token, 0, len(src)/6)}
	res.nodes = make([]lineCol, 0, len(src)/24)
	text := func(t token) string { return string(src[t.start:t.end]) }
	l.run()
	if l.tooMany != nil {
		res.problems = []*Error{l.tooMany}
		return res
	}
	spelling := func(t token, msg, hint string) {
		res.v2 = append(res.v2, &Error{Version: V1, Line: int(t.line), Col: int(t.col), Msg: msg, Hint: hint})
	}
	// checkValue flags values written the KDL 2.0 way; it returns how many
	// tokens the value used.
	checkValue := func(i int, node func() string) int {
		t := l.toks[i]
		if t.kind == tWord && isKDL1Literal(src[t.start:t.end]) {
			return 1
		}
		if t.kind == tString && t.end-t.start != 2 {
			return 1
		}
		tt := text(t)
		switch {
		case t.kind == tWord && strings.HasPrefix(tt, "#") && strings.Trim(tt, "#") == "" &&
			i+1 < len(l.toks) && l.toks[i+1].kind == tString && l.toks[i+1].start == t.end:
			spelling(t, "#\"…\"# is a KDL 2.0 raw string; KDL 1.0 writes r#\"…\"#", `write r#"text"#`)
			return 2
		case t.kind == tWord && strings.HasPrefix(tt, "#"):
			fix := strings.TrimPrefix(tt, "#")
			if fix == "true" || fix == "false" || fix == "null" {
				spelling(t, fmt.Sprintf("%s is KDL 2.0; KDL 1.0 spells it %s", tt, fix), fmt.Sprintf("write %s %s", node(), fix))
			} else {
				spelling(t, fmt.Sprintf("%s is KDL 2.0; KDL 1.0 has no such value", tt), "")
			}
		case t.kind == tWord:
			spelling(t, fmt.Sprintf("the unquoted string %s is KDL 2.0; KDL 1.0 needs quotes", tt),
				fmt.Sprintf("write %s %q", node(), tt))
		case t.kind == tString && tt == `""` && i+1 < len(l.toks) && l.toks[i+1].kind == tString && l.toks[i+1].start == t.end:
			spelling(t, `""" multi-line strings are KDL 2.0; KDL 1.0 has none`,
				`use a raw string r#"…"#, which keeps new lines as written, or "\n" escapes`)
			n := 1
			for i+n < len(l.toks) && l.toks[i+n].kind == tString && l.toks[i+n].start == l.toks[i+n-1].end {
				n++
			}
			return n
		}
		return 1
	}

	type frame struct{ skipped bool }
	frames := []frame{{}}
	inNode, skipNext, skipItem, nodeSkipped := false, false, false, false
	var nodeTok token
	node := func() string { return strings.Trim(text(nodeTok), `"`) }
	// The top-level node being read, for its span.
	topOpen, typeStart := false, -1
	var topStart, topEnd int
	closeTop := func() {
		if topOpen {
			res.spans = append(res.spans, [2]int32{int32(topStart), int32(topEnd)})
			topOpen = false
		}
	}
	for i := 0; i < len(l.toks); i++ {
		t := l.toks[i]
		top := frames[len(frames)-1]
		if topOpen && t.kind != tNewline && t.kind != tSemi {
			topEnd = t.end
		}
		if !inNode {
			if len(frames) == 1 && (t.kind == tSlashdash || t.kind == tWord || t.kind == tString || t.kind == tType) && !skipNext &&
				(i == 0 || l.toks[i-1].kind == tNewline) {
				res.splits = append(res.splits, split{offset: t.start - int(t.col-1), line: int(t.line)})
			}
			switch t.kind {
			case tSlashdash:
				skipNext = true
			case tType:
				if len(frames) == 1 {
					typeStart = t.start
				}
			case tRBrace:
				if len(frames) > 1 {
					frames = frames[:len(frames)-1]
				}
				if len(frames) == 1 {
					closeTop()
				}
			case tWord, tString:
				nodeSkipped = top.skipped || skipNext
				skipNext, inNode, nodeTok = false, true, t
				if !nodeSkipped {
					res.nodes = append(res.nodes, lineCol{t.line, t.col})
					if len(frames) == 1 {
						topOpen, topStart, topEnd = true, t.start, t.end
						if typeStart >= 0 {
							topStart = typeStart
						}
					}
				}
				typeStart = -1
			}
			continue
		}
		switch t.kind {
		case tNewline, tSemi:
			inNode = false
			if len(frames) == 1 {
				closeTop()
			}
		case tSlashdash:
			skipItem = true
		case tLBrace:
			frames = append(frames, frame{skipped: nodeSkipped || skipItem})
			skipItem, inNode = false, false
		case tRBrace:
			spelling(t, "a '}' right after a value is KDL 2.0; KDL 1.0 needs ';' or a new line before it",
				"write `tools { allow \"x\"; }` or put '}' on its own line")
			inNode = false
			if len(frames) > 1 {
				frames = frames[:len(frames)-1]
			}
			if len(frames) == 1 {
				closeTop()
			}
		case tWord, tString:
			if i+1 < len(l.toks) && l.toks[i+1].kind == tEq {
				i++ // property key; its value is checked next
				if i+1 < len(l.toks) {
					i += checkValue(i+1, node) - 1
					i++
					if topOpen {
						topEnd = l.toks[i].end
					}
				}
			} else {
				i += checkValue(i, node) - 1
				if topOpen {
					topEnd = l.toks[i].end
				}
			}
			skipItem = false
		}
	}
	closeTop()
	// kdl-go reads children by recursion: a deep file would overflow
	// its stack, so depth is checked here first.
	depth := 0
	for _, t := range l.toks {
		switch t.kind {
		case tLBrace:
			if depth++; depth > MaxDepth {
				res.problems = append(res.problems, &Error{Version: V1, Line: int(t.line), Col: int(t.col),
					Msg: fmt.Sprintf("children are nested more than %d deep", MaxDepth), Hint: "a config.kdl nests a few levels; flatten this block"})
			}
		case tRBrace:
			depth--
		}
		if len(res.problems) > 0 {
			break
		}
	}
	if l.unfinished {
		res.nodes = nil
		res.problems = append(res.problems, &Error{Version: V1, Line: l.openLine, Col: l.openCol,
			Msg: fmt.Sprintf("this %s is never closed", l.openWhat)})
	}
	return res
}
