package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/internal/wine"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGeneratedStaysInside: session init's and host-init's files are
// written through directories opened from their base (the repository,
// $COPILOT_HOME): a directory on the way swapped for a symlink out of it
// after the checks fails the write, and nothing lands outside.
func TestGeneratedStaysInside(t *testing.T) {
	wine.Skip(t, wine.Symlinks)
	for _, tt := range []struct{ name, file, link string }{
		{"session init .vscode", ".vscode/mcp.json", ".vscode"},
		{"host-init agents", "agents/binnacle-do.md", "agents"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			base, outside := t.TempDir(), t.TempDir()
			if err := os.Symlink(outside, filepath.Join(base, tt.link)); err != nil {
				t.Skip("no symlinks here:", err)
			}
			g := &generated{root: base, changes: []emit.Change{
				{Path: filepath.Join(base, "kept.json"), Content: []byte("{}\n"), Perm: 0o644},
				{Path: filepath.Join(base, filepath.FromSlash(tt.file)), Content: []byte("{}\n"), Perm: 0o644},
			}}
			err := g.report(nil, nil, nil)
			require.Error(t, err)
			assert.Equal(t, "cannot write in "+filepath.Dir(filepath.Join(base, filepath.FromSlash(tt.file)))+": a symlink on the way leads out of "+base+"; bn writes only inside it: remove the link; nothing was written", err.Error())
			entries, err := os.ReadDir(outside)
			require.NoError(t, err)
			assert.Empty(t, entries, "nothing is written outside the base")
			assert.NoFileExists(t, filepath.Join(base, "kept.json"), "nothing is written when one write fails")
		})
	}
}
