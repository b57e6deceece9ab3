package config

import (
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

func (d *Doc) agentIndex(name string) int {
	for i, n := range d.nodes {
		if n.Name == "agent" && len(n.Args) == 1 && n.Args[0].Kind == kdl.String && n.Args[0].Str == name {
			return i
		}
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
	text := d.text
	edits := append([]edit(nil), d.edits...)
	sort.Slice(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	for _, e := range edits {
		text = text[:e.start] + e.text + text[e.end:]
	}
	for _, a := range d.appends {
		switch {
		case text == "":
		case strings.HasSuffix(text, "\n\n"):
		case strings.HasSuffix(text, "\n"):
			text += "\n"
		default:
			text += "\n\n"
		}
		text += a + "\n"
	}
	return []byte(text)
}
