package emit

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// WriteResult says what WriteFileAtomic did.
type WriteResult int

const (
	Unchanged WriteResult = iota
	Created
	Updated
)

func (r WriteResult) String() string {
	return [...]string{"unchanged", "created", "updated"}[r]
}

// WriteFileAtomic writes data to path through a temporary file in the same
// directory and a rename, so readers never see a half-written file. A file
// that already holds data is not touched; one that is replaced keeps its
// mode (perm applies to new files). Parent directories are created.
// There is no fsync: every file bn writes can be regenerated, and syncing
// each one made exporting a few hundred agents take seconds.
func WriteFileAtomic(path string, data []byte, perm os.FileMode) (WriteResult, error) {
	old, err := os.ReadFile(path)
	result := Created
	switch {
	case err == nil && bytes.Equal(old, data):
		return Unchanged, nil
	case err == nil:
		result = Updated
		// An existing file keeps its mode: a user's 0600 MCP config may
		// hold tokens and must not become world-readable.
		if fi, statErr := os.Stat(path); statErr == nil {
			perm = fi.Mode().Perm()
		}
	case !os.IsNotExist(err):
		return 0, fmt.Errorf("cannot read %s: %w", path, err)
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, fmt.Errorf("cannot create %s: %w", dir, err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return 0, fmt.Errorf("cannot write in %s: %w", dir, err)
	}
	defer root.Close()
	if err := replace(root, filepath.Base(path), path, data, perm); err != nil {
		return 0, err
	}
	return result, nil
}
