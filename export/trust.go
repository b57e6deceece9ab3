package export

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/files"
)

// Trust makes the edits each exported tool needs, besides the files, to
// load a project's agents (its dialect's Trust: Codex's trusted project,
// the Gemini CLI's trusted folder and acknowledgements), or to run the
// hooks written with them (Claude Code's trusted project). Existing
// settings are kept; every edited file is written, or none. A file that
// does not parse is an error naming it, and stays as it was. It returns
// the files it changed, all outside the repository, for the user to know.
func (r *Result) Trust(reg dialect.Registry, root, home string) ([]string, error) {
	changes, err := r.TrustChanges(reg, root, home)
	if err != nil {
		return nil, err
	}
	if err := emit.ApplyAll(changes); err != nil {
		return nil, err
	}
	paths := make([]string, len(changes))
	for i, c := range changes {
		paths[i] = c.Path
	}
	return paths, nil
}

// TrustChanges are the edits Trust would make, none made: the files in
// the user's home directory that do not yet trust the repository.
func (r *Result) TrustChanges(reg dialect.Registry, root, home string) ([]emit.Change, error) {
	var edits []dialect.FileEdit
	for _, rep := range r.Reports {
		d, ok := reg.Lookup(rep.Target)
		if !ok {
			continue
		}
		if h := d.Info().Hook; h != nil && h.Trust != nil && rep.hooked > 0 {
			edits = append(edits, h.Trust(root, home)...)
		}
		if d.Info().Trust == nil {
			continue
		}
		var written []dialect.Written
		for _, f := range rep.plan.Files {
			if f.Agent != "" && f.Action != emit.Remove && f.Action != emit.Stale {
				written = append(written, dialect.Written{Path: f.Path, Content: f.Content()})
			}
		}
		edits = append(edits, d.Info().Trust(root, home, written)...)
	}
	content, original, bases := map[string][]byte{}, map[string][]byte{}, map[string]string{}
	var order []string
	for _, e := range edits {
		rel, err := filepath.Rel(home, e.Path)
		if err != nil || !filepath.IsLocal(rel) {
			return nil, fmt.Errorf("%s is not inside the home directory %s", e.Path, home)
		}
		// A user's settings file may be a link into their dotfiles: the
		// file it leads to is edited, in its own directory, and the link
		// stays. A directory on the way stays inside home.
		base, path, err := files.Through(home, filepath.ToSlash(rel))
		var link *files.LinkOutError
		if errors.As(err, &link) {
			// Removing the link, as Join's message says, would lose the
			// user's settings: the file itself may be a link.
			return nil, fmt.Errorf("not edited for --trust: %s is a symlink that leads out of the home directory %s (or nowhere), and bn edits files only through directories inside it: link %s itself to where it is kept, not its directory, or make that edit by hand (--trust is the only write that needs it)",
				link.Link, home, e.Path)
		}
		if err != nil {
			return nil, fmt.Errorf("not edited for --trust: %w", err)
		}
		old, seen := content[path]
		if !seen {
			in, _ := filepath.Rel(base, path)
			old, err = files.ReadInDir(base, in, files.MaxConfigFile)
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("%s %w", e.Path, err)
			}
			order = append(order, path)
			original[path], bases[path] = old, base
		}
		out, err := e.Edit(old)
		if err != nil {
			return nil, fmt.Errorf("%s: %v; fix the file (bn left it untouched)", e.Path, err)
		}
		if len(old) == 0 || strings.HasSuffix(string(old), "\n") {
			out = []byte(strings.TrimRight(string(out), "\n") + "\n")
		}
		content[path] = out
	}
	var changes []emit.Change
	for _, p := range order {
		if !bytes.Equal(content[p], original[p]) {
			changes = append(changes, emit.Change{Path: p, Base: bases[p], Content: content[p], Perm: 0o600})
		}
	}
	return changes, nil
}
