package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/internal/wine"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestWriteLayerStaysInside: init's writes go through directories opened
// from the repository (from the layer's own, outside it): a directory on
// the way swapped for a symlink out of it after layerDir checked it fails
// the write; nothing lands outside, and config.kdl is not written.
func TestWriteLayerStaysInside(t *testing.T) {
	wine.Skip(t, wine.Symlinks)
	for _, tt := range []struct {
		name  string
		layer string // the layer's directory, under the test's directory
		link  string // swapped for a symlink out of it
	}{
		{"project layer", "repo/.binnacle/agents", "repo/.binnacle"},
		{"project prompts", "repo/.binnacle/agents", "repo/.binnacle/agents/prompts"},
		{"user layer prompts", "home/bn/agents", "home/bn/agents/prompts"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			top, outside := t.TempDir(), t.TempDir()
			p := resolver.Paths{RepoRoot: filepath.Join(top, "repo"), ProjectDir: filepath.Join(top, "repo", ".binnacle", "agents")}
			dir := filepath.Join(top, filepath.FromSlash(tt.layer))
			link := filepath.Join(top, filepath.FromSlash(tt.link))
			require.NoError(t, os.MkdirAll(filepath.Dir(link), 0o755))
			require.NoError(t, os.MkdirAll(p.RepoRoot, 0o755))
			if err := os.Symlink(outside, link); err != nil {
				t.Skip("no symlinks here:", err)
			}
			require.Error(t, writeLayer(p, dir, []emit.Change{
				{Path: filepath.Join(dir, "prompts", "a.md"), Content: []byte("Do it.\n"), Perm: 0o644},
				{Path: filepath.Join(dir, "config.kdl"), Content: []byte("agent a {}\n"), Perm: 0o644},
			}))
			var found []string
			require.NoError(t, filepath.WalkDir(outside, func(path string, d os.DirEntry, err error) error {
				if path != outside {
					found = append(found, path)
				}
				return err
			}))
			assert.Empty(t, found, "nothing is written outside")
		})
	}
}
