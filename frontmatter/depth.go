package frontmatter

import (
	"bytes"
	"fmt"
)

// MaxDepth bounds how deeply frontmatter nests. Agent files nest two or
// three levels; the YAML parser's time and memory grow much faster than
// the depth of a hostile file, so depth is checked before it runs.
const MaxDepth = 64

// MaxEntries bounds how many entries frontmatter holds: its lines of keys
// and list items, and the values of its flow collections. Agent files hold
// a few dozen (the largest of the corpus, 174 lines); goccy/go-yaml
// recurses once per key of a mapping, so a 1 MiB file of 100,000 keys
// took minutes and 400 MB, and width is checked before it runs too.
const MaxEntries = 5000

// checkBounds finds the first place src nests deeper than MaxDepth, or
// holds more than MaxEntries entries: flow collections ([ and { outside
// quotes, their values counted by their commas), compact block sequences
// ("- - -") and indentation, which block scalars' text does not count
// for. Lines are numbered from firstLine.
func checkBounds(src []byte, firstLine int) *Error {
	var indents []int // the open block levels' indentation
	flow := 0
	entries := 0
	scalarIndent := -1 // inside a block scalar: lines indented more than this
	line := firstLine
	for len(src) > 0 {
		text, rest, _ := bytes.Cut(src, []byte("\n"))
		src = rest
		n := line
		line++
		body := bytes.TrimLeft(text, " ")
		indent := len(text) - len(body)
		if scalarIndent >= 0 {
			if len(bytes.TrimSpace(body)) == 0 || indent > scalarIndent {
				continue
			}
			scalarIndent = -1
		}
		if len(body) == 0 || body[0] == '#' {
			continue
		}
		if entries++; entries > MaxEntries {
			return widthError(n, indent+1)
		}
		if flow == 0 {
			for len(indents) > 0 && indents[len(indents)-1] >= indent {
				indents = indents[:len(indents)-1]
			}
			indents = append(indents, indent)
			for len(body) > 1 && body[0] == '-' && body[1] == ' ' {
				indents = append(indents, indent)
				body = bytes.TrimLeft(body[1:], " ")
			}
		}
		if len(indents)+flow > MaxDepth {
			return depthError(n, indent+1)
		}
		var quote byte
		for i, c := range body {
			switch {
			case quote != 0:
				if c == quote {
					quote = 0
				}
			case c == '"' || c == '\'':
				quote = c
			case c == '#' && (i == 0 || body[i-1] == ' '):
				body = body[:i]
			case c == '[' || c == '{':
				if flow++; len(indents)+flow > MaxDepth {
					return depthError(n, indent+i+1)
				}
			case c == ']' || c == '}':
				flow = max(0, flow-1)
			case c == ',' && flow > 0:
				if entries++; entries > MaxEntries {
					return widthError(n, indent+i+1)
				}
			}
		}
		if t := bytes.TrimRight(body, " "); flow == 0 && len(t) > 0 && isBlockScalar(t) {
			scalarIndent = indent
		}
	}
	return nil
}

// isBlockScalar says whether a line ends in a block scalar's header
// (|, >, with chomping and indentation indicators).
func isBlockScalar(line []byte) bool {
	i := len(line)
	for i > 0 && (line[i-1] == '-' || line[i-1] == '+' || line[i-1] >= '1' && line[i-1] <= '9') {
		i--
	}
	return i > 0 && (line[i-1] == '|' || line[i-1] == '>') && (i == 1 || line[i-2] == ' ')
}

func depthError(line, col int) *Error {
	return &Error{Line: line, Col: col, Msg: fmt.Sprintf("frontmatter nests more than %d levels deep; agent files nest a few levels", MaxDepth), Final: true}
}

func widthError(line, col int) *Error {
	return &Error{Line: line, Col: col, Msg: fmt.Sprintf("frontmatter holds more than %d entries (keys, list items and values); agent files hold a few dozen: remove the extra ones", MaxEntries), Final: true}
}
