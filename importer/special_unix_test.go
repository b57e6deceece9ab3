//go:build unix

package importer_test

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A named pipe or a symlink loop among agent files is skipped with its
// reason, never opened (opening a pipe would block).
func TestImportSkipsSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in")
	write(t, filepath.Join(in, "a.md"), "---\nname: a\ndescription: d\n---\nB\n")
	require.NoError(t, syscall.Mkfifo(filepath.Join(in, "pipe.md"), 0o644))
	require.NoError(t, os.Symlink("loop.md", filepath.Join(in, "loop.md")))
	res := plan(t, dir, false, "in")
	require.Len(t, res.Imported, 1)
	assert.Equal(t, "a", res.Imported[0].Name)
	reasons := map[string]string{}
	for _, s := range res.Skipped {
		reasons[filepath.Base(s.File)] = s.Reason
	}
	assert.Equal(t, "is a named pipe, not a regular file", reasons["pipe.md"])
	assert.Equal(t, "is a symlink loop", reasons["loop.md"])
}
