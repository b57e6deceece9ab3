package export

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/hookrules"
)

// Widening is an agent under enforcement (its file on disk carries bn's
// hook) that an export would let do more than it may now: through its
// file, or through the rules its hook decides from.
type Widening struct {
	Target string   `json:"target"`
	Agent  string   `json:"agent"`
	Path   string   `json:"path"`
	Grants []string `json:"grants"` // what it would be granted beyond today (agents.Tools.Beyond)
}

// Widenings lists the agents under enforcement that the export would
// widen. What an agent may do now is what its file on disk grants, read
// back through the tool's reader, and, inside what the file grants whole,
// what the rules compiled beside it allow: the hook decides from those.
// A file on disk that no longer reads as an agent file counts as granting
// nothing; rules that are missing or damaged make the hook refuse every
// call already, so the export that repairs them is not held.
func (r *Result) Widenings() ([]Widening, error) {
	var out []Widening
	for _, rep := range r.Reports {
		for _, f := range rep.plan.Files {
			if f.Agent == "" || strings.HasSuffix(f.Path, dialect.RulesExt) || f.Action == emit.Remove || f.Action == emit.Stale {
				continue
			}
			old, err := files.ReadInto(f.Path, nil, files.MaxAgentFile)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return nil, fmt.Errorf("cannot read %s: %w", f.Path, err)
			}
			if !dialect.CarriesHook(rep.Target, old) {
				continue
			}
			grants, err := rep.widens(r, f, old)
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

// widens is what an agent's new file and rules grant beyond the file and
// rules on disk. This is the one place that compares them.
func (rep *TargetReport) widens(r *Result, f emit.PlannedFile, old []byte) ([]string, error) {
	var grants []string
	if f.Action == emit.Update || f.Action == emit.Overwrite {
		rel, err := filepath.Rel(rep.Dir, f.Path)
		if err != nil {
			rel = filepath.Base(f.Path)
		}
		src := dialect.Source{Path: f.Path, Rel: filepath.ToSlash(rel), Data: old}
		now, err := rep.d.Read(src, r.catalog)
		if err != nil {
			now = &dialect.Imported{} // unreadable: it grants nothing the tool would take
		}
		src.Data = f.Content()
		next, err := rep.d.Read(src, r.catalog)
		if err != nil {
			return nil, fmt.Errorf("%s: bn cannot read back the file it would write: %w", f.Path, err)
		}
		grants = next.Def.Tools.Beyond(now.Def.Tools)
	}
	if rules, _, err := hookrules.Read(rulesPath(f.Path, rep.ext)); err == nil && rules.Agent == f.Agent {
		for _, g := range rep.defined[f.Agent].Beyond(rules.Tools()) {
			if !slices.Contains(grants, g) {
				grants = append(grants, g)
			}
		}
	}
	return grants, nil
}

// rulesPath is where the rules of the agent file at path are compiled.
func rulesPath(path, ext string) string { return strings.TrimSuffix(path, ext) + dialect.RulesExt }

// Hold leaves the files of ws, and the rules compiled beside them, as
// they are: the export no longer writes them, and reports them as held.
// Holding the file alone would not do: the hook decides from the rules.
func (r *Result) Hold(ws []Widening) {
	for _, rep := range r.Reports {
		held := func(path string) bool {
			return slices.ContainsFunc(ws, func(w Widening) bool {
				return w.Target == rep.Target && (w.Path == path || rulesPath(w.Path, rep.ext) == path)
			})
		}
		for _, files := range [][]emit.PlannedFile{rep.plan.Files, rep.Files} {
			for i := range files {
				if held(files[i].Path) {
					files[i].Action = emit.Held
				}
			}
		}
	}
}
