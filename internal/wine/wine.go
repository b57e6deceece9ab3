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

// DirectorySymlinks: on Windows a path through a directory symlink
// (os.Symlink to a directory) reaches what is inside the target; under
// Wine the link is made but a path through it is not found. Reproduced
// by TestDirectorySymlinks.
const DirectorySymlinks Behaviour = "Wine does not follow a path through a directory symlink (Windows does): see TestDirectorySymlinks in internal/wine"

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
