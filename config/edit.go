package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"

	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/kdl"
)

// Doc is a config.kdl being edited node by node: everything between nodes
// (comments, blank lines) stays as written, and new nodes are written in
// the file's KDL version.
type Doc struct {
	text    string
	Version kdl.Version
	nodes   []*kdl.Node
	agents  map[string]int // agent name -> its first node, made on first use
	edits   []edit
	appends []string
}

type edit struct {
	start, end int
	text       string
}

// Edit reads a layer's config.kdl for editing, parsing it once. A missing
// or empty file is a new one in the given version; a file that does not
// decode cleanly is an error: bn never edits a broken file, it would
// hide the breakage under its own.
func (d Decoder) Edit(path string, version kdl.Version) (*Doc, error) {
	src, err := files.Read(path, files.MaxConfigFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s %w", path, err)
	}
	doc := &Doc{text: string(src), Version: version}
	if strings.TrimSpace(doc.text) == "" {
		return doc, nil
	}
	res, nodes := d.decode(path, src, true)
	if errs := res.Diags.Errors(); len(errs) > 0 {
		return nil, fmt.Errorf("%s does not load; fix it before bn edits it:\n%v", path, errs)
	}
	doc.Version, doc.nodes = res.Version, nodes
	return doc, nil
}

// AgentLine is the line where the file defines the agent, 0 when it does
// not.
func (d *Doc) AgentLine(name string) int {
	if i := d.agentIndex(name); i >= 0 {
		return int(d.nodes[i].Line)
	}
	return 0
}

// agentIndex is the index of the agent's node, -1 when there is none. The
// names are indexed once, so that setting every agent of a large file
// (an import over an earlier one) stays linear in its size.
func (d *Doc) agentIndex(name string) int {
	if d.agents == nil {
		d.agents = make(map[string]int, len(d.nodes))
		for i, n := range d.nodes {
			if n.Name == "agent" && len(n.Args) == 1 && n.Args[0].Kind == kdl.String {
				if _, dup := d.agents[n.Args[0].Str]; !dup {
					d.agents[n.Args[0].Str] = i
				}
			}
		}
	}
	if i, ok := d.agents[name]; ok {
		return i
	}
	return -1
}

// SetAgent replaces the agent's node where it stands, or appends it.
func (d *Doc) SetAgent(name string, node *kdl.Node) error {
	text := strings.TrimSuffix(kdl.FormatNode(node, d.Version, 0), "\n")
	i := d.agentIndex(name)
	switch {
	case i < 0:
		d.appends = append(d.appends, text)
	case d.nodes[i].End > d.nodes[i].Start:
		d.edits = append(d.edits, edit{int(d.nodes[i].Start), int(d.nodes[i].End), text})
	default:
		return fmt.Errorf("cannot find where agent %q ends in the file; edit it by hand", name)
	}
	return nil
}

// Bytes is the edited file.
func (d *Doc) Bytes() []byte {
	// One pass: the edits in order, then the appended nodes, each copied
	// once (growing a string per edit made a large import quadratic).
	edits := append([]edit(nil), d.edits...)
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	size := len(d.text)
	for _, e := range edits {
		size += len(e.text)
	}
	for _, a := range d.appends {
		size += len(a) + 3
	}
	b := make([]byte, 0, size)
	at := 0
	for _, e := range edits {
		b = append(b, d.text[at:e.start]...)
		b = append(b, e.text...)
		at = e.end
	}
	b = append(b, d.text[at:]...)
	for _, a := range d.appends {
		switch {
		case len(b) == 0:
		case bytes.HasSuffix(b, []byte("\n\n")):
		case bytes.HasSuffix(b, []byte("\n")):
			b = append(b, '\n')
		default:
			b = append(b, "\n\n"...)
		}
		b = append(append(b, a...), '\n')
	}
	return b
}
