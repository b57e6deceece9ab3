package kdl

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// parse2 reads src as KDL 2.0. It stops at the first error.
func parse2(src string) (doc *Document, err *Error) {
	if bad, msg := checkText(src); bad >= 0 {
		line, col := position(src, bad)
		return nil, &Error{Version: V2, Line: line, Col: col, Msg: msg}
	}
	return parse2Checked(src)
}

// parse2Checked is parse2 for text checkText has passed.
func parse2Checked(src string) (doc *Document, err *Error) {
	p := &parser{s: src, line: 1}
	defer catch(&err)
	p.skipBOM()
	return &Document{Version: V2, Nodes: p.nodes(false, true)}, nil
}

func (p *parser) skipBOM() {
	if strings.HasPrefix(p.s, "\uFEFF") {
		p.off = 3
		p.lineStart = 3
	}
}

// parse2Each reads text checkText has passed, handing each top-level node
// to each as soon as it is read. With reuse, a node is valid only until
// each returns.
func parse2Each(src string, each func(*Node), reuse bool) (err *Error) {
	p := &parser{s: src, line: 1, each: each, reuse: reuse}
	p.skipBOM()
	defer catch(&err)
	p.nodes(false, true)
	return nil
}

// parse2NodeAt reads the top-level node that starts at byte offset start,
// on the given 1-based line and column, of text parse2 has read before.
func parse2NodeAt(src string, start int, line, col int32) (n *Node, err *Error) {
	p := &parser{s: src, off: start, line: line, lineStart: start}
	for range col - 1 {
		_, size := utf8.DecodeLastRuneInString(src[:p.lineStart])
		p.lineStart -= size
	}
	defer catch(&err)
	return p.node(false, true), nil
}

// catch turns the *Error a parser panics with into err.
func catch(err **Error) {
	if r := recover(); r != nil {
		e, ok := r.(*Error)
		if !ok {
			panic(r)
		}
		*err = e
	}
}

type parser struct {
	s         string
	off       int
	line      int32
	lineStart int
	// colLineStart, colOff and colRunes remember the last column here
	// counted: colRunes characters from colLineStart to colOff.
	colLineStart, colOff, colRunes int
	depth                          int // children blocks open
	items                          int // nodes and entries read, for MaxItems
	// each, when set, receives every top-level node as soon as it is read
	// instead of the document keeping it.
	each func(*Node)
	// reuse lets the memory of a node handed to each hold the next one.
	reuse bool

	// Nodes, values and child lists are carved out of shared chunks
	// rather than allocated one by one: a config.kdl of 10,000 agents is
	// 100,000 nodes. A node's Args, Props and Children are slices of
	// vals, props and kids that are never written again (until a reuse);
	// a full chunk is replaced, not grown, so earlier slices stay put.
	nodeArena arena[Node]
	vals      []Value
	props     []Prop
	kids      []*Node
	stack     []*Node // the children of the open blocks, innermost last
}

// arena hands out zeroed values from chunks.
type arena[T any] struct {
	chunks [][]T
	cur    int // the chunk being filled
}

const (
	arenaChunk = 256  // nodes
	valueChunk = 1024 // values, child pointers
)

func (a *arena[T]) new() *T {
	for a.cur < len(a.chunks) && len(a.chunks[a.cur]) == cap(a.chunks[a.cur]) {
		a.cur++
	}
	if a.cur == len(a.chunks) {
		last := 0
		if a.cur > 0 {
			last = cap(a.chunks[a.cur-1])
		}
		a.chunks = append(a.chunks, make([]T, 0, nextChunk(arenaChunk, last)))
	}
	c := a.chunks[a.cur][:len(a.chunks[a.cur])+1]
	a.chunks[a.cur] = c
	v := &c[len(c)-1]
	var zero T
	*v = zero
	return v
}

// nextChunk is the size of the chunk after one of size last (0 for the
// first): chunks double from small to full, so a small file costs little.
func nextChunk(full, last int) int {
	return min(full, max(full>>4, 2*last))
}

// reset makes every value handed out available again.
func (a *arena[T]) reset() {
	for i := range a.chunks {
		a.chunks[i] = a.chunks[i][:0]
	}
	a.cur = 0
}

// recycle lets the next top-level node use the storage of the last one,
// which its reader no longer holds.
func (p *parser) recycle() {
	p.nodeArena.reset()
	p.vals, p.props, p.kids = p.vals[:0], p.props[:0], p.kids[:0]
}

// mark is a place the parser can go back to.
type mark struct {
	off, lineStart int
	line           int32
}

