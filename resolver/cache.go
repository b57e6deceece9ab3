package resolver

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/par"
)

// Cache keeps loaded layers for a long-running process (bn mcp serve) and
// re-reads a layer only when one of its files changed: each Set call
// checks every layer directory by stat (names, sizes, modification
// times), so an edit is seen on the next call, and a file that breaks
// still fails closed. Prompts are read on demand by Agent.Prompt, so a
// changed prompt file is always read afresh.
type Cache struct {
	layers []Layer
	dec    config.Decoder
	loaded []*loadedLayer
	stamps []string
	set    *Set
}

// NewCache returns a cache over the given layers.
func NewCache(layers []Layer, dec config.Decoder) *Cache {
	return &Cache{layers: layers, dec: dec, loaded: make([]*loadedLayer, len(layers)), stamps: make([]string, len(layers))}
}

// Set returns the agents as the layers define them now. It is not safe
// for concurrent use; callers serialise.
func (c *Cache) Set() *Set {
	changed := c.set == nil
	// The layers are stat'ed side by side: the stats are most of a call.
	stamps := make([]string, len(c.layers))
	par.Do(len(c.layers), 1, func(i int) { stamps[i] = fingerprint(c.layers[i]) })
	for i, l := range c.layers {
		stamp := stamps[i]
		if c.loaded[i] != nil && stamp == c.stamps[i] {
			continue
		}
		if c.loaded[i] != nil {
			c.loaded[i].close()
		}
		c.loaded[i], c.stamps[i] = load(l, c.dec), stamp
		changed = true
	}
	if changed {
		c.set = assemble(withSources(c.layers, c.loaded, c.dec))
	}
	return c.set
}

// fingerprint describes a layer directory's files: any change to one of
// them (or to the set of files) changes it. The embedded layer never
// changes.
func fingerprint(l Layer) string {
	if l.fsys != nil {
		return "embedded"
	}
	// Built by hand: this runs on every call, over every file.
	b := make([]byte, 0, 4096)
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		root, err := os.OpenRoot(dir)
		if err != nil {
			b = fmt.Appendf(b, "%s: %v\n", dir, err)
			return
		}
		defer root.Close()
		entries, err := os.ReadDir(dir)
		if err != nil {
			b = fmt.Appendf(b, "%s: %v\n", dir, err)
			return
		}
		for _, e := range entries {
			// Relative to the open directory: the kernel walks one name.
			fi, err := root.Lstat(e.Name())
			if err != nil {
				b = fmt.Appendf(b, "%s: %v\n", e.Name(), err)
				continue
			}
			b = append(b, dir...)
			b = append(b, '/')
			b = append(b, e.Name()...)
			b = append(b, ' ')
			b = strconv.AppendUint(b, uint64(fi.Mode()), 16)
			b = append(b, ' ')
			b = strconv.AppendInt(b, fi.Size(), 10)
			b = append(b, ' ')
			b = strconv.AppendInt(b, fi.ModTime().UnixNano(), 10)
			b = append(b, '\n')
			if e.IsDir() && depth < 2 {
				walk(filepath.Join(dir, e.Name()), depth+1)
			}
		}
	}
	if fi, err := os.Stat(l.Dir); err != nil {
		return "absent: " + err.Error()
	} else if !fi.IsDir() {
		return fmt.Sprintf("not a directory %v", fi.Mode())
	}
	walk(l.Dir, 0)
	return string(b)
}

// close releases the layer's directory handle.
func (ll *loadedLayer) close() {
	if ll.root != nil {
		ll.root.Close()
	}
}
