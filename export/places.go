package export

import (
	"fmt"
	"path/filepath"

	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/resolver"
)

// checkPlaces refuses an export that writes where bn reads definitions
// (a tool's directory linked to a layer's, --out naming one, a layer
// linked to a tool's directory): the file written would be read back as
// an agent, widening it. It refuses, too, two files of the run that lead
// to one file (two tools' directories linked to one): the last write
// would win, and one tool would read the other's file.
func checkPlaces(reports []*TargetReport, layers []resolver.LayerDir, root string) error {
	show := func(p string) string {
		if rel, err := filepath.Rel(root, p); err == nil && files.Within(root, p) {
			return filepath.ToSlash(rel)
		}
		return p
	}
	type place struct {
		path  string
		title string
	}
	seen := map[string]place{}
	for _, rep := range reports {
		title := rep.d.Info().Title
		real, err := files.Resolve(rep.Dir)
		if err != nil {
			return err
		}
		if l, ok := resolver.InLayer(layers, real); ok {
			return fmt.Errorf("cannot write %s's agents into %s: it leads to %s, inside %s, whose files bn reads as definitions (the files written would widen the agents); "+
				"remove the symlink that joins them, or export elsewhere; nothing was written", title, show(rep.Dir), real, l.Label)
		}
		for _, f := range rep.plan.Files {
			real, err := files.Resolve(f.Path)
			if err != nil {
				return err
			}
			if l, ok := resolver.InLayer(layers, real); ok {
				return fmt.Errorf("cannot write %s for %s: it leads to %s, inside %s, whose files bn reads as definitions (the file written would widen the agent); "+
					"remove the symlink on the way; nothing was written", show(f.Path), title, real, l.Label)
			}
			if o, dup := seen[real]; dup && o.path != f.Path {
				return fmt.Errorf("cannot write %s for %s: it leads to %s, the file %s for %s leads to (a symlink joins their directories), so one tool would read the other's file; "+
					"remove the symlink, so each has its own; nothing was written", show(f.Path), title, real, show(o.path), o.title)
			}
			seen[real] = place{f.Path, title}
		}
	}
	return nil
}