func (p *parser) save() mark     { return mark{p.off, p.lineStart, p.line} }
func (p *parser) restore(m mark) { p.off, p.lineStart, p.line = m.off, m.lineStart, m.line }

// here is the 1-based line and column of the cursor; columns count
// characters.
func (p *parser) here() (int32, int32) {
	// Count on from the last place asked for on this line: counting from
	// the line's start each time made a long line quadratic.
	if p.colLineStart != p.lineStart || p.colOff > p.off || p.colOff < p.lineStart {
		p.colLineStart, p.colOff, p.colRunes = p.lineStart, p.lineStart, 0
	}
	p.colRunes += utf8.RuneCountInString(p.s[p.colOff:p.off])
	p.colOff = p.off
	return p.line, int32(p.colRunes) + 1
}

// failAt stops parsing with an error at byte offset off.
func (p *parser) failAt(off int, msg, hint string) {
	line, col := position(p.s, off)
	panic(&Error{Version: V2, Line: line, Col: col, Msg: msg, Hint: hint})
}

func (p *parser) fail(msg, hint string) { p.failAt(p.off, msg, hint) }

// failLegacy reports a KDL 1.0 spelling and remembers it.
func (p *parser) failLegacy(off int, msg, hint string) {
	line, col := position(p.s, off)
	panic(&Error{Version: V2, Line: line, Col: col, Msg: msg, Hint: hint, legacy: true})
}

// position computes the 1-based line and column of a byte offset.
func position(s string, off int) (int, int) {
	line, start := 1, 0
	for i := 0; i < off && i < len(s); {
		n := newlineLen(s, i)
		if n > 0 {
			i += n
			line++
			start = i
			continue
		}
		i++
	}
	if off > len(s) {
		off = len(s)
	}
	return line, utf8.RuneCountInString(s[start:off]) + 1
}

