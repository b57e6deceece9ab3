package export

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/internal/wine"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCheckPlaces: an export that would write where a layer is read from,
// or two files of one run that lead to one file, is refused.
func TestCheckPlaces(t *testing.T) {
	wine.Skip(t, wine.Symlinks)
	root := t.TempDir()
	layerDir := filepath.Join(root, ".binnacle", "agents")
	for _, d := range []string{layerDir, filepath.Join(root, ".claude", "agents"), filepath.Join(root, "linked"), filepath.Join(root, "joined")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	if err := os.Symlink(layerDir, filepath.Join(root, "linked", "agents")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	require.NoError(t, os.Symlink(filepath.Join(root, ".claude", "agents"), filepath.Join(root, "joined", "agents")))
	layers, err := resolver.LayerDirs([]resolver.Layer{resolver.DiskLayer(resolver.Project, layerDir, ".binnacle/agents")})
	require.NoError(t, err)
	claude, _ := dialect.All().Lookup("claude")
	opencode, _ := dialect.All().Lookup("opencode")
	report := func(d dialect.Dialect, dir string, names ...string) *TargetReport {
		rep := &TargetReport{Dir: filepath.Join(root, dir), d: d}
		for _, n := range names {
			rep.plan.Files = append(rep.plan.Files, emit.PlannedFile{Path: filepath.Join(root, dir, n)})
		}
		return rep
	}
	tests := []struct {
		name    string
		reports []*TargetReport
		err     string
	}{
		{"apart", []*TargetReport{report(claude, ".claude/agents", "a.md"), report(opencode, ".opencode/agents", "a.md")}, ""},
		{"layer itself", []*TargetReport{report(claude, ".binnacle/agents", "a.md")}, "inside the project layer's directory"},
		{"inside a layer", []*TargetReport{report(claude, ".binnacle/agents/sub", "a.md")}, "inside the project layer's directory"},
		{"linked to a layer", []*TargetReport{report(claude, "linked/agents", "a.md")}, "inside the project layer's directory"},
		{"a file linked into a layer", []*TargetReport{report(claude, "linked", "agents/a.md")}, "cannot write linked/agents/a.md for Claude Code"},
		{"two targets, one file", []*TargetReport{report(opencode, "joined/agents", "a.md"), report(claude, ".claude/agents", "a.md")},
			"the file joined/agents/a.md for OpenCode leads to"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := checkPlaces(tt.reports, layers, root)
			if tt.err == "" {
				assert.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
		})
	}
}
