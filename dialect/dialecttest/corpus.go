package dialecttest

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
)

// Agent is one agent as bn read it from a tool's file.
type Agent struct {
	From string // where it came from
	Tool string // the tool whose file it was
	Def  agents.Definition
}

// Corpus reads every agent file under root (the repository's
// testdata/corpus: real public collections), each with the reader of the
// tool it is written for, sorted by path. Files a tool would not load
// either are left out; READMEs are not agents.
func Corpus(root string, cat *agents.Catalog) []Agent {
	reg := dialect.All()
	var out []Agent
	filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || strings.EqualFold(e.Name(), "README.md") {
			return nil
		}
		if ext := filepath.Ext(p); ext != ".md" && ext != ".toml" {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		d := reg.Detect(p, data)
		im, err := d.Read(dialect.Source{Path: p, Rel: filepath.Base(p), Data: data}, cat)
		if err != nil {
			return nil
		}
		out = append(out, Agent{From: filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator))), Tool: d.Info().Name, Def: im.Def})
		return nil
	})
	slices.SortFunc(out, func(a, b Agent) int { return strings.Compare(a.From, b.From) })
	return out
}
