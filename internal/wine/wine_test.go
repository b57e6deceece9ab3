package wine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOpenDirectory: Windows renames or removes a directory open with
// FILE_SHARE_DELETE (as Go's os.Root opens it); Wine refuses with a
// sharing violation. So under Wine a directory handle bn leaves open
// fails the test's TempDir cleanup, which is how make test-windows finds
// one; this fails once Wine gains the behaviour and that check is gone.
func TestOpenDirectory(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "d")
	require.NoError(t, os.Mkdir(dir, 0o755))
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	defer root.Close()
	renameErr := os.Rename(dir, dir+".old")
	if renameErr == nil {
		dir += ".old"
	}
	removeErr := os.Remove(dir)
	if Running() {
		assert.Error(t, renameErr, "Wine renames an open directory now: make test-windows no longer finds directory handles left open")
		assert.Error(t, removeErr, "Wine removes an open directory now: make test-windows no longer finds directory handles left open")
		root.Close()
		return
	}
	assert.NoError(t, renameErr)
	assert.NoError(t, removeErr)
}

// TestSymlinks reproduces Symlinks: under Wine os.Symlink succeeds, and
// neither the link nor a path through it is there.
func TestSymlinks(t *testing.T) {
	base := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(base, "dir", "a"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join(base, "dir"), filepath.Join(base, "link")))
	_, linkErr := os.Lstat(filepath.Join(base, "link"))
	_, err := os.Stat(filepath.Join(base, "link", "a"))
	if Running() {
		assert.Error(t, linkErr, "Wine makes symlinks now: remove the skips for Symlinks")
		assert.Error(t, err, "Wine makes symlinks now: remove the skips for Symlinks")
		return
	}
	assert.NoError(t, linkErr)
	assert.NoError(t, err)
}
