package kdl

import (
	"fmt"
	"slices"
)

// Record is one NODE "NAME" { key "value" … } of a file bn writes itself
// (an import record, a sources lock).
type Record struct {
	Name   string
	Fields map[string]string
}

// ReadRecords reads src, the file at path, as records of node, each field
// one of keys with one string. check says what is wrong with a record
// (empty when nothing is). Every error names path, the place and fix, what
// the user can do (the file is bn's, not written by hand).
func ReadRecords(path string, src []byte, node string, keys []string, check func(Record) string, fix string) ([]Record, error) {
	doc, err := Read(src)
	if err != nil {
		return nil, fmt.Errorf("%s: %w; %s", path, err, fix)
	}
	var out []Record
	for _, n := range doc.Nodes {
		bad := func(why string) error {
			return fmt.Errorf("%s:%d:%d: %s; %s", path, n.Line, n.Col, why, fix)
		}
		if n.Name != node || len(n.Args) != 1 || n.Args[0].Kind != String {
			return nil, bad(fmt.Sprintf("expected %s NAME { … }", node))
		}
		r := Record{Name: n.Args[0].Str, Fields: map[string]string{}}
		for _, c := range n.Children {
			if len(c.Args) != 1 || c.Args[0].Kind != String {
				return nil, bad(fmt.Sprintf("%s takes one string", c.Name))
			}
			if !slices.Contains(keys, c.Name) {
				return nil, bad(fmt.Sprintf("unknown key %q", c.Name))
			}
			r.Fields[c.Name] = c.Args[0].Str
		}
		if why := check(r); why != "" {
			return nil, bad(why)
		}
		out = append(out, r)
	}
	return out, nil
}