// newlineLen returns the byte length of the newline starting at s[i], or 0.
func newlineLen(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	c := s[i]
	if c < utf8.RuneSelf {
		if ascii[c]&cNewline == 0 {
			return 0
		}
		if c == '\r' && i+1 < len(s) && s[i+1] == '\n' {
			return 2
		}
		return 1
	}
	if c != 0xC2 && c != 0xE2 {
		return 0
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if isNewlineRune(r) {
		return size
	}
	return 0
}

// spaceLen returns the byte length of the unicode-space at s[i], or 0.
func spaceLen(s string, i int) int {
	if i >= len(s) {
		return 0
	}
	c := s[i]
	if c < utf8.RuneSelf {
		if c == ' ' || c == '\t' {
			return 1
		}
		return 0
	}
	if c != 0xC2 && c != 0xE1 && c != 0xE2 && c != 0xE3 {
		return 0
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	if isUnicodeSpace(r) {
		return size
	}
	return 0
}

func (p *parser) newline(n int) {
	p.off += n
	p.line++
	p.lineStart = p.off
}

func (p *parser) eof() bool { return p.off >= len(p.s) }

func (p *parser) peekByte(ahead int) byte {
	if p.off+ahead < len(p.s) {
		return p.s[p.off+ahead]
	}
	return 0
}

// skipBlockComment skips a /* … */ comment, which may nest.
func (p *parser) skipBlockComment() {
	start := p.off
	p.off += 2
	depth := 1
	for depth > 0 {
		if p.eof() {
			p.failAt(start, "this /* comment is never closed", "end it with */")
		}
		switch c := p.s[p.off]; {
		case c == '*' && p.peekByte(1) == '/':
			p.off += 2
			depth--
		case c == '/' && p.peekByte(1) == '*':
			p.off += 2
			depth++
		default:
			if n := newlineLen(p.s, p.off); n > 0 {
				p.newline(n)
			} else {
				p.off++
			}
		}
	}
}

// skipLineComment skips // to the end of the line and the newline.
func (p *parser) skipLineComment() {
	for !p.eof() {
		if n := newlineLen(p.s, p.off); n > 0 {
			p.newline(n)
			return
		}
		p.off++
	}
}

// escline skips a line continuation: \ ws* (// comment | newline | eof).
func (p *parser) escline() {
	start := p.off
	p.off++
	for !p.eof() {
		if n := spaceLen(p.s, p.off); n > 0 {
			p.off += n
			continue
		}
		if p.s[p.off] == '/' && p.peekByte(1) == '*' {
			p.skipBlockComment()
			continue
		}
		break
	}
	switch {
	case p.eof():
	case p.s[p.off] == '/' && p.peekByte(1) == '/':
		p.skipLineComment()
	default:
		n := newlineLen(p.s, p.off)
		if n == 0 {
			p.failAt(start, `'\' outside a string continues a node on the next line, so only a comment or the end of the line may follow it`, "")
		}
		p.newline(n)
	}
}

// nodeSpace skips whitespace, block comments and line continuations, and
// reports whether it skipped anything.
func (p *parser) nodeSpace() bool {
	start := p.off
	for !p.eof() {
		c := p.s[p.off]
		switch {
		case c == ' ' || c == '\t':
			p.off++
		case c == '/' && p.peekByte(1) == '*':
			p.skipBlockComment()
		case c == '\\':
			p.escline()
		case c >= utf8.RuneSelf:
			n := spaceLen(p.s, p.off)
			if n == 0 {
				return p.off > start
			}
			p.off += n
		default:
			return p.off > start
		}
	}
	return p.off > start
}

// lineSpace skips node space, newlines and line comments.
func (p *parser) lineSpace() {
	for !p.eof() {
		p.nodeSpace()
		if p.eof() {
			return
		}
		if n := newlineLen(p.s, p.off); n > 0 {
			p.newline(n)
			continue
		}
		if p.s[p.off] == '/' && p.peekByte(1) == '/' {
			p.skipLineComment()
			continue
		}
		return
	}
}

// nodes reads nodes up to the end of the file or, in a block, up to '}'.
func (p *parser) nodes(inBlock, top bool) []*Node {
	base := len(p.stack)
	for {
		p.lineSpace()
		if p.eof() {
			if inBlock {
				p.fail("the children block is never closed", "add '}'")
			}
			return p.popChildren(base)
		}
		c := p.s[p.off]
		if c == '}' {
			if !inBlock {
				p.fail("'}' without a '{' to close", "remove it")
			}
			return p.popChildren(base)
		}
		if c == '/' && p.peekByte(1) == '-' {
			start := p.off
			p.off += 2
			p.lineSpace()
			if p.eof() || p.s[p.off] == '}' {
				p.failAt(start, "/- comments out the next node, but no node follows", "remove the /-")
			}
			p.node(inBlock, false)
			continue
		}
		n := p.node(inBlock, top)
		if top && p.each != nil {
			p.each(n)
			if p.reuse {
				p.recycle()
			}
			continue
		}
		p.stack = append(p.stack, n)
	}
}

// popChildren moves the nodes pushed since base into lasting storage and
// returns them (nil when there are none).
func (p *parser) popChildren(base int) []*Node {
	if len(p.stack) == base {
		return nil
	}
	if cap(p.kids)-len(p.kids) < len(p.stack)-base {
		p.kids = make([]*Node, 0, max(nextChunk(valueChunk, cap(p.kids)), len(p.stack)-base))
	}
	start := len(p.kids)
	p.kids = append(p.kids, p.stack[base:]...)
	p.stack = p.stack[:base]
	return p.kids[start:len(p.kids):len(p.kids)]
}

const (
	entries     = iota // arguments and properties may follow
	afterHidden        // a /- { } block was seen: only blocks may follow
	afterBlock         // the children block was seen
)

// node reads one node and its terminator (a '}' that ends the enclosing
// block is left for the caller).
func (p *parser) node(inBlock, top bool) *Node {
	p.countItem()
	n := p.nodeArena.new()
	start := p.off
	if cap(p.vals)-len(p.vals) < 16 {
		// A fresh chunk rather than a grown copy of the old one, whose
		// values earlier nodes hold. (A node with more values grows it.)
		p.vals = make([]Value, 0, nextChunk(valueChunk, cap(p.vals)))
	}
	argBase, propBase := len(p.vals), len(p.props)
	n.Line, n.Col = p.here()
	if p.s[p.off] == '(' {
		n.Type = p.typeAnnotation()
		n.HasType = true
		p.nodeSpace()
		if p.eof() {
			p.fail("a type annotation must be followed by a node name", "")
		}
	}
	if !p.stringStart() {
		p.fail(p.unexpected("a node name"), "")
	}
	n.Name = p.str("node name")
	end := p.off
	state := entries
	count := 0 // entries read, kept or not
	for {
		spaced := p.nodeSpace()
		if p.eof() {
			break
		}
		c := p.s[p.off]
		if nl := newlineLen(p.s, p.off); nl > 0 {
			p.newline(nl)
			break
		}
		if c == ';' {
			p.off++
			break
		}
		if c == '/' && p.peekByte(1) == '/' {
			p.skipLineComment()
			break
		}
		if c == '}' {
			if !inBlock {
				p.fail("'}' without a '{' to close", "remove it")
			}
			break
		}
		if c == '{' {
			if state == afterBlock {
				p.fail("a node has at most one children block", "merge the blocks, or end the node with ';' or a new line")
			}
			if state == entries {
				p.takeEntries(n, argBase, propBase)
			}
			n.Children = p.block()
			n.Block = true
			state = afterBlock
			end = p.off
			continue
		}
		if c == '/' && p.peekByte(1) == '-' {
			sd := p.off
			p.off += 2
			p.lineSpace()
			if p.eof() || strings.IndexByte("};", p.s[p.off]) >= 0 {
				p.failAt(sd, "/- comments out the next value, property or block, but none follows", "remove the /-")
			}
			if p.s[p.off] == '{' {
				if state == entries {
					p.takeEntries(n, argBase, propBase)
					state = afterHidden
				}
				p.block()
			} else {
				if state != entries {
					p.failAt(sd, "values and properties must come before children blocks", "")
				}
				count = p.countEntry(count, n.Name)
				p.entry(false)
			}
			end = p.off
			continue
		}
		switch {
		case state == afterBlock:
			p.fail("a node ends after its children block", "add ';' or a new line before the next node")
		case state == afterHidden:
			p.fail("values and properties must come before children blocks, even commented-out ones", "")
		case !spaced:
			p.fail("values and properties must be separated by spaces", "add a space before this")
		}
		count = p.countEntry(count, n.Name)
		p.entry(true)
		end = p.off
	}
	if state == entries {
		p.takeEntries(n, argBase, propBase)
	}
	if top {
		n.Start, n.End = int32(start), int32(end)
	}
	return n
}

// countEntry counts one more entry of the node named name, which has
// count so far, and stops at more than MaxEntries.
func (p *parser) countEntry(count int, name string) int {
	if count++; count > MaxEntries {
		line, col := position(p.s, p.off)
		panic(tooManyEntries(V2, line, col, name))
	}
	p.countItem()
	return count
}

// countItem counts one more node or entry of the document, and stops at
// more than MaxItems.
func (p *parser) countItem() {
	if p.items++; p.items > MaxItems {
		line, col := position(p.s, p.off)
		panic(tooManyItems(V2, line, col))
	}
}

// takeEntries gives n the values and properties read since argBase and
// propBase. It is called once the node's entries end, before any child
// adds its own.
func (p *parser) takeEntries(n *Node, argBase, propBase int) {
	if len(p.vals) > argBase {
		n.Args = p.vals[argBase:len(p.vals):len(p.vals)]
	}
	if len(p.props) > propBase {
		n.Props = p.props[propBase:len(p.props):len(p.props)]
	}
}

// block reads { nodes }; it always returns a non-nil slice.
func (p *parser) block() []*Node {
	if p.depth++; p.depth > MaxDepth {
		p.fail(fmt.Sprintf("children are nested more than %d deep", MaxDepth), "a config.kdl nests a few levels; flatten this block")
	}
	p.off++ // {
	children := p.nodes(true, false)
	p.off++ // }
	p.depth--
	if children == nil {
		children = []*Node{}
	}
	return children
}

// entry reads an argument or a property into p.vals or p.props (or
// discards it when keep is false, for a /- comment).
func (p *parser) entry(keep bool) {
	if p.s[p.off] == '(' {
		typ := p.typeAnnotation()
		p.nodeSpace()
		p.expectTypedValue()
		v := p.value()
		v.Type, v.HasType = typ, true
		m := p.save()
		p.nodeSpace()
		if !p.eof() && p.s[p.off] == '=' {
			p.fail("a property name cannot have a type annotation", "put the annotation on the value: key=(type)value")
		}
		p.restore(m)
		if keep {
			p.vals = append(p.vals, v)
		}
		return
	}
	if !p.stringStart() {
		v := p.value()
		if !p.eof() && p.s[p.off] == '=' {
			p.fail("a property name must be a string", "quote it")
		}
		if keep {
			p.vals = append(p.vals, v)
		}
		return
	}
	line, col := p.here()
	text := p.str("value")
	m := p.save()
	p.nodeSpace()
	if p.eof() || p.s[p.off] != '=' {
		p.restore(m)
		if keep {
			p.vals = append(p.vals, Value{Kind: String, Str: text, Line: line, Col: col})
		}
		return
	}
	p.off++
	p.nodeSpace()
	if p.eof() || newlineLen(p.s, p.off) > 0 || strings.IndexByte(";}", p.s[p.off]) >= 0 {
		p.fail("a property needs a value after '='", "")
	}
	if p.s[p.off] == '/' && p.peekByte(1) == '-' {
		p.fail("/- cannot comment out a property's value", "comment out the whole property: /-key=value")
	}
	var v Value
	if p.s[p.off] == '(' {
		typ := p.typeAnnotation()
		p.nodeSpace()
		p.expectTypedValue()
		v = p.value()
		v.Type, v.HasType = typ, true
	} else {
		v = p.value()
	}
	if keep {
		p.props = append(p.props, Prop{Key: text, Value: v})
	}
}

// expectTypedValue fails unless a value follows a type annotation.
func (p *parser) expectTypedValue() {
	if p.eof() || p.s[p.off] == '/' && p.peekByte(1) == '-' || newlineLen(p.s, p.off) > 0 || strings.IndexByte(";{}", p.s[p.off]) >= 0 {
		p.fail("a type annotation must be followed by a value", "")
	}
}

// typeAnnotation reads (type).
func (p *parser) typeAnnotation() string {
	start := p.off
	p.off++
	p.nodeSpace()
	if p.eof() || !p.stringStart() {
		p.failAt(start, "a type annotation holds a name: (type)", "")
	}
	t := p.str("type annotation")
	p.nodeSpace()
	if p.eof() || p.s[p.off] != ')' {
		p.failAt(start, "this type annotation is never closed with ')'", "")
	}
	p.off++
	return t
}

// stringStart reports whether a string (identifier, quoted or raw) starts
// at the cursor.
func (p *parser) stringStart() bool {
	c := p.s[p.off]
	switch {
	case c == '"':
		return true
	case c == '#':
		i := p.off
		for i < len(p.s) && p.s[i] == '#' {
			i++
		}
		return i < len(p.s) && p.s[i] == '"'
	case isDigit(c):
		return false
	case (c == '+' || c == '-') && isDigit(p.peekByte(1)):
		return false
	case (c == '+' || c == '-') && p.peekByte(1) == '.' && isDigit(p.peekByte(2)):
		return false
	case c < utf8.RuneSelf:
		return ascii[c]&cIdent != 0
	}
	r, _ := utf8.DecodeRuneInString(p.s[p.off:])
	return isIdentRune(r)
}

func (p *parser) unexpected(what string) string {
	r, _ := utf8.DecodeRuneInString(p.s[p.off:])
	switch {
	case isDigit(byte(r)) || r == '+' || r == '-':
		return fmt.Sprintf("expected %s, found a number; a number cannot be a name, so quote it", what)
	case r == '=':
		return fmt.Sprintf("expected %s, found '='", what)
	case isNewlineRune(r):
		return fmt.Sprintf("expected %s, found the end of the line", what)
	}
	return fmt.Sprintf("expected %s, found %q", what, r)
}

// str reads a string: an identifier, a quoted or a raw string.
func (p *parser) str(what string) string {
	switch c := p.s[p.off]; c {
	case '"':
		return p.quoted()
	case '#':
		return p.raw()
	}
	start := p.off
	word := p.word()
	switch word {
	case "true", "false", "null":
		p.failLegacy(start, fmt.Sprintf("%s is a keyword in KDL 2.0, written #%s", word, word),
			fmt.Sprintf("write #%s, or quote it (\"%s\") for the %s", word, word, what))
	case "inf", "-inf", "nan":
		p.failAt(start, fmt.Sprintf("%s is reserved in KDL 2.0 (the number is written #%s)", word, word), "quote it")
	case "r":
		if !p.eof() && (p.s[p.off] == '"' || p.s[p.off] == '#') {
			p.failLegacy(start, `r"…" and r#"…"# are KDL 1.0 raw strings; KDL 2.0 writes them #"…"#`, `drop the r: #"text"#`)
		}
	}
	checkIdentifier(p, start, word)
	p.checkWordEnd()
	return word
}

// word reads identifier characters.
func (p *parser) word() string {
	start := p.off
	for p.off < len(p.s) {
		c := p.s[p.off]
		if c < utf8.RuneSelf {
			if ascii[c]&cIdent == 0 {
				break
			}
			p.off++
			continue
		}
		r, size := utf8.DecodeRuneInString(p.s[p.off:])
		if !isIdentRune(r) {
			break
		}
		p.off += size
	}
	return p.s[start:p.off]
}

// checkWordEnd rejects characters glued to an identifier that cannot
// continue it, with a clearer message than the node would give.
func (p *parser) checkWordEnd() {
	if p.eof() {
		return
	}
	switch c := p.s[p.off]; c {
	case '[', ']', '#', '(', '"':
		p.fail(fmt.Sprintf("%q cannot appear in an unquoted string", rune(c)), "quote the string")
	case '\\':
		if !p.continuationFollows(p.off) {
			p.fail(`'\' cannot appear in an unquoted string`, "quote the string")
		}
	}
}

// continuationFollows reports whether the '\' at i starts a line
// continuation (spaces, then a comment or the end of the line).
func (p *parser) continuationFollows(i int) bool {
	for i++; i < len(p.s); {
		if n := spaceLen(p.s, i); n > 0 {
			i += n
			continue
		}
		return newlineLen(p.s, i) > 0 || strings.HasPrefix(p.s[i:], "//") || strings.HasPrefix(p.s[i:], "/*")
	}
	return true
}

// checkIdentifier applies the rules on an identifier's first characters.
func checkIdentifier(p *parser, start int, w string) {
	bad := false
	switch {
	case w == "":
		bad = true
	case w[0] == '+' || w[0] == '-':
		bad = len(w) > 1 && (isDigit(w[1]) || w[1] == '.' && len(w) > 2 && isDigit(w[2]))
	case w[0] == '.':
		bad = len(w) > 1 && isDigit(w[1])
	}
	if bad {
		p.failAt(start, fmt.Sprintf("%q is neither a number nor an unquoted string", w), "quote it, or write the number with a digit before the '.'")
	}
}

// value reads a value that is not a string started by an identifier
// character: a number, a keyword, or a quoted or raw string.
func (p *parser) value() Value {
	if p.eof() {
		p.fail("expected a value, found the end of the file", "")
	}
	line, col := p.here()
	v := Value{Line: line, Col: col}
	c := p.s[p.off]
	switch {
	case c == '"':
		v.Kind, v.Str = String, p.quoted()
	case c == '#' && p.stringStart():
		v.Kind, v.Str = String, p.raw()
	case c == '#':
		start := p.off
		p.off++
		w := p.word()
		switch w {
		case "true", "false":
			v.Kind, v.Bool = Bool, w == "true"
		case "null":
			v.Kind = Null
		case "inf", "-inf", "nan":
			v.Kind, v.Str = Float, "#"+w
		default:
			p.failAt(start, fmt.Sprintf("unknown keyword #%s", w), "KDL 2.0 keywords are #true, #false, #null, #inf, #-inf and #nan")
		}
	case isDigit(c) || (c == '+' || c == '-') && isDigit(p.peekByte(1)):
		start := p.off
		w := p.word()
		kind, clean, ok := number(w)
		if !ok {
			p.failAt(start, fmt.Sprintf("%q is not a number", w), "numbers look like 12, -3.5, 1e10, 0x1f, 0o17 or 0b101; quote it for a string")
		}
		v.Kind, v.Str = kind, clean
	case p.stringStart():
		v.Kind, v.Str = String, p.str("value")
	default:
		p.fail(p.unexpected("a value"), "")
	}
	return v
}

// number validates a numeric literal and returns its kind and text
// without underscores.
func number(w string) (Kind, string, bool) {
	s := w
	if s[0] == '+' || s[0] == '-' {
		s = s[1:]
	}
	digits := func(s string, ok func(byte) bool) bool {
		if s == "" || !ok(s[0]) {
			return false
		}
		for i := 1; i < len(s); i++ {
			if s[i] != '_' && !ok(s[i]) {
				return false
			}
		}
		return true
	}
	clean := strings.ReplaceAll(w, "_", "")
	if len(s) > 1 && s[0] == '0' {
		switch s[1] {
		case 'x':
			return Int, clean, digits(s[2:], func(c byte) bool { return isDigit(c) || c|0x20 >= 'a' && c|0x20 <= 'f' })
		case 'o':
			return Int, clean, digits(s[2:], func(c byte) bool { return c >= '0' && c <= '7' })
		case 'b':
			return Int, clean, digits(s[2:], func(c byte) bool { return c == '0' || c == '1' })
		}
	}
	mant, exp, hasExp := s, "", false
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		mant, exp, hasExp = s[:i], s[i+1:], true
	}
	intPart, frac, hasFrac := strings.Cut(mant, ".")
	if !digits(intPart, isDigit) || hasFrac && !digits(frac, isDigit) {
		return 0, "", false
	}
	if hasExp {
		if exp != "" && (exp[0] == '+' || exp[0] == '-') {
			exp = exp[1:]
		}
		if !digits(exp, isDigit) {
			return 0, "", false
		}
	}
	if hasFrac || hasExp {
		return Float, clean, true
	}
	return Int, clean, true
}

// quoted reads "…" or a """ multi-line string.
func (p *parser) quoted() string {
	start := p.off
	if strings.HasPrefix(p.s[p.off:], `"""`) {
		return p.multiline(start, 0)
	}
	p.off++
	// Fast path: no escapes.
	for i := p.off; i < len(p.s); i++ {
		if stop := quotedStops[p.s[i]]; stop == endsQuoted {
			text := p.s[p.off:i]
			p.off = i + 1
			return text
		} else if stop != 0 {
			break
		}
	}
	var b strings.Builder
	for {
		if p.eof() {
			p.failAt(start, "this string is never closed", `end it with "`)
		}
		c := p.s[p.off]
		switch {
		case c == '"':
			p.off++
			return b.String()
		case c == '\\':
			p.escape(&b)
		case newlineLen(p.s, p.off) > 0:
			p.failAt(start, "a quoted string cannot span lines", `use a """ multi-line string, or \n`)
		default:
			b.WriteByte(c)
			p.off++
		}
	}
}

// quotedStops are the bytes that end quoted's fast path: the closing
// quote, and what the slow path reads: an escape, an ASCII newline, or the
// first byte of a non-ASCII one (U+0085, U+2028, U+2029). One look-up a
// byte, as every command reads each layer file whole.
var quotedStops = [256]uint8{'"': endsQuoted, '\\': slowQuoted, '\n': slowQuoted, '\v': slowQuoted, '\f': slowQuoted, '\r': slowQuoted,
	0xC2: slowQuoted, 0xE2: slowQuoted}

const (
	endsQuoted = iota + 1
	slowQuoted
)

// escape reads one escape sequence into b; a backslash followed by
// whitespace swallows all of it.
func (p *parser) escape(b *strings.Builder) {
	start := p.off
	p.off++
	if p.eof() {
		p.failAt(start, "a string ends in the middle of an escape", "")
	}
	switch c := p.s[p.off]; c {
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case '\\':
		b.WriteByte('\\')
	case '"':
		b.WriteByte('"')
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 's':
		b.WriteByte(' ')
	case 'u':
		r := p.unicodeEscape(start)
		b.WriteRune(r)
		return
	default:
		if p.skipEscapedSpace() {
			return
		}
		hint := `escapes are \n \r \t \\ \" \b \f \s and \u{hex}`
		if c == '/' {
			hint = `KDL 2.0 has no \/ escape: write / as it is`
		}
		p.failAt(start, fmt.Sprintf("invalid escape \\%c", c), hint)
	}
	p.off++
}

// skipEscapedSpace skips whitespace and newlines after a backslash; it
// reports whether there was any.
func (p *parser) skipEscapedSpace() bool {
	any := false
	for !p.eof() {
		if n := spaceLen(p.s, p.off); n > 0 {
			p.off += n
		} else if n := newlineLen(p.s, p.off); n > 0 {
			p.newline(n)
		} else {
			break
		}
		any = true
	}
	return any
}

func (p *parser) unicodeEscape(start int) rune {
	p.off++ // u
	if p.eof() || p.s[p.off] != '{' {
		p.failAt(start, `a unicode escape is written \u{hex}`, "")
	}
	p.off++
	digits := p.off
	for !p.eof() && p.s[p.off] != '}' && p.off-digits <= 6 {
		p.off++
	}
	hex := p.s[digits:p.off]
	if p.eof() || hex == "" || len(hex) > 6 {
		p.failAt(start, `a unicode escape is written \u{hex} with 1 to 6 hex digits`, "")
	}
	var r rune
	for i := 0; i < len(hex); i++ {
		c := hex[i] | 0x20
		switch {
		case isDigit(hex[i]):
			r = r*16 + rune(hex[i]-'0')
		case c >= 'a' && c <= 'f':
			r = r*16 + rune(c-'a'+10)
		default:
			p.failAt(start, fmt.Sprintf("invalid hex digit %q in a unicode escape", hex[i]), "")
		}
	}
	if r > 0x10FFFF || r >= 0xD800 && r <= 0xDFFF {
		p.failAt(start, fmt.Sprintf(`\u{%s} is not a unicode scalar value`, hex), "")
	}
	p.off++ // }
	return r
}

// raw reads #"…"#, ##"…"## or a #""" multi-line raw string.
func (p *parser) raw() string {
	start := p.off
	hashes := 0
	for p.s[p.off] == '#' {
		hashes++
		p.off++
	}
	if strings.HasPrefix(p.s[p.off:], `"""`) {
		p.off = start
		return p.multiline(start, hashes)
	}
	p.off++ // "
	body := p.off
	// Fast path: the closing quote and hashes, with nothing on the way
	// that could be a newline.
	for i := p.off; i < len(p.s); i++ {
		c := p.s[i]
		if c == '"' {
			if j := i + 1 + hashes; j <= len(p.s) && strings.Count(p.s[i+1:j], "#") == hashes {
				p.off = j
				return p.s[body:i]
			}
			continue
		}
		if c < utf8.RuneSelf && ascii[c]&cNewline != 0 || c == 0xC2 || c == 0xE2 {
			break
		}
	}
	closing := `"` + strings.Repeat("#", hashes)
	for {
		if p.eof() {
			p.failAt(start, "this raw string is never closed", "end it with "+closing)
		}
		if newlineLen(p.s, p.off) > 0 {
			p.failAt(start, "a single-line raw string cannot span lines", `use a multi-line raw string: #"""`)
		}
		if strings.HasPrefix(p.s[p.off:], closing) {
			text := p.s[body:p.off]
			p.off += len(closing)
			return text
		}
		p.off++
	}
}

// multiline reads a """ string (raw when hashes > 0): its first line
// break is dropped, its last line (before the closing quotes) is
// whitespace that every other line must start with, and is removed.
func (p *parser) multiline(start, hashes int) string {
	p.off += hashes + 3
	n := newlineLen(p.s, p.off)
	if n == 0 {
		p.failAt(start, `""" must be followed by a new line`, `for a one-line string use "…" (or #"…"# raw)`)
	}
	p.newline(n)
	closing := `"""` + strings.Repeat("#", hashes)
	var lines []string
	var cur strings.Builder
	for {
		if p.eof() {
			p.failAt(start, "this multi-line string is never closed", "end it with "+closing+" on its own line")
		}
		c := p.s[p.off]
		if strings.HasPrefix(p.s[p.off:], closing) {
			p.off += len(closing)
			break
		}
		if n := newlineLen(p.s, p.off); n > 0 {
			lines = append(lines, cur.String())
			cur.Reset()
			p.newline(n)
			continue
		}
		if c == '\\' && hashes == 0 {
			// Whitespace escapes go before dedenting; others stay as
			// written and are read after it.
			esc := p.off
			p.off++
			if p.skipEscapedSpace() {
				continue
			}
			if p.eof() {
				p.failAt(esc, "a string ends in the middle of an escape", "")
			}
			_, size := utf8.DecodeRuneInString(p.s[p.off:])
			cur.WriteString(p.s[esc : p.off+size])
			p.off += size
			continue
		}
		cur.WriteByte(c)
		p.off++
	}
	prefix := cur.String()
	for i := 0; i < len(prefix); {
		n := spaceLen(prefix, i)
		if n == 0 {
			p.failAt(start, "the closing quotes of a multi-line string must be alone on their line, after whitespace only", "")
		}
		i += n
	}
	for i, l := range lines {
		if onlySpace(l) {
			lines[i] = ""
			continue
		}
		if !strings.HasPrefix(l, prefix) {
			p.failAt(start, fmt.Sprintf("line %d of this multi-line string is not indented like its closing quotes", i+1),
				"start every line with the whitespace that precedes the closing quotes")
		}
		lines[i] = l[len(prefix):]
	}
	text := strings.Join(lines, "\n")
	if hashes > 0 || !strings.Contains(text, `\`) {
		return text
	}
	// Read the remaining escapes.
	q := &parser{s: text, line: 1}
	var b strings.Builder
	func() {
		defer func() {
			if r := recover(); r != nil {
				e, ok := r.(*Error)
				if !ok {
					panic(r)
				}
				p.failAt(start, e.Msg+" in this multi-line string", e.Hint)
			}
		}()
		for !q.eof() {
			if q.s[q.off] == '\\' {
				q.escape(&b)
				continue
			}
			b.WriteByte(q.s[q.off])
			q.off++
		}
	}()
	return b.String()
}

func onlySpace(s string) bool {
	for i := 0; i < len(s); {
		n := spaceLen(s, i)
		if n == 0 {
			return false
		}
		i += n
	}
	return true
}
