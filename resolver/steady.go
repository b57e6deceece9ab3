package resolver

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"time"

	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/files"
)

// QuietTime is how long a layer directory without a config.kdl must have
// been left alone before LoadSteady reads the file as removed: until then
// it may be between a config.kdl's removal and its new copy. A rewrite
// that stalls longer than this between the two is a removal, to bn.
const QuietTime = 500 * time.Millisecond

// steadyBudget is how long loads may keep seeing changes before the set
// fails closed.
const steadyBudget = time.Second

// LoadSteady is Load, made again while the layer files change as they
// are read: a load that saw a file caught in the middle of a rewrite
// (removed before its new copy is made, or cut short) must not answer,
// since a config.kdl missing or cut gives every agent it narrows its
// wider self back. A load counts when each layer directory lists, once it
// is done, the entries the load read and a config.kdl of the size it
// read, neither the directory nor its config.kdl changed meanwhile, and a
// directory without a config.kdl, or an empty config.kdl, has been quiet
// for QuietTime. While loads keep seeing changes for steadyBudget, the set
// fails closed.
func LoadSteady(layers []Layer, dec config.Decoder) *Set {
	start := time.Now()
	for {
		before, settled := quickStamp(layers, time.Now())
		loaded := loadEach(layers, dec)
		after, _ := quickStamp(layers, time.Now())
		changed := slices.IndexFunc(layers, func(l Layer) bool { return before[l.Dir] != after[l.Dir] })
		if changed < 0 {
			// A settled layer's unchanged stamps are proof enough; the
			// listing is read again only where they may hide a change.
			changed = slices.IndexFunc(loaded, func(ll *loadedLayer) bool { return !settled[ll.Dir] && !ll.still() })
		}
		var wait time.Duration
		if changed < 0 {
			changed, wait = unquiet(loaded)
		}
		if changed < 0 {
			return assemble(withSources(layers, loaded, dec))
		}
		if time.Since(start)+wait > steadyBudget {
			loaded[changed].failf(configFile, "kept changing while bn read it, for %v: the %s layer is being rewritten, and bn answers nothing from a layer caught half-written; run the command again once it is written",
				steadyBudget, layers[changed].Name)
			return assemble(withSources(layers, loaded, dec))
		}
		time.Sleep(wait)
	}
}

// unquiet finds a loaded layer that read no config.kdl from a directory
// that changed less than QuietTime ago, or an empty one that changed
// that recently, and how long until it has been quiet that long.
func unquiet(loaded []*loadedLayer) (int, time.Duration) {
	for i, ll := range loaded {
		path := ll.Dir
		switch {
		case ll.Dir == "" || !ll.onDisk:
			continue
		case ll.emptyKDL:
			path = filepath.Join(ll.Dir, configFile)
		case ll.kdl != nil:
			continue
		}
		fi, err := os.Stat(path)
		if err != nil {
			return i, time.Millisecond
		}
		if age := time.Since(files.ChangeTime(fi)); age < QuietTime {
			return i, QuietTime - age
		}
	}
	return -1, 0
}

// still says whether the layer directory holds what the load saw.
func (ll *loadedLayer) still() bool {
	switch {
	case ll.Dir == "":
		return true // compiled in
	case !ll.onDisk:
		_, err := os.Lstat(ll.Dir)
		return ll.seen == "" && err != nil // absent then, absent now
	}
	entries, err := os.ReadDir(ll.Dir)
	if err != nil {
		return false
	}
	size := int64(-1)
	if slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return e.Name() == configFile }) {
		size = configSize(ll.Dir)
	}
	return seenOf(entries, size) == ll.seen
}

// configSize is the size of dir's config.kdl, its link followed, as still
// sees it; -2 when it cannot be looked at (a link that leads nowhere).
func configSize(dir string) int64 {
	fi, err := os.Stat(filepath.Join(dir, configFile))
	if err != nil {
		return -2
	}
	return fi.Size()
}

// seenOf is a directory's entries as a load sees them: their names, and
// the size of the config.kdl it read (-1: none read).
func seenOf(entries []fs.DirEntry, configSize int64) string {
	var b []byte
	for _, e := range entries {
		b = append(b, e.Name()...)
		b = append(b, '/')
	}
	return string(strconv.AppendInt(b, configSize, 10))
}

// quickStamp is what a rewrite changes in each layer on disk, cheaply: the
// directory's identity and change time (an entry added, removed or
// renamed) and its config.kdl's identity, size and change time.
//
// A layer is settled when its stamps show any change after they were
// taken: change times are kept by the system (files.ChangeTimes), the
// directory is there, it and its config.kdl are no symlinks (whose own
// stamps say nothing of what they lead to), and both last changed more
// than settleTime before now.
func quickStamp(layers []Layer, now time.Time) (stamps map[string]string, settled map[string]bool) {
	stamps, settled = make(map[string]string, len(layers)), make(map[string]bool, len(layers))
	old := now.Add(-settleTime)
	for _, l := range layers {
		if l.Dir == "" {
			continue // compiled in
		}
		var b []byte
		settled[l.Dir] = files.ChangeTimes
		for _, p := range []string{l.Dir, filepath.Join(l.Dir, configFile)} {
			fi, err := os.Lstat(p)
			if err != nil {
				b = append(b, "- "...)
				settled[l.Dir] = settled[l.Dir] && p != l.Dir
				continue
			}
			if fi.Mode()&fs.ModeSymlink != 0 || !files.ChangeTime(fi).Before(old) {
				settled[l.Dir] = false
			}
			b = append(b, files.Identity(fi)...)
			b = append(b, ' ')
			b = strconv.AppendInt(b, fi.Size(), 10)
			b = append(b, ' ')
			b = append(b, files.ChangeStamp(fi)...)
			b = append(b, ' ')
		}
		stamps[l.Dir] = string(b)
	}
	return stamps, settled
}
