package resolver

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"

	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/par"
)

// Cache keeps loaded layers for a long-running process (bn mcp serve) and
// re-reads a layer only when one of its files changed: each Set call
// checks every layer directory by stat (names, sizes, inodes and change
// times), so an edit is seen on the next call, and a file that breaks
// still fails closed. Prompts are read on demand by Agent.Prompt, so a
// changed prompt file is always read afresh: the prompt files a loaded
// config.kdl names are only listed, not stat'ed.
type Cache struct {
	layers []Layer
	dec    config.Decoder
	loaded []*loadedLayer
	stamps []stamp // each layer as it was when loaded
	set    *Set
}

// NewCache returns a cache over the given layers.
func NewCache(layers []Layer, dec config.Decoder) *Cache {
	return &Cache{layers: layers, dec: dec, loaded: make([]*loadedLayer, len(layers)), stamps: make([]stamp, len(layers))}
}

// Set returns the agents as the layers define them now. It is not safe
// for concurrent use; callers serialise.
func (c *Cache) Set() *Set {
	changed := c.set == nil
	// The layers are stat'ed side by side: the stats are most of a call.
	stamps := make([]stamp, len(c.layers))
	par.Do(len(c.layers), 1, func(i int) { stamps[i] = takeStamp(c.layers[i], c.loaded[i].prompts()) })
	for i, l := range c.layers {
		if c.loaded[i] != nil && stamps[i].holds(c.stamps[i], c.loaded[i].prompts()) {
			continue
		}
		if c.loaded[i] != nil {
			c.loaded[i].close()
		}
		c.loaded[i], c.stamps[i] = load(l, c.dec), stamps[i]
		changed = true
	}
	if changed {
		c.set = assemble(withSources(c.layers, c.loaded, c.dec))
	}
	return c.set
}

// prompts are the layer's prompt files, none before it is loaded.
func (ll *loadedLayer) prompts() map[string]bool {
	if ll == nil {
		return nil
	}
	return ll.promptFiles
}

// stamp describes a layer directory: the directory itself, then each file
// and directory in it (two levels down) by its path in the layer.
type stamp struct {
	dir     string
	entries []stampEntry
}

type stampEntry struct {
	rel  string
	kind fs.FileMode // the type bits
	// stat is the mode, size, inode and change time, or why the entry
	// could not be stat'ed; empty for a prompt file that was only listed.
	stat string
}

// holds says whether a layer loaded when it looked like old is still
// current now that it looks like s: the same files, each unchanged, except
// that a prompt file of the loaded layer need only still be a file (its
// contents are read on demand).
func (s stamp) holds(old stamp, prompts map[string]bool) bool {
	if s.dir != old.dir || len(s.entries) != len(old.entries) {
		return false
	}
	for i, e := range s.entries {
		o := old.entries[i]
		switch {
		case e.rel != o.rel || e.kind != o.kind:
			return false
		case prompts[e.rel] && e.kind.IsRegular():
		case e.stat == "" || e.stat != o.stat:
			return false
		}
	}
	return true
}

// takeStamp stamps a layer directory. The files named in prompts (paths
// relative to the layer) are listed with their type but not stat'ed. The
// embedded layer never changes.
func takeStamp(l Layer, prompts map[string]bool) stamp {
	if l.fsys != nil {
		return stamp{dir: "embedded"}
	}
	fi, err := os.Stat(l.Dir)
	if err != nil {
		return stamp{dir: "absent: " + err.Error()}
	} else if !fi.IsDir() {
		return stamp{dir: fmt.Sprintf("not a directory %v", fi.Mode())}
	}
	var st stamp
	// A directory put in the place of another is another: a loaded layer
	// still reads prompts through the one it opened.
	st.dir = files.Identity(fi)
	var walk func(dir, rel string, depth int)
	walk = func(dir, rel string, depth int) {
		root, err := os.OpenRoot(dir)
		if err != nil {
			st.entries = append(st.entries, stampEntry{rel: rel, kind: fs.ModeIrregular, stat: err.Error()})
			return
		}
		defer root.Close()
		entries, err := os.ReadDir(dir)
		if err != nil {
			st.entries = append(st.entries, stampEntry{rel: rel, kind: fs.ModeIrregular, stat: err.Error()})
			return
		}
		for _, e := range entries {
			se := stampEntry{rel: path.Join(rel, e.Name()), kind: e.Type()}
			if prompts[se.rel] && se.kind.IsRegular() {
				st.entries = append(st.entries, se)
				continue
			}
			// Relative to the open directory: the kernel walks one name.
			if fi, err := root.Lstat(e.Name()); err != nil {
				se.stat = err.Error()
			} else {
				// Built by hand: this runs on every call, over every file.
				b := make([]byte, 0, 48)
				b = strconv.AppendUint(b, uint64(fi.Mode()), 16)
				b = append(b, ' ')
				b = strconv.AppendInt(b, fi.Size(), 10)
				b = append(b, ' ')
				// The change time, not the modification time, which a
				// tool may set back: a file replaced by one of the same
				// size and time is still seen.
				b = append(b, files.ChangeStamp(fi)...)
				se.stat = string(b)
			}
			st.entries = append(st.entries, se)
			if e.IsDir() && depth < 2 {
				walk(filepath.Join(dir, e.Name()), se.rel, depth+1)
			}
		}
	}
	walk(l.Dir, "", 0)
	return st
}

// close releases the layer's directory handle.
func (ll *loadedLayer) close() {
	if ll.root != nil {
		ll.root.Close()
	}
}
