package files

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// MaxAgentFile bounds an agent, prompt or config file: they are sent to a
// model or written into generated files, so a huge file is a mistake.
const MaxAgentFile = 1 << 20

// MaxConfigFile bounds a config.kdl, which may define thousands of agents.
const MaxConfigFile = 64 << 20

// ErrTooLarge is a file over the limit it was read with.
var ErrTooLarge = errors.New("file too large")

// ErrOutside is a path that leads out of the directory it is read in.
var ErrOutside = errors.New("path escapes its directory")

// Error says why a file was not read; its message reads after the file's
// name ("… is a named pipe, not a regular file").
type Error struct {
	Msg string
	Err error // the underlying error, if any
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

// Read reads a regular file at path, at most limit bytes (0: no limit).
func Read(path string, limit int64) ([]byte, error) { return ReadInto(path, nil, limit) }

// ReadInto is Read into buf when the file fits in its capacity, for a
// caller that reads many files in turn and keeps none: the result is
// valid until buf is used again.
func ReadInto(path string, buf []byte, limit int64) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, openError(err)
	}
	defer f.Close()
	return readOpenInto(f, buf, limit)
}

// ReadIn reads name inside root (symlinks may not lead out of it).
func ReadIn(root *os.Root, name string, limit int64) ([]byte, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, openError(err)
	}
	defer f.Close()
	return readOpenInto(f, nil, limit)
}

// ReadInDir is ReadIn in dir, opened for this one read.
func ReadInDir(dir, name string, limit int64) ([]byte, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, openError(err)
	}
	defer root.Close()
	return ReadIn(root, name, limit)
}

// Listing is a file system for listing root's tree: the directories give
// each entry's name and type, where listing through the Root makes Go
// stat every entry. Files are still read through the Root (ReadIn).
func Listing(root *os.Root) fs.FS { return os.DirFS(root.Name()) }

// ReadFS reads name from fsys, which must not hold special files (the
// embedded layer); for directories on disk use ReadIn.
func ReadFS(fsys fs.FS, name string, limit int64) ([]byte, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, openError(err)
	}
	defer f.Close()
	return readOpenInto(f, nil, limit)
}

// preallocHint bounds the buffer allocated, from the file's size, for a
// read without a limit: a larger (or sparse) file grows it as it is read.
const preallocHint = MaxConfigFile

func readOpenInto(f fs.File, buf []byte, limit int64) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, &Error{Msg: "cannot be read: " + describe(err), Err: err}
	}
	if !fi.Mode().IsRegular() {
		return nil, &Error{Msg: "is " + kind(fi.Mode()) + ", not a regular file; bn reads only regular files"}
	}
	if limit > 0 && fi.Size() > limit {
		return nil, &Error{Msg: fmt.Sprintf("is %d bytes, over the %s bn reads from such a file; make it smaller", fi.Size(), size(limit)), Err: ErrTooLarge}
	}
	if nb, ok := f.(*os.File); ok {
		blocking(nb) // regular files never block: reads behave normally
	}
	var r io.Reader = f
	if limit > 0 {
		r = io.LimitReader(f, limit+1)
	}
	// Read into a buffer of the file's size (plus one byte to see growth):
	// growing one from empty costs more than the parse of a large file.
	// The size is the file's word, not a promise: never more than the
	// limit, or preallocHint unlimited, is allocated before it is read.
	hint := min(fi.Size(), preallocHint)
	if limit > 0 {
		hint = min(fi.Size(), limit)
	}
	b, err := readAll(r, buf, hint+1)
	if err != nil {
		return nil, &Error{Msg: "cannot be read: " + describe(err), Err: err}
	}
	if limit > 0 && int64(len(b)) > limit {
		return nil, &Error{Msg: fmt.Sprintf("is over the %s bn reads from such a file; make it smaller", size(limit)), Err: ErrTooLarge}
	}
	return b, nil
}

// readAll reads r to its end into buf or, when buf holds less than size,
// a new buffer of capacity size; it grows the buffer only if r holds more.
func readAll(r io.Reader, buf []byte, size int64) ([]byte, error) {
	b := buf[:0]
	if int64(cap(buf)) < size {
		b = make([]byte, 0, size)
	}
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}

// OpenError says, after a file's name, why it could not be opened.
func OpenError(err error) error { return openError(err) }

func openError(err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &Error{Msg: "does not exist", Err: err}
	case errors.Is(err, syscall.ELOOP):
		return &Error{Msg: "is a symlink loop", Err: err}
	case isEscape(err):
		return &Error{Msg: "resolves outside its directory (a symlink?); files must stay inside it", Err: ErrOutside}
	}
	return &Error{Msg: "cannot be read: " + describe(err), Err: err}
}

// isEscape recognises os.Root's refusal of a path that leaves the root,
// which MkdirAll wraps in a second path error.
func isEscape(err error) bool {
	for {
		var pe *fs.PathError
		if !errors.As(err, &pe) || pe.Err == nil {
			return false
		}
		if pe.Err.Error() == "path escapes from parent" {
			return true
		}
		err = pe.Err
	}
}

func describe(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

func kind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

// IsRegular reports whether a directory entry is a regular file or a
// symlink (whose target Read checks); other entries are never opened.
func IsRegular(e fs.DirEntry) bool {
	t := e.Type()
	return t.IsRegular() || t&fs.ModeSymlink != 0
}

// Kind describes a directory entry that is not a regular file.
func Kind(e fs.DirEntry) string { return kind(e.Type()) }

// size writes a limit in the unit people use for it.
func size(n int64) string {
	if n%(1<<20) == 0 {
		return fmt.Sprintf("%d MiB", n>>20)
	}
	return fmt.Sprintf("%d bytes", n)
}
