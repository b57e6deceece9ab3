package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestDisplayPath: a path inside the repository is shown relative to it,
// one outside as given; a name that only begins with ".." is inside.
func TestDisplayPath(t *testing.T) {
	root := t.TempDir()
	tests := []struct {
		path, want string
	}{
		{filepath.Join(root, "a", "b.md"), "a/b.md"},
		{filepath.Join(root, "..foo", "b.md"), "..foo/b.md"},
		{filepath.Join(root, "..."), "..."},
		{root, "."},
		{filepath.Join(filepath.Dir(root), "b.md"), filepath.Join(filepath.Dir(root), "b.md")},
		{filepath.Dir(root), filepath.Dir(root)},
		{"rel.md", "rel.md"},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, displayPath(root, tt.path), tt.path)
	}
}
