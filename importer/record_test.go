package importer_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/importer"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMoveOriginalsTrustsNoRecord: a record entry moves its file only
// when the file still holds the recorded content, lies where its tool
// reads agents, and is no layer's or .git's file; the rest stay, each
// with its reason.
func TestMoveOriginalsTrustsNoRecord(t *testing.T) {
	root := t.TempDir()
	content := []byte("---\nname: a\ndescription: d\n---\nb\n")
	for _, p := range []string{".claude/agents/a.md", ".claude/agents/edited.md", ".binnacle/agents/config.kdl", ".git/config", "src/main.go", "sub/.claude/agents/n.md", ".vibe/agents/v.toml"} {
		require.NoError(t, os.MkdirAll(filepath.Join(root, filepath.Dir(p)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(root, p), content, 0o644))
	}
	layers, err := resolver.LayerDirs([]resolver.Layer{resolver.DiskLayer(resolver.Project, filepath.Join(root, ".binnacle", "agents"), ".binnacle/agents")})
	require.NoError(t, err)
	sum := importer.Hash(content)
	tests := []struct {
		file, format, sha, left string
	}{
		{".claude/agents/a.md", "claude", sum, ""},
		{"sub/.claude/agents/n.md", "claude", sum, ""},
		{".claude/agents/edited.md", "claude", importer.Hash(nil), "changed since import"},
		{".binnacle/agents/config.kdl", "claude", sum, "a file of the project layer's directory"},
		{".git/config", "claude", sum, "inside .git"},
		{"src/main.go", "claude", sum, "not in a directory where its tool (claude) reads agents"},
		{".vibe/agents/v.toml", "claude", sum, "not in a directory where its tool (claude) reads agents"},
		{".claude/agents/a.md", "nosuchtool", sum, "not in a directory where its tool (nosuchtool)"},
	}
	for _, tt := range tests {
		t.Run(tt.file+" "+tt.format, func(t *testing.T) {
			r := importer.Record{Originals: []importer.Original{{Agent: "x", File: tt.file, Format: tt.format, SHA256: tt.sha}}}
			moves, err := importer.MoveOriginals(&r, root, layers, dialect.All(), true)
			require.NoError(t, err)
			require.Len(t, moves, 1)
			if tt.left == "" {
				assert.Empty(t, moves[0].Left)
				assert.NotEmpty(t, moves[0].To)
				return
			}
			assert.Contains(t, moves[0].Left, tt.left)
			assert.Empty(t, moves[0].To)
		})
	}
}
