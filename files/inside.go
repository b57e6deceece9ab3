package files

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode"
)

// CheckSegment refuses a name that is not one safe path segment on every
// system bn runs on: empty, "." or "..", a separator of any system, a
// drive or stream colon, a control character, a name Windows trims (a
// trailing dot or space) or keeps for a device (con.md, nul, com1.txt),
// or longer than file systems hold.
func CheckSegment(s string) error {
	switch {
	case IsDeviceName(s):
		return fmt.Errorf("is a name Windows keeps for a device (%s, with any extension), so no file there can have it", strings.ToUpper(strings.TrimRight(deviceStem(s), " ")))
	case s == "":
		return errors.New("is empty")
	case s == "." || s == "..":
		return fmt.Errorf("is %q, which names a directory, not a file", s)
	case len(s) > 200:
		return fmt.Errorf("is %d bytes; a file name holds at most 200", len(s))
	case strings.HasSuffix(s, ".") || strings.HasSuffix(s, " ") || strings.HasPrefix(s, " "):
		return errors.New("starts or ends with a space, or ends with '.', which Windows drops from file names")
	}
	for _, r := range s {
		switch {
		case r == '/' || r == '\\':
			return fmt.Errorf("holds %q, a path separator", r)
		case r == ':' || r == '*' || r == '?' || r == '"' || r == '<' || r == '>' || r == '|':
			return fmt.Errorf("holds %q, which file names cannot hold on Windows", r)
		case unicode.IsControl(r) || r == unicode.ReplacementChar:
			return fmt.Errorf("holds the control or invalid character %q", r)
		}
	}
	return nil
}

// devices are the names Windows gives to devices in every directory.
var devices = []string{"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$",
	"COM0", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8", "COM9", "COM¹", "COM²", "COM³",
	"LPT0", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9", "LPT¹", "LPT²", "LPT³"}

// minDevice and maxDevice are the shortest and longest of devices, in
// bytes.
const minDevice, maxDevice = len("CON"), len("CONOUT$")

// IsDeviceName says whether Windows reads the file name s as a device:
// its part before the first dot, less trailing spaces, is one of
// devices in any case (nul.md, Con.tar.gz, "aux .md").
func IsDeviceName(s string) bool {
	stem := strings.TrimRight(deviceStem(s), " ")
	// A stem of another length in bytes cannot be one (TestDeviceLengths):
	// most names, every agent's among them, are passed without a fold.
	if len(stem) < minDevice || len(stem) > maxDevice {
		return false
	}
	for _, d := range devices {
		if strings.EqualFold(stem, d) {
			return true
		}
	}
	return false
}

func deviceStem(s string) string {
	stem, _, _ := strings.Cut(s, ".")
	return stem
}

// CheckRel refuses a slash-separated relative path unless each of its
// segments passes CheckSegment: no absolute path, no "..", no empty part.
func CheckRel(rel string) error {
	for seg := range strings.SplitSeq(rel, "/") {
		if err := CheckSegment(seg); err != nil {
			if seg == "" || seg == "." || seg == ".." {
				return fmt.Errorf("%q is not a plain relative path (a part %v)", rel, err)
			}
			return fmt.Errorf("%q: %q %v", rel, seg, err)
		}
	}
	return nil
}

// Inside joins base and the slash-separated rel for a file bn is about to
// write, refusing a rel that CheckRel refuses and a path that symlinks
// on the way (or at the file itself) lead out of base. Directories that do
// not exist yet are made by bn, so they cannot lead anywhere.
func Inside(base, rel string) (string, error) {
	d, err := OpenDir(base)
	if err != nil {
		return "", err
	}
	return d.Join(rel)
}

// Dir is a directory bn writes inside, its symlinks resolved once for
// every file joined to it.
type Dir struct {
	base, real string // real is "" while base does not exist
}

// OpenDir resolves base for Join.
func OpenDir(base string) (Dir, error) {
	real, err := filepath.EvalSymlinks(base)
	if errors.Is(err, fs.ErrNotExist) {
		return Dir{base: base}, nil // nothing exists to lead elsewhere
	}
	if err != nil {
		return Dir{}, fmt.Errorf("cannot resolve %s: %w", base, err)
	}
	return Dir{base: base, real: real}, nil
}

// ResolvedDir is OpenDir for a base that is already filepath.EvalSymlinks'
// answer (a repository root): resolving it again would Lstat each of its
// parents once more, on every command.
func ResolvedDir(real string) Dir { return Dir{base: real, real: real} }

// Join is Inside for this directory.
func (d Dir) Join(rel string) (string, error) {
	if err := CheckRel(rel); err != nil {
		return "", err
	}
	return d.join(rel)
}

// join is Join for a rel already checked.
func (d Dir) join(rel string) (string, error) {
	if d.real == "" {
		return filepath.Join(d.base, filepath.FromSlash(rel)), nil
	}
	p := d.base
	segs := strings.Split(rel, "/")
	for i, seg := range segs {
		p = filepath.Join(p, seg)
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			break
		}
		if err != nil {
			return "", fmt.Errorf("cannot check %s: %w", p, err)
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			// Said here, not left to the next Lstat: Linux fails it
			// (ENOTDIR), Windows says the path does not exist.
			if i < len(segs)-1 && !fi.IsDir() {
				return "", fmt.Errorf("cannot write in %s: it is not a directory", p)
			}
			continue
		}
		target, err := filepath.EvalSymlinks(p)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("cannot resolve the symlink %s: %w", p, err)
		}
		if err != nil || !within(d.real, target) {
			return "", &LinkOutError{Link: p, Base: d.base}
		}
	}
	return filepath.Join(d.base, filepath.FromSlash(rel)), nil
}

