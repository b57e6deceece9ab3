package emit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/par"
)

// Change is one file change: new content for Path (created or replaced),
// or, with Remove, the file's removal.
type Change struct {
	Path    string
	Content []byte
	Remove  bool
	Perm    os.FileMode // for new files; a replaced file keeps its mode
	// Sync flushes the file and its directory to disk before the change
	// counts as made: for files that cannot be regenerated (a layer's
	// config.kdl and prompts).
	Sync bool
}

// ApplyAll makes every change or none. New contents are first written to
// temporary files beside their targets; only when all are written is
// each renamed over its target, in the order given, so a file is always
// there, old or new, never missing or half-written. A failure undoes what
// was done, writing back the old contents it read first. Removals come
// last. A process killed midway undoes nothing: each file is whole, old
// or new, and its temporary files stay until the next write into their
// directory, or the next plan of it (PlanFiles), clears them. Before
// writing, it clears what an interrupted bn left in those directories.
func ApplyAll(changes []Change) (err error) {
	type step struct {
		Change
		tmp     string
		old     []byte // what the file held, to undo a replace or removal
		oldPerm os.FileMode
		existed bool
		done    bool
	}
	steps := make([]*step, 0, len(changes))
	var madeDirs []string
	defer func() {
		if err == nil {
			return
		}
		// Undo, newest first.
		for i := len(steps) - 1; i >= 0; i-- {
			s := steps[i]
			if s.tmp != "" {
				os.Remove(s.tmp)
			}
			switch {
			case !s.done:
			case s.existed:
				_ = replace(s.Path, s.old, s.oldPerm)
			default:
				os.Remove(s.Path)
			}
		}
		for i := len(madeDirs) - 1; i >= 0; i-- {
			os.Remove(madeDirs[i]) // only if still empty
		}
	}()
	// 1. Read what each change replaces, and write every new content to a
	// temporary file.
	writing := map[string]map[string]bool{} // the names written, by directory
	for _, c := range changes {
		dir := filepath.Dir(c.Path)
		if writing[dir] == nil {
			writing[dir] = map[string]bool{}
		}
		writing[dir][filepath.Base(c.Path)] = true
	}
	cleared := map[string]bool{} // directories cleared, or made
	for _, c := range changes {
		s := &step{Change: c}
		steps = append(steps, s)
		dir := filepath.Dir(c.Path)
		if !cleared[dir] {
			made, err := mkdirAll(dir)
			madeDirs = append(madeDirs, made...)
			if err != nil {
				return fmt.Errorf("cannot create %s: %w", dir, err)
			}
			if err := clearLeftovers(dir, writing[dir]); err != nil {
				return err
			}
			cleared[dir] = true
		}
		fi, statErr := os.Lstat(c.Path)
		switch {
		case statErr == nil && fi.Mode().IsRegular():
			s.existed, s.oldPerm = true, fi.Mode().Perm()
			// Kept in memory to undo the change: a file larger than any bn
			// writes is refused, not read whole.
			if fi.Size() > files.MaxConfigFile {
				return fmt.Errorf("cannot replace %s: it is %d bytes, larger than any file bn writes, too large to keep for undoing a failed write; move it away yourself", c.Path, fi.Size())
			}
			if s.old, err = files.Read(c.Path, files.MaxConfigFile); err != nil {
				return fmt.Errorf("cannot read %s: %w", c.Path, err)
			}
		case statErr == nil && fi.Mode()&fs.ModeSymlink != 0:
			// A link is replaced, never written through; undoing a change
			// to it removes the file that replaced it.
		case statErr == nil:
			return fmt.Errorf("cannot write %s: it is a directory or special file", c.Path)
		case !errors.Is(statErr, os.ErrNotExist):
			return fmt.Errorf("cannot write %s: %w", c.Path, statErr)
		}
	}
	// The new contents are written side by side: creating a file is
	// mostly the kernel's time, and each core can spend it.
	writeErrs := make([]error, len(steps))
	par.Do(len(steps), 32, func(i int) {
		s := steps[i]
		if s.Remove {
			return
		}
		perm := s.Perm
		if perm == 0 {
			perm = 0o644
		}
		if s.existed {
			perm = s.oldPerm // a user's 0600 file stays private
		}
		s.tmp, writeErrs[i] = writeTemp(s.Path, s.Content, perm)
	})
	for _, err := range writeErrs {
		if err != nil {
			return err // the first, in the changes' order
		}
	}
	// What must survive a crash is on disk before any of it is renamed
	// into place: a config.kdl never names a prompt that is not there.
	var durable []string
	for _, s := range steps {
		if s.Sync && s.tmp != "" {
			durable = append(durable, s.tmp)
		}
	}
	if err := flush(durable); err != nil {
		return fmt.Errorf("cannot write %s: %w", durable[0], err)
	}
	synced := map[string]bool{} // directories flushed after the renames
	// 2. Rename each new file over its target, then remove what goes.
	for _, pass := range []bool{false, true} {
		for _, s := range steps {
			if s.Remove != pass {
				continue
			}
			if s.Remove {
				if err := os.Remove(s.Path); err != nil && !errors.Is(err, os.ErrNotExist) {
					return fmt.Errorf("cannot remove %s: %w", s.Path, err)
				}
			} else if err := os.Rename(s.tmp, s.Path); err != nil {
				return fmt.Errorf("cannot write %s: %w", s.Path, err)
			}
			s.tmp, s.done = "", true
		}
	}
	for _, s := range steps {
		if dir := filepath.Dir(s.Path); s.Sync && !synced[dir] {
			synced[dir] = true
			if err := syncDir(dir); err != nil {
				return fmt.Errorf("cannot write %s: %w", s.Path, err)
			}
		}
	}
	return nil
}

