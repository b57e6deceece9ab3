package resolver

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"time"

	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/files"
)

// Cache keeps loaded layers for a long-running process (bn mcp serve) and
// re-reads a layer only when one of its files changed: each Set call
// checks every layer directory by stat (names, sizes, inodes and change
// times), so an edit is seen on the next call, and a file that breaks
// still fails closed. Prompts are read on demand by Agent.Prompt, so a
// changed prompt file is always read afresh: the prompt files a loaded
// config.kdl names are only listed, not stat'ed, and a directory is
// listed again only when its own stat says its entries changed.
type Cache struct {
	layers   []Layer
	dec      config.Decoder
	loaded   []*loadedLayer
	stamps   []stamp    // each layer as it was when loaded
	listings []listings // each layer's directories as last listed
	set      *Set
}

// NewCache returns a cache over the given layers.
func NewCache(layers []Layer, dec config.Decoder) *Cache {
	n := len(layers)
	c := &Cache{layers: layers, dec: dec, loaded: make([]*loadedLayer, n), stamps: make([]stamp, n), listings: make([]listings, n)}
	for i := range c.listings {
		c.listings[i] = listings{}
	}
	return c
}

// Set returns the agents as the layers define them now. It is not safe
// for concurrent use; callers serialise. A layer reloaded while it is
// rewritten is reloaded again, as LoadSteady does, and fails closed when
// it does not settle.
func (c *Cache) Set() *Set {
	changed := c.set == nil
	start := time.Now()
	for {
		// One layer after another: with directories listed only when they
		// change, a layer's stamp is a few stats, less than waking a
		// second thread would cost.
		var reloaded []int
		for i, l := range c.layers {
			st := takeStamp(l, c.loaded[i].prompts(), c.listings[i])
			if c.loaded[i] != nil && st.holds(c.stamps[i], c.loaded[i].prompts()) {
				continue
			}
			c.loaded[i], c.stamps[i] = load(l, c.dec), st
			reloaded = append(reloaded, i)
			changed = true
		}
		unsteady, wait := -1, time.Duration(0)
		for _, i := range reloaded {
			if !c.loaded[i].still() {
				unsteady = i
				break
			}
		}
		if unsteady < 0 {
			unsteady, wait = unquiet(c.loaded)
		}
		if unsteady < 0 {
			break
		}
		if time.Since(start)+wait > steadyBudget {
			c.loaded[unsteady].failf(configFile, "kept changing while bn read it, for %v: the %s layer is being rewritten, and bn answers nothing from a layer caught half-written; ask again once it is written",
				steadyBudget, c.layers[unsteady].Name)
			c.stamps[unsteady] = stamp{dir: "unsteady"} // read again next time
			break
		}
		c.stamps[unsteady] = stamp{dir: "unsteady"}
		time.Sleep(wait)
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

// settleTime is how long after its last change an entry's stat is
// trusted to show the next change. File systems stamp changes with a
// coarse clock (a few milliseconds on Linux, two seconds on FAT), so a
// second change in the same tick as one already seen leaves the same
// stat; an entry changed more recently than this is taken as changed
// again, at the cost of a re-read while it settles.
const settleTime = 2 * time.Second

// listings are a layer's directories as last listed, by their path in the
// layer.
type listings map[string]listing

// listing is a directory's entries, with the directory's identity and
// change stamp when they were listed: a directory's change time moves
// whenever an entry is added, removed or renamed.
type listing struct {
	stat    string
	entries []listed
}

// listed is one entry of a listing, with its path in the layer.
type listed struct {
	name, rel string
	kind      fs.FileMode // the type bits
}

// takeStamp stamps a layer directory. The files named in prompts (paths
// relative to the layer) are listed with their type but not stat'ed, and
// a directory whose stat has not changed since it was last listed, in
// seen, is not listed again. The embedded layer never changes.
func takeStamp(l Layer, prompts map[string]bool, seen listings) stamp {
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
	now := time.Now()
	var walk func(dir, rel string, fi fs.FileInfo, depth int)
	walk = func(dir, rel string, fi fs.FileInfo, depth int) {
		entries, err := seen.list(dir, rel, fi, now)
		if err != nil {
			st.entries = append(st.entries, stampEntry{rel: rel, kind: fs.ModeIrregular, stat: err.Error()})
			return
		}
		for _, e := range entries {
			se := stampEntry{rel: e.rel, kind: e.kind}
			if prompts[se.rel] && se.kind.IsRegular() {
				st.entries = append(st.entries, se)
				continue
			}
			name := filepath.Join(dir, e.name)
			fi, err := os.Lstat(name)
			if err != nil {
				se.stat = err.Error()
			} else if now.Sub(fi.ModTime()) >= settleTime {
				// Left empty while it settles: an empty stat never holds.
				se.stat = entryStat(fi)
			}
			st.entries = append(st.entries, se)
			if err == nil && fi.IsDir() && depth < 2 {
				walk(name, se.rel, fi, depth+1)
			}
		}
	}
	walk(l.Dir, "", fi, 0)
	return st
}

// list returns dir's entries: those listed before if dir's stat, fi, is
// what it was then and had settled, else a new listing.
func (seen listings) list(dir, rel string, fi fs.FileInfo, now time.Time) ([]listed, error) {
	stat := files.Identity(fi) + " " + files.ChangeStamp(fi)
	if l, ok := seen[rel]; ok && l.stat == stat {
		return l.entries, nil
	}
	dirEntries, err := os.ReadDir(dir)
	if err != nil {
		delete(seen, rel)
		return nil, err
	}
	entries := make([]listed, len(dirEntries))
	for i, e := range dirEntries {
		entries[i] = listed{name: e.Name(), rel: path.Join(rel, e.Name()), kind: e.Type()}
	}
	if now.Sub(fi.ModTime()) < settleTime {
		stat = "" // listed again next time: a change in the same tick would not show
	}
	seen[rel] = listing{stat: stat, entries: entries}
	return entries, nil
}

// entryStat is an entry's mode, size, and change stamp, built by hand: it
// runs on every call, over every file that is not a prompt. The change
// time, not the modification time, which a tool may set back: a file
// replaced by one of the same size and time is still seen.
func entryStat(fi fs.FileInfo) string {
	b := make([]byte, 0, 48)
	b = strconv.AppendUint(b, uint64(fi.Mode()), 16)
	b = append(b, ' ')
	b = strconv.AppendInt(b, fi.Size(), 10)
	b = append(b, ' ')
	b = append(b, files.ChangeStamp(fi)...)
	return string(b)
}
