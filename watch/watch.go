package watch

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Quiet is how long changes must stop before the job runs: an editor's
// save, or a tool writing several files, is a burst of events.
const Quiet = 200 * time.Millisecond

// Run runs job, then runs it again after each burst of changes under the
// directories roots returns, until ctx is done. roots is asked again
// before each run, since what is watched may change with what was read. A
// job runs to its end: Run returns once ctx is done and no job is running,
// and a job is given ctx to decide whether to start what it must not
// leave half done.
func Run(ctx context.Context, roots func() []string, quiet time.Duration, job func(context.Context)) error {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("cannot watch for changes: %w", err)
	}
	defer w.Close()
	var watched []string
	for {
		dirs := roots()
		// Watch before the job reads, so that no change after its read
		// goes unseen.
		if watched, err = rewatch(w, watched, dirs); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
		job(ctx)
		if !wait(ctx, w, dirs, quiet) {
			return nil
		}
	}
}

// wait returns once changes under dirs have stopped for quiet, or false
// when ctx is done first.
func wait(ctx context.Context, w *fsnotify.Watcher, dirs []string, quiet time.Duration) bool {
	var timer <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			return false
		case ev, ok := <-w.Events:
			if !ok {
				return false
			}
			if relevant(ev.Name, dirs) {
				timer = time.After(quiet)
			}
		case _, ok := <-w.Errors:
			if !ok {
				return false
			}
			// Events were lost (a full queue): run again, as for a change.
			timer = time.After(quiet)
		case <-timer:
			return true
		}
	}
}

// relevant says whether a change at path can change what is under dirs:
// it is inside one, or on the way to one (a parent created, removed or
// renamed).
func relevant(path string, dirs []string) bool {
	return slices.ContainsFunc(dirs, func(d string) bool { return within(d, path) || within(path, d) })
}

// within says whether path is dir or inside it.
func within(dir, path string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// rewatch watches afresh every directory under dirs and the nearest
// existing parent of each, and stops watching what it watched before. A
// directory put in another's place is a new directory: a watch of the
// path it replaced followed the old one away.
func rewatch(w *fsnotify.Watcher, old, dirs []string) ([]string, error) {
	for _, d := range old {
		_ = w.Remove(d) // gone with its directory, or watched again below
	}
	var now []string
	add := func(d string) error {
		if slices.Contains(now, d) {
			return nil
		}
		if err := w.Add(d); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed since it was listed: its parent's event runs the job again
			}
			return fmt.Errorf("cannot watch %s: %w", d, err)
		}
		now = append(now, d)
		return nil
	}
	for _, root := range dirs {
		parent := filepath.Dir(root)
		for !isDir(parent) && filepath.Dir(parent) != parent {
			parent = filepath.Dir(parent)
		}
		if err := add(parent); err != nil {
			return now, err
		}
		if isDir(root) { // a link to a directory, which WalkDir does not follow
			if err := add(root); err != nil {
				return now, err
			}
		}
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			switch {
			case err != nil && errors.Is(err, fs.ErrNotExist):
				return filepath.SkipDir
			case err != nil:
				return err
			case d.IsDir():
				return add(path)
			}
			return nil
		})
		if err != nil {
			return now, fmt.Errorf("cannot watch %s: %w", root, err)
		}
	}
	return now, nil
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