// replace writes data to path through a temporary file renamed over it.
func replace(path string, data []byte, perm os.FileMode) error {
	tmp, err := writeTemp(path, data, perm)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return nil
}

// tempMark is in the name of every temporary file bn writes, followed by
// the writing process's id: ".NAME.bn-tmp-PID-RANDOM". Earlier versions
// wrote ".NAME.tmp-PID-RANDOM" (legacyTempMark).
const (
	tempMark       = ".bn-tmp-"
	legacyTempMark = ".tmp-"
)

// writeTemp writes data to a new temporary file beside path.
func writeTemp(path string, data []byte, perm os.FileMode) (string, error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+tempMark+strconv.Itoa(os.Getpid())+"-*")
	if err != nil {
		return "", fmt.Errorf("cannot write in %s: %w", dir, err)
	}
	_, werr := tmp.Write(data)
	cerr := tmp.Close()
	if err := errors.Join(werr, cerr, os.Chmod(tmp.Name(), perm)); err != nil {
		os.Remove(tmp.Name())
		return "", fmt.Errorf("cannot write %s: %w", path, err)
	}
	return tmp.Name(), nil
}

// syncDir flushes a directory's entries, so a rename in it survives a
// crash. Windows refuses to flush a directory handle ("Access denied")
// and needs none: NTFS commits a rename to its journal.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) && !errors.Is(err, errors.ErrUnsupported) {
		return err
	}
	return nil
}

// clearLeftovers removes, from dir, the temporary files of bn processes
// that are no longer running, and settles the ".NAME.bn-old-PID" copies
// that earlier versions of bn moved old files to: put back where NAME is
// missing, else removed. Only names bn made are touched: its own marks
// (".bn-tmp-", ".bn-old-"), and the ".NAME.tmp-PID-N" an earlier version
// made only for a NAME being written now (writing names). A process that
// is still running keeps its files.
func clearLeftovers(dir string, writing map[string]bool) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("cannot read %s: %w", dir, err)
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, ".") || !e.Type().IsRegular() {
			continue
		}
		base, pid, kind := leftover(name)
		if pid == 0 || kind == legacyTemp && !writing[base] || processRunning(pid) {
			continue
		}
		p := filepath.Join(dir, name)
		if kind == backup {
			if _, err := os.Lstat(filepath.Join(dir, base)); errors.Is(err, os.ErrNotExist) {
				if err := os.Rename(p, filepath.Join(dir, base)); err != nil {
					return fmt.Errorf("cannot restore %s from %s: %w", base, name, err)
				}
				continue
			}
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			return fmt.Errorf("cannot remove %s, left by an interrupted bn: %w", p, err)
		}
	}
	return nil
}

// deadTemp says whether name is a temporary file ApplyAll writes
// (".NAME.bn-tmp-PID-N") whose process is no longer running.
func deadTemp(name string) bool {
	_, pid, kind := leftover(name)
	return pid != 0 && kind == temp && !processRunning(pid)
}

// leftoverKind is what a name bn made is.
type leftoverKind int

const (
	temp       leftoverKind = iota // ".NAME.bn-tmp-PID-N"
	legacyTemp                     // ".NAME.tmp-PID-N", as earlier versions named them
	backup                         // ".NAME.bn-old-PID"
)

// leftover parses a name bn gives a temporary file or an old copy; pid is
// 0 for any other name.
func leftover(name string) (base string, pid int, kind leftoverKind) {
	if i := strings.LastIndex(name, ".bn-old-"); i > 1 {
		n, err := strconv.Atoi(name[i+len(".bn-old-"):])
		if err == nil && n > 0 {
			return name[1:i], n, backup
		}
	}
	for _, k := range []struct {
		mark string
		kind leftoverKind
	}{{tempMark, temp}, {legacyTempMark, legacyTemp}} {
		i := strings.LastIndex(name, k.mark)
		if i <= 1 {
			continue
		}
		pidText, random, ok := strings.Cut(name[i+len(k.mark):], "-")
		n, err := strconv.Atoi(pidText)
		if _, rerr := strconv.ParseUint(random, 10, 64); ok && err == nil && rerr == nil && n > 0 {
			return name[1:i], n, k.kind
		}
		return "", 0, 0
	}
	return "", 0, 0
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

// fsyncEach flushes each file's content to disk.
func fsyncEach(paths []string) error {
	for _, p := range paths {
		f, err := os.OpenFile(p, os.O_RDWR, 0)
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return err
		}
	}
	return nil
}