// LinkOutError is Join's refusal of a symlink on the way that leads out
// of the directory, or nowhere: Link is the symlink, Base the directory.
type LinkOutError struct {
	Link, Base string
}

func (e *LinkOutError) Error() string {
	return fmt.Sprintf("%s is a symlink that leads out of %s (or nowhere); bn reads and writes only inside it: remove the link", e.Link, e.Base)
}

// Through is where a write to the file at the slash-separated rel inside
// base lands, as the directory to open it from and its path: base, and
// rel joined to it; or, when the file is a symlink, the directory of the
// file it leads to, wherever that is, and that file (a user's settings
// linked into their dotfiles: the file is edited, the link kept). A
// directory on the way that is a symlink out of base is refused, as
// Inside refuses it: only the file's own link is followed out.
func Through(base, rel string) (dir, p string, err error) {
	if err := CheckRel(rel); err != nil {
		return "", "", err
	}
	if parent := path.Dir(rel); parent != "." {
		d, err := OpenDir(base)
		if err == nil {
			_, err = d.join(parent) // rel, and so parent, checked above
		}
		if err != nil {
			return "", "", err
		}
	}
	p = filepath.Join(base, filepath.FromSlash(rel))
	if fi, err := os.Lstat(p); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		return base, p, nil // no link: what is there, if anything, is read and written in base
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", "", fmt.Errorf("%s is a symlink that leads nowhere (%v); point it at a file, or remove it", p, Cause(err))
	}
	return filepath.Dir(real), real, nil
}

// Cause is err without the fs.PathError around it, for a message that
// names the path itself.
func Cause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// within says whether the clean path p is dir or below it.
func within(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// Resolve is where p leads once every symlink on the way is followed:
// its nearest existing part resolved, the rest (made by bn) joined as
// given. Two paths that Resolve to one are one file, for a reader too.
func Resolve(p string) (string, error) {
	p = filepath.Clean(p)
	missing := ""
	for d := p; ; d = filepath.Dir(d) {
		real, err := filepath.EvalSymlinks(d)
		if err == nil {
			return filepath.Join(real, missing), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("cannot resolve %s: %w", d, err)
		}
		if filepath.Dir(d) == d {
			return p, nil
		}
		missing = filepath.Join(filepath.Base(d), missing)
	}
}

// Within says whether the clean path p is dir or below it.
func Within(dir, p string) bool { return within(dir, p) }

// Exists says whether there is anything at p, a symlink that leads
// nowhere included: a write there would follow it.
func Exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}
