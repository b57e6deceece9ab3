package emit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestApplyAllWritesEverything: new files in new directories, a replaced
// file keeping its mode, a removal, and no temporary or backup file left.
func TestApplyAllWritesEverything(t *testing.T) {
	dir := t.TempDir()
	keep := filepath.Join(dir, "a", "private.md")
	gone := filepath.Join(dir, "gone.md")
	require.NoError(t, os.MkdirAll(filepath.Dir(keep), 0o755))
	require.NoError(t, os.WriteFile(keep, []byte("old"), 0o600))
	require.NoError(t, os.WriteFile(gone, []byte("x"), 0o644))
	var changes []Change
	for i := range 100 {
		changes = append(changes, Change{Path: filepath.Join(dir, "new", "deep", strings.Repeat("f", i%7+1)+string(rune('a'+i%26))+".md"), Content: []byte{byte(i)}})
	}
	changes = append(changes, Change{Path: keep, Content: []byte("new")}, Change{Path: gone, Remove: true})
	require.NoError(t, ApplyAll(changes))
	for _, c := range changes {
		got, err := os.ReadFile(c.Path)
		if c.Remove {
			assert.ErrorIs(t, err, os.ErrNotExist)
			continue
		}
		require.NoError(t, err)
		assert.Equal(t, c.Content, got, c.Path)
		if c.Path != keep {
			fi, err := os.Stat(c.Path)
			require.NoError(t, err)
			assert.Equal(t, os.FileMode(0o644), fi.Mode().Perm(), c.Path)
		}
	}
	fi, err := os.Stat(keep)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm(), "a replaced file keeps its mode")
	got, _ := os.ReadFile(keep)
	assert.Equal(t, "new", string(got))
	assertNoLeftovers(t, dir)
}

// TestApplyAllFailsWhole: when one change cannot be written, nothing is
// changed, and no directory or temporary file is left behind.
func TestApplyAllFailsWhole(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old.md")
	require.NoError(t, os.WriteFile(old, []byte("old"), 0o644))
	blocker := filepath.Join(dir, "file")
	require.NoError(t, os.WriteFile(blocker, []byte("x"), 0o644))
	var changes []Change
	for i := range 50 {
		changes = append(changes, Change{Path: filepath.Join(dir, "new", string(rune('a'+i%26))+string(rune('a'+i/26))+".md"), Content: []byte("n")})
	}
	changes = append(changes, Change{Path: old, Content: []byte("new")},
		Change{Path: filepath.Join(blocker, "x.md"), Content: []byte("y")}) // a file is in the way of its directory
	err := ApplyAll(changes)
	require.Error(t, err)
	assert.Contains(t, err.Error(), filepath.Join(blocker))
	got, _ := os.ReadFile(old)
	assert.Equal(t, "old", string(got), "nothing is changed")
	_, err = os.Stat(filepath.Join(dir, "new"))
	assert.ErrorIs(t, err, os.ErrNotExist, "a directory made for the failed change is removed")
	assertNoLeftovers(t, dir)
}

func assertNoLeftovers(t *testing.T, dir string) {
	t.Helper()
	require.NoError(t, filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && (strings.Contains(d.Name(), ".tmp-") || strings.Contains(d.Name(), ".bn-old-")) {
			t.Errorf("left behind: %s", path)
		}
		return err
	}))
}
