package enforce

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/binnacle-dev/bn/internal/wine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Resolve follows every link as a write would, dangling ones included.
func TestResolve(t *testing.T) {
	wine.Skip(t, wine.Symlinks)
	dir, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "real", "sub"), 0o755))
	require.NoError(t, os.Symlink(filepath.Join("..", "real"), filepath.Join(dir, "real", "up")))
	require.NoError(t, os.Symlink("real", filepath.Join(dir, "link")))
	require.NoError(t, os.Symlink(filepath.Join("real", "sub", "new.json"), filepath.Join(dir, "dangling")))
	require.NoError(t, os.Symlink("loop", filepath.Join(dir, "loop")))
	for in, want := range map[string]string{
		"link/sub/x":         "real/sub/x",
		"real/up/up/sub":     "real/sub",
		"dangling":           "real/sub/new.json",
		"link/../link/sub":   "real/sub",
		"missing/a/b":        "missing/a/b",
		"real/./sub/../sub/": "real/sub",
	} {
		assert.Equal(t, filepath.Join(dir, filepath.FromSlash(want)), Resolve(filepath.Join(dir, filepath.FromSlash(in))), in)
	}
	assert.Equal(t, filepath.Join(dir, "loop"), Resolve(filepath.Join(dir, "loop")), "a loop stops")
}
