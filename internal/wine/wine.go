package wine

import "testing"

// A Behaviour is a Windows behaviour Wine lacks, with its reproduction.
type Behaviour string

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
