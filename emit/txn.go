package emit

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
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
	// Base is the directory Path's directories are opened from, without
	// leaving it (ApplyIn's base when empty): one write may span several,
	// each opened once.
	Base string
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
//
// Each directory is opened once, and every file in it is created,
// renamed and removed through that handle: a directory swapped for a
// symlink midway cannot redirect the writes.
func ApplyAll(changes []Change) error { return ApplyIn("", changes) }

// ApplyIn is ApplyAll for changes inside base, whose directories are
// opened from base without leaving it: a directory on the way swapped
// for a symlink that leads out of base, after the plan checked it, fails
// the write instead of redirecting it. An empty base opens each directory
// by its path; a change's own Base is its base instead.
func ApplyIn(base string, changes []Change) (err error) {
	type step struct {
		Change
		dir     *os.Root
		name    string // the file's name in dir
		tmp     string // the temporary file's name in dir
		old     []byte // what the file held, to undo a replace or removal
		oldPerm os.FileMode
		existed bool
		done    bool
	}
	steps := make([]*step, 0, len(changes))
	ds, err := openDirs(base)
	if err != nil {
		return err
	}
	defer func() {
		ds.close()
		if err != nil {
			ds.removeBase() // after the handles in it are closed
		}
	}()
	defer func() {
		if err == nil {
			return
		}
		// Undo, newest first.
		for i := len(steps) - 1; i >= 0; i-- {
			s := steps[i]
			if s.tmp != "" {
				s.dir.Remove(s.tmp)
			}
			switch {
			case !s.done:
			case s.existed:
				_ = replace(s.dir, s.name, s.Path, s.old, s.oldPerm)
			default:
				s.dir.Remove(s.name)
			}
		}
		ds.removeMade() // only those still empty
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
		s := &step{Change: c, name: filepath.Base(c.Path)}
		steps = append(steps, s)
		dir := filepath.Dir(c.Path)
		if s.dir, err = ds.get(cmp.Or(c.Base, base), dir); err != nil {
			return err
		}
		if !cleared[dir] {
			if err := clearLeftovers(s.dir, dir, writing[dir]); err != nil {
				return err
			}
			cleared[dir] = true
		}
		fi, statErr := s.dir.Lstat(s.name)
		switch {
		case statErr == nil && fi.Mode().IsRegular():
			s.existed, s.oldPerm = true, fi.Mode().Perm()
			// Kept in memory to undo the change: a file larger than any bn
			// writes is refused, not read whole.
			if fi.Size() > files.MaxConfigFile {
				return fmt.Errorf("cannot replace %s: it is %d bytes, larger than any file bn writes, too large to keep for undoing a failed write; move it away yourself", c.Path, fi.Size())
			}
			if s.old, err = files.ReadIn(s.dir, s.name, files.MaxConfigFile); err != nil {
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
		s.tmp, writeErrs[i] = writeTemp(s.dir, s.name, s.Path, s.Content, perm)
	})
	for _, err := range writeErrs {
		if err != nil {
			return err // the first, in the changes' order
		}
	}
	// What must survive a crash is on disk before any of it is renamed
	// into place: a config.kdl never names a prompt that is not there.
	var durable []tempFile
	for _, s := range steps {
		if s.Sync && s.tmp != "" {
			durable = append(durable, tempFile{s.dir, s.tmp, s.Path})
		}
	}
	if err := flush(durable); err != nil {
		return fmt.Errorf("cannot write %s: %w", durable[0].path, err)
	}
	synced := map[*os.Root]bool{} // directories flushed after the renames
	// 2. Rename each new file over its target, then remove what goes.
	for _, pass := range []bool{false, true} {
		for _, s := range steps {
			if s.Remove != pass {
				continue
			}
			if s.Remove {
				if err := s.dir.Remove(s.name); err != nil && !errors.Is(err, os.ErrNotExist) {
					return fmt.Errorf("cannot remove %s: %w", s.Path, err)
				}
			} else if err := s.dir.Rename(s.tmp, s.name); err != nil {
				return fmt.Errorf("cannot write %s: %w", s.Path, err)
			}
			s.tmp, s.done = "", true
		}
	}
	for _, s := range steps {
		if s.Sync && !synced[s.dir] {
			synced[s.dir] = true
			if err := syncDir(s.dir); err != nil {
				return fmt.Errorf("cannot write %s: %w", s.Path, err)
			}
		}
	}
	return nil
}

// dirs are the directories a write opened, each once, and those it made.
type dirs struct {
	bases map[string]*os.Root // the bases opened, by path
	open  map[string]*os.Root // the directories opened, by path
	made  []madeDir           // outermost first
	// madeBase are bases and their parents, made for the write.
	madeBase []string
}

// madeDir is a directory a write made: rel inside base, or the path rel
// when base is nil.
type madeDir struct {
	base *os.Root
	rel  string
}

// removeBase removes the directories made for the bases, innermost
// first, if empty.
func (ds *dirs) removeBase() {
	for i := len(ds.madeBase) - 1; i >= 0; i-- {
		os.Remove(ds.madeBase[i])
	}
}

// openDirs opens base (made if missing: --out names a directory bn
// makes), unless it is "".
func openDirs(base string) (*dirs, error) {
	ds := &dirs{bases: map[string]*os.Root{}, open: map[string]*os.Root{}}
	if base == "" {
		return ds, nil
	}
	if _, err := ds.base(base); err != nil {
		ds.removeBase()
		return nil, err
	}
	return ds, nil
}

// base opens base once, made first with any missing parents.
func (ds *dirs) base(base string) (*os.Root, error) {
	if r := ds.bases[base]; r != nil {
		return r, nil
	}
	made, err := mkdirAll(base)
	ds.madeBase = append(ds.madeBase, made...)
	if err != nil {
		return nil, fmt.Errorf("cannot create %s: %w", base, err)
	}
	r, err := os.OpenRoot(base)
	if err != nil {
		return nil, fmt.Errorf("cannot open %s: %w", base, err)
	}
	ds.bases[base] = r
	return r, nil
}

// get opens dir, made first with any missing parents, from base without
// leaving it ("": by its path).
func (ds *dirs) get(baseDir, dir string) (*os.Root, error) {
	if r := ds.open[dir]; r != nil {
		return r, nil
	}
	var r *os.Root
	if baseDir == "" {
		made, err := mkdirAll(dir)
		for _, m := range made {
			ds.made = append(ds.made, madeDir{rel: m})
		}
		if err == nil {
			r, err = os.OpenRoot(dir)
		}
		if err != nil {
			return nil, fmt.Errorf("cannot create %s: %w", dir, err)
		}
	} else {
		rel, err := filepath.Rel(baseDir, dir)
		if err != nil || !filepath.IsLocal(rel) && rel != "." {
			return nil, fmt.Errorf("cannot write in %s: it is not inside %s", dir, baseDir)
		}
		base, err := ds.base(baseDir)
		if err != nil {
			return nil, err
		}
		var missing []madeDir
		for p := rel; p != "."; p = filepath.Dir(p) {
			if _, err := base.Lstat(p); err == nil {
				break
			}
			missing = append([]madeDir{{base, p}}, missing...)
		}
		err = base.MkdirAll(rel, 0o755)
		if err == nil {
			ds.made = append(ds.made, missing...)
			r, err = base.OpenRoot(rel)
		}
		if err != nil {
			return nil, dirError(baseDir, dir, err)
		}
	}
	ds.open[dir] = r
	return r, nil
}

// dirError says why dir, inside base, could not be made or opened.
func dirError(base, dir string, err error) error {
	err = files.OpenError(err)
	if errors.Is(err, files.ErrOutside) {
		return fmt.Errorf("cannot write in %s: a symlink on the way leads out of %s; bn writes only inside it: remove the link; nothing was written", dir, base)
	}
	return fmt.Errorf("cannot write in %s: it %w; nothing was written", dir, err)
}

// removeMade removes the directories made, innermost first, if empty.
// The handles opened in them are closed first: Windows removes no
// directory a handle holds open.
func (ds *dirs) removeMade() {
	for dir, r := range ds.open {
		r.Close()
		delete(ds.open, dir)
	}
	for i := len(ds.made) - 1; i >= 0; i-- {
		if m := ds.made[i]; m.base != nil {
			m.base.Remove(m.rel)
		} else {
			os.Remove(m.rel)
		}
	}
}

func (ds *dirs) close() {
	for _, r := range ds.open {
		r.Close()
	}
	for _, r := range ds.bases {
		r.Close()
	}
}

// replace writes data to name in dir (path, for messages) through a
// temporary file renamed over it.
func replace(dir *os.Root, name, path string, data []byte, perm os.FileMode) error {
	tmp, err := writeTemp(dir, name, path, data, perm)
	if err != nil {
		return err
	}
	if err := dir.Rename(tmp, name); err != nil {
		dir.Remove(tmp)
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

// writeTemp writes data to a new temporary file beside name in dir
// (path, for messages), and returns the temporary file's name.
func writeTemp(dir *os.Root, name, path string, data []byte, perm os.FileMode) (string, error) {
	prefix := "." + name + tempMark + strconv.Itoa(os.Getpid()) + "-"
	var f *os.File
	var tmp string
	var err error
	for range 100 {
		tmp = prefix + strconv.FormatUint(uint64(rand.Uint32()), 10)
		if f, err = dir.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600); !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return "", fmt.Errorf("cannot write in %s: %w", filepath.Dir(path), err)
	}
	_, werr := f.Write(data)
	if err := errors.Join(werr, f.Chmod(perm), f.Close()); err != nil {
		dir.Remove(tmp)
		return "", fmt.Errorf("cannot write %s: %w", path, err)
	}
	return tmp, nil
}

// syncDir flushes a directory's entries, so a rename in it survives a
// crash. Windows refuses to flush a directory handle ("Access denied")
// and needs none: NTFS commits a rename to its journal.
func syncDir(dir *os.Root) error {
	if runtime.GOOS == "windows" {
		return nil
	}
	d, err := dir.Open(".")
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
func clearLeftovers(root *os.Root, dir string, writing map[string]bool) error {
	entries, err := fs.ReadDir(root.FS(), ".")
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
			if _, err := root.Lstat(base); errors.Is(err, os.ErrNotExist) {
				if err := root.Rename(name, base); err != nil {
					return fmt.Errorf("cannot restore %s from %s: %w", base, name, err)
				}
				continue
			}
		}
		if err := root.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
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

// tempFile is a temporary file a write made, opened again through the
// handle of the directory it was made in, as every other step is.
type tempFile struct {
	dir  *os.Root
	name string
	path string // the file it is written for, for messages
}

// fsyncEach flushes each file's content to disk.
func fsyncEach(temps []tempFile) error {
	for _, t := range temps {
		f, err := t.dir.OpenFile(t.name, os.O_RDWR, 0)
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
