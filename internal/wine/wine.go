package wine

import (
	"os"
	"testing"
)

// A Behaviour is a Windows behaviour Wine lacks, with its reproduction.
type Behaviour string

// OpenDirectory: Windows renames or removes a directory while a handle
// opened with FILE_SHARE_DELETE is open on it (Go's os.Root opens its
// directory so, and the resolver keeps a layer's open); Wine refuses with
// a sharing violation. Reproduced by TestOpenDirectory.
const OpenDirectory Behaviour = "Wine refuses to rename or remove a directory open with FILE_SHARE_DELETE (Windows allows it): see TestOpenDirectory in internal/wine"

// Symlinks: Windows makes a symlink (os.Symlink, for an administrator or
// in developer mode) that paths then go through; Wine's
// CreateSymbolicLink reports success and makes nothing, so the link is
// not there. Reproduced by TestSymlinks.
const Symlinks Behaviour = "Wine reports a symlink made and makes nothing (Windows makes it): see TestSymlinks in internal/wine"

// Skip skips t under Wine, which lacks b.
func Skip(t testing.TB, b Behaviour) {
	t.Helper()
	if Running() {
		t.Skip(string(b))
	}
}

// TempDir is t.TempDir, except that under Wine a directory that stays
// open to the end of the test (OpenDirectory: the resolver keeps its
// layers' directories open) is left behind instead of failing the test.
func TempDir(t testing.TB) string {
	t.Helper()
	if !Running() {
		return t.TempDir()
	}
	dir, err := os.MkdirTemp("", "bn-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	return dir
}
