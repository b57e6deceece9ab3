package team

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A verified tree is stamped; any later write to a file, even one that
// keeps its size and modification time, is caught by the next Verify.
func TestVerifyCatchesTamperingAfterStamp(t *testing.T) {
	cache := t.TempDir()
	e := Locked{Name: "team", Commit: "0123456789012345678901234567890123456789", Path: "agents"}
	dir := LayerDir(cache, e)
	require.NoError(t, os.MkdirAll(dir, 0o755))
	file := filepath.Join(dir, "config.kdl")
	require.NoError(t, os.WriteFile(file, []byte("agent a { description d; prompt p }\n"), 0o644))
	h, err := HashDir(dir)
	require.NoError(t, err)
	e.Hash = h
	require.NoError(t, Verify(cache, e))
	assert.True(t, stamped(dir, h), "a verified tree is stamped")
	require.NoError(t, Verify(cache, e), "and verifies again from the stamp")

	fi, err := os.Stat(file)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(file, []byte("agent b { description d; prompt p }\n"), 0o644)) // same size
	require.NoError(t, os.Chtimes(file, fi.ModTime(), fi.ModTime()))
	err = Verify(cache, e)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "do not match sources.lock")
}

func TestLockRoundTrip(t *testing.T) {
	l := Lock{Sources: []Locked{{Name: "team", URL: "../team", Ref: "v1", Path: "agents",
		Commit: "0123456789012345678901234567890123456789", Hash: "sha256:00"}}}
	path := filepath.Join(t.TempDir(), LockFile)
	require.NoError(t, os.WriteFile(path, l.Format(), 0o644))
	got, err := ReadLock(path)
	require.NoError(t, err)
	assert.Equal(t, l, got)
}
