package emit

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Change is one file change: new content for Path (created or replaced),
// or, with Remove, the file's removal.
type Change struct {
	Path    string
	Content []byte
	Remove  bool
	Perm    os.FileMode // for new files; a replaced file keeps its mode
}

// ApplyAll makes every change or none. New contents are first written to
// temporary files beside their targets; only when all are written are the
// targets moved aside and the new files renamed into place, and any
// failure then puts back what was moved. Readers see each file either old
// or new, never half-written. (A crash in the middle of the renames can
// leave a ".bn-old-*" copy of an old file beside it.)
func ApplyAll(changes []Change) (err error) {
	type step struct {
		path, tmp, backup string
		existed, placed   bool
	}
	steps := make([]*step, 0, len(changes))
	var madeDirs []string
	defer func() {
		if err == nil {
			for _, s := range steps {
				if s.backup != "" {
					os.Remove(s.backup)
				}
			}
			return
		}
		// Undo, newest first.
		for i := len(steps) - 1; i >= 0; i-- {
			s := steps[i]
			if s.placed {
				os.Remove(s.path)
			}
			if s.backup != "" {
				os.Rename(s.backup, s.path)
			}
			if s.tmp != "" {
				os.Remove(s.tmp)
			}
		}
		for i := len(madeDirs) - 1; i >= 0; i-- {
			os.Remove(madeDirs[i]) // only if still empty
		}
	}()
	// 1. Write every new content to a temporary file.
	ready := map[string]bool{} // directories that exist or were made
	for _, c := range changes {
		s := &step{path: c.Path}
		steps = append(steps, s)
		fi, statErr := os.Lstat(c.Path)
		s.existed = statErr == nil
		if statErr != nil && !errors.Is(statErr, os.ErrNotExist) {
			return fmt.Errorf("cannot write %s: %w", c.Path, statErr)
		}
		if c.Remove {
			continue
		}
		dir := filepath.Dir(c.Path)
		if !ready[dir] {
			made, err := mkdirAll(dir)
			madeDirs = append(madeDirs, made...)
			if err != nil {
				return fmt.Errorf("cannot create %s: %w", dir, err)
			}
			ready[dir] = true
		}
		perm := c.Perm
		if perm == 0 {
			perm = 0o644
		}
		if s.existed && fi.Mode().IsRegular() {
			perm = fi.Mode().Perm() // a user's 0600 file stays private
		}
		tmp, err := os.CreateTemp(dir, "."+filepath.Base(c.Path)+".tmp-*")
		if err != nil {
			return fmt.Errorf("cannot write in %s: %w", dir, err)
		}
		s.tmp = tmp.Name()
		_, werr := tmp.Write(c.Content)
		cerr := tmp.Close()
		if err := errors.Join(werr, cerr, os.Chmod(s.tmp, perm)); err != nil {
			return fmt.Errorf("cannot write %s: %w", c.Path, err)
		}
	}
	// 2. Move old files aside and the new ones in.
	for _, s := range steps {
		if s.existed {
			s.backup = filepath.Join(filepath.Dir(s.path), "."+filepath.Base(s.path)+".bn-old-"+fmt.Sprint(os.Getpid()))
			if err := os.Rename(s.path, s.backup); err != nil {
				s.backup = ""
				return fmt.Errorf("cannot replace %s: %w", s.path, err)
			}
		}
		if s.tmp != "" {
			if err := os.Rename(s.tmp, s.path); err != nil {
				return fmt.Errorf("cannot write %s: %w", s.path, err)
			}
			s.tmp, s.placed = "", true
		}
	}
	return nil
}

// mkdirAll creates dir and missing parents, returning those it created,
// outermost first.
func mkdirAll(dir string) ([]string, error) {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		}
		missing = append([]string{d}, missing...)
		if filepath.Dir(d) == d {
			break
		}
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	return missing, nil
}
