package resolver

import (
	"fmt"

	"github.com/binnacle-dev/bn/files"
)

// LayerDir is a directory bn reads definitions from, resolved.
type LayerDir struct {
	Label string // how the user knows it: the project layer, or its path
	Dir   string // as configured
	Real  string // every symlink followed (files.Resolve)
}

// LayerDirs are the directories of the layers bn reads, each resolved: a
// file written into one is read back as a definition.
func LayerDirs(layers []Layer) ([]LayerDir, error) {
	var out []LayerDir
	for _, l := range layers {
		if l.Dir == "" {
			continue
		}
		real, err := files.Resolve(l.Dir)
		if err != nil {
			return nil, err
		}
		out = append(out, LayerDir{Label: fmt.Sprintf("the %s layer's directory %s", l.Name, l.Label), Dir: l.Dir, Real: real})
	}
	return out, nil
}

// InLayer returns the layer directory the resolved path real is, or is
// inside.
func InLayer(dirs []LayerDir, real string) (LayerDir, bool) {
	for _, d := range dirs {
		if files.Within(d.Real, real) {
			return d, true
		}
	}
	return LayerDir{}, false
}
