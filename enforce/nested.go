package enforce

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/bzip2"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strings"
)

// An unpacker that writes a .git directory makes a nested repository
// whose configuration (core.fsmonitor, core.pager, hooks) names programs
// git runs once the agent, or its user, runs git there. Under patterns
// bn reads the archive or patch before the line runs and refuses one
// holding a .git entry, or one it cannot read (standard input from a
// pipe, a format or compression it does not read, a file too large).
// git apply needs no such check: it refuses a path with a .git
// component itself (verify_path).

// maxInspect bounds what bn reads of an archive or patch, decompressed.
const maxInspect = 64 << 20

// tooLarge: the archive is larger than bn reads (a type, not a value
// errors.New makes, which would take memory at start).
type tooLarge struct{}

func (tooLarge) Error() string { return "it is larger than bn reads (64 MiB)" }

// nestedGit says why an unpacker under patterns is refused for the .git
// it may write ("" when its input holds none): what the unpack reads
// (its source, or standard input when it has none) is read from each
// directory the shell may be in.
func (w *walker) nestedGit(name string, u unpack, d dirs) string {
	if u.format == "cpio" || u.format == "7z" {
		return fmt.Sprintf("%s may unpack a .git directory (a nested repository, whose configuration names programs git runs), and bn does not read %s archives to see; bn refuses it under patterns: unpack it with tar or unzip, or allow the shell whole", name, u.format)
	}
	src := u.source
	what := name + "'s input"
	if src == nil {
		if w.input == nil {
			return fmt.Sprintf("%s reads its %s from standard input, which bn cannot read before the line runs, and it may hold a .git directory (a nested repository, whose configuration names programs git runs); redirect it from a file (< FILE) or name the file", name, u.format)
		}
		src = w.input
	} else {
		what = name + " " + src.src
	}
	if !src.static() {
		return fmt.Sprintf("%s is not known before the line runs, so bn cannot read whether it holds a .git directory (a nested repository, whose configuration names programs git runs); write its name out", what)
	}
	for _, dir := range d.at {
		if dir == "" && !strings.HasPrefix(src.value(), "/") {
			return fmt.Sprintf("%s is a relative path after a cd bn cannot follow, so bn cannot read whether it holds a .git directory; name it from the working directory", what)
		}
		pl, err := w.e.locate(src.value(), dir)
		if err != nil {
			return fmt.Sprintf("bn could not resolve %s (%v)", src.value(), err)
		}
		entry, err := inspect(w.e.ctx.FS, pl.resolved, u.format)
		switch {
		case err != nil:
			return fmt.Sprintf("bn cannot read %s before the line runs (%v), and it may hold a .git directory (a nested repository, whose configuration names programs git runs); unpack an archive bn can read where it is", src.value(), err)
		case entry != "":
			without := map[string]string{"tar": " (tar --exclude=.git)", "zip": " (unzip ARCHIVE -x '*.git/*')"}[u.format]
			return fmt.Sprintf("%s holds %s, a .git entry: unpacking it makes a nested repository, whose configuration names programs git runs; bn refuses it under patterns: unpack it without that entry%s, or allow the shell whole", src.value(), entry, without)
		}
	}
	return ""
}

// inspect reads the archive or patch at path, through the decision's
// file system as every other file it reads, and returns the first entry
// it names that has a .git component.
func inspect(fsys FS, path, format string) (string, error) {
	f, err := fsys.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if format == "zip" {
		fi, err := f.Stat()
		if err != nil {
			return "", err
		}
		ra, ok := f.(io.ReaderAt)
		if !ok {
			return "", errors.New("its file system reads it only in order, and a zip archive lists its entries at its end")
		}
		zr, err := zip.NewReader(ra, fi.Size())
		if err != nil {
			return "", err
		}
		for _, e := range zr.File {
			if gitComponent(e.Name) {
				return e.Name, nil
			}
		}
		return "", nil
	}
	r, err := decompressed(bufio.NewReader(f))
	if err != nil {
		return "", err
	}
	lr := &io.LimitedReader{R: r, N: maxInspect}
	if format == "patch" {
		return patchGit(lr)
	}
	tr := tar.NewReader(lr)
	for {
		h, err := tr.Next()
		switch {
		case lr.N <= 0:
			return "", tooLarge{}
		case err == io.EOF:
			return "", nil
		case err != nil:
			return "", err
		case gitComponent(h.Name) || h.Linkname != "" && gitComponent(h.Linkname):
			return h.Name, nil
		}
	}
}

// decompressed reads gzip and bzip2 as tar -x and patch's input does
// (tar -a, tar -z, tar -j); xz, zstd and the others bn does not read.
func decompressed(r *bufio.Reader) (io.Reader, error) {
	magic, _ := r.Peek(6)
	switch {
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		return gzip.NewReader(r)
	case bytes.HasPrefix(magic, []byte("BZh")):
		return bzip2.NewReader(r), nil
	case bytes.HasPrefix(magic, []byte{0xfd, '7', 'z', 'X', 'Z', 0}), bytes.HasPrefix(magic, []byte{0x28, 0xb5, 0x2f, 0xfd}),
		bytes.HasPrefix(magic, []byte{0x5d, 0, 0}), bytes.HasPrefix(magic, []byte("LZIP")), bytes.HasPrefix(magic, []byte{0x04, 0x22, 0x4d, 0x18}),
		bytes.HasPrefix(magic, []byte{0x1f, 0x9d}):
		return nil, errors.New("it is compressed in a format bn does not read (xz, zstd, lzma, lzip, lz4, compress)")
	}
	return r, nil
}

// patchGit returns the first file name a patch's headers give (---, +++,
// ***, Index:, diff, git's rename and copy lines) with a .git component;
// a C-quoted name (git's "a/\056git") is one bn does not read.
func patchGit(r *io.LimitedReader) (string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if !hasAnyPrefix(l, "--- ", "+++ ", "*** ", "Index:", "diff ", "rename from ", "rename to ", "copy from ", "copy to ") {
			continue
		}
		if strings.Contains(l, `"`) && strings.Contains(l, `\`) {
			return "", fmt.Errorf("its header %q quotes a file name with escapes", l)
		}
		for _, f := range strings.Fields(strings.ReplaceAll(l, `"`, " ")) {
			if gitComponent(f) {
				return f, nil
			}
		}
	}
	if r.N <= 0 {
		return "", tooLarge{}
	}
	return "", sc.Err()
}

func hasAnyPrefix(s string, prefixes ...string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// gitComponent: a path component of name is .git as git and the file
// systems it runs on read it: in any case, with trailing dots and
// spaces (Windows drops them), or its 8.3 short name git~1.
func gitComponent(name string) bool {
	for _, c := range strings.FieldsFunc(name, func(r rune) bool { return r == '/' || r == '\\' }) {
		c = strings.TrimRight(c, ". ")
		if strings.EqualFold(c, ".git") || strings.EqualFold(c, "git~1") {
			return true
		}
	}
	return false
}
