package export

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/files"
)

// Widening is a file an export would rewrite for an agent under
// enforcement, one whose file on disk carries bn's hook, that would grant
// it more than the file on disk does.
type Widening struct {
	Target string   `json:"target"`
	Agent  string   `json:"agent"`
	Path   string   `json:"path"`
	Grants []string `json:"grants"` // what the new file grants beyond the old (agents.Tools.Beyond)
}

// Widenings lists the files the export would rewrite that widen an agent
// under enforcement. A file on disk that no longer reads as an agent file
// counts as granting nothing.
func (r *Result) Widenings() ([]Widening, error) {
	var out []Widening
	for _, rep := range r.Reports {
		for _, f := range rep.plan.Files {
			if f.Action != emit.Update && f.Action != emit.Overwrite {
				continue
			}
			old, err := files.ReadInto(f.Path, nil, files.MaxAgentFile)
			if err != nil {
				return nil, fmt.Errorf("cannot read %s: %w", f.Path, err)
			}
			if !dialect.CarriesHook(rep.Target, old) {
				continue
			}
			rel, err := filepath.Rel(rep.Dir, f.Path)
			if err != nil {
				rel = filepath.Base(f.Path)
			}
			grants, err := widens(rep.d, r.catalog, f.Path, filepath.ToSlash(rel), old, f.Content())
			if err != nil {
				return nil, err
			}
			if len(grants) > 0 {
				out = append(out, Widening{Target: rep.Target, Agent: f.Agent, Path: f.Path, Grants: grants})
			}
		}
	}
	return out, nil
}

// widens is what a new file for an agent grants beyond the file on disk.
// It compares the tool rules both files give read back through the
// tool's reader: what the tool will allow once the new file is written,
// against what it allows now. While the hook bn writes with a file
// decides from the definition itself, what the file grants is what an
// export changes; this is the one place to compare the rules a hook
// decides from instead, once those are written at export.
func widens(d dialect.Dialect, cat *agents.Catalog, path, rel string, old, new []byte) ([]string, error) {
	now, err := d.Read(dialect.Source{Path: path, Rel: rel, Data: old}, cat)
	if err != nil {
		now = &dialect.Imported{} // unreadable: it grants nothing the tool would take
	}
	next, err := d.Read(dialect.Source{Path: path, Rel: rel, Data: new}, cat)
	if err != nil {
		return nil, fmt.Errorf("%s: bn cannot read back the file it would write: %w", path, err)
	}
	return next.Def.Tools.Beyond(now.Def.Tools), nil
}

// Hold leaves the files of ws as they are: the export no longer writes
// them, and reports them as held.
func (r *Result) Hold(ws []Widening) {
	held := func(path string) bool {
		return slices.ContainsFunc(ws, func(w Widening) bool { return w.Path == path })
	}
	for _, rep := range r.Reports {
		for _, files := range [][]emit.PlannedFile{rep.plan.Files, rep.Files} {
			for i := range files {
				if held(files[i].Path) {
					files[i].Action = emit.Held
				}
			}
		}
	}
}
