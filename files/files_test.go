package files

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// TestReadLargeFile reads files of sizes around the read buffer's: the
// bytes come back whole, whatever their size.
func TestReadLargeFile(t *testing.T) {
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{0, 1, 64<<10 - 1, 64 << 10, 64<<10 + 1, 3<<20 + 4095} {
		want := make([]byte, size)
		for i := range want {
			want[i] = byte(r.Uint32())
		}
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := Read(path, 0)
		if err != nil {
			t.Fatalf("%d bytes: %v", size, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("%d bytes read back as %d different ones", size, len(got))
		}
	}
}

// TestReadIntoReusesTheBuffer: a file that fits is read into the buffer
// given, one that does not into a new one, and both come back whole.
func TestReadIntoReusesTheBuffer(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	want := bytes.Repeat([]byte("0123456789"), 10)
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{0, 10, 100, 101, 4096} {
		buf := make([]byte, 7, size+7)[7:]
		got, err := ReadInto(path, buf, 0)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("buffer of %d: %q, %v", size, got, err)
		}
		if reused := cap(buf) > 0 && &got[:1][0] == &buf[:1][0]; reused != (size > len(want)) {
			t.Errorf("buffer of %d bytes: reused %v", size, reused)
		}
	}
}

// TestDeviceLengths holds what IsDeviceName's length check assumes: a
// name that folds to a device's is as long in bytes, since no character
// of a device's name folds to one of another length (as K, the Kelvin
// sign, folds to k).
func TestDeviceLengths(t *testing.T) {
	for _, d := range devices {
		if len(d) < minDevice || len(d) > maxDevice {
			t.Errorf("device %q is %d bytes, outside minDevice and maxDevice (%d to %d)", d, len(d), minDevice, maxDevice)
		}
		for _, r := range d {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				if utf8.RuneLen(f) != utf8.RuneLen(r) {
					t.Errorf("device %q: %q folds to %q, of another length", d, r, f)
				}
			}
		}
	}
}

func TestCheckSegment(t *testing.T) {
	for _, tc := range []struct{ seg, err string }{
		{"reviewer.md", ""},
		{"console.md", ""},
		{"com10.md", ""},
		{"con.md", "is a name Windows keeps for a device (CON, with any extension)"},
		{"conout$.txt", "(CONOUT$, with any extension)"},
		{"NUL", "(NUL, with any extension)"},
		{"Aux.tar.gz", "(AUX, with any extension)"},
		{"com1 .md", "(COM1, with any extension)"},
		{"lpt¹.md", "(LPT¹, with any extension)"},
		{"..", "names a directory"},
		{"a\\b", "a path separator"},
		{"x.", "ends with '.'"},
		{"x ", "starts or ends with a space"},
		{"x\x1b.md", "control or invalid character"},
	} {
		t.Run(tc.seg, func(t *testing.T) {
			err := CheckSegment(tc.seg)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("CheckSegment(%q) = %v, want %q", tc.seg, err, tc.err)
			}
		})
	}
}

// TestReadHugeFile: a file over the limit is refused as ErrTooLarge
// before anything is allocated from its size (a sparse file claims any).
func TestReadHugeFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, 50<<30); err != nil {
		t.Skip("no sparse files here:", err)
	}
	for _, limit := range []int64{1, MaxAgentFile, MaxConfigFile} {
		if _, err := Read(path, limit); !errors.Is(err, ErrTooLarge) {
			t.Errorf("limit %d: %v, want ErrTooLarge", limit, err)
		}
	}
}
