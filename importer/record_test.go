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

// TestReadRecordPaths: an entry's file and moved are joined to the
// repository's root, so the record refuses those that would lead out.
func TestReadRecordPaths(t *testing.T) {
	abs := filepath.ToSlash(filepath.Join(t.TempDir(), "a.md"))
	for _, tc := range []struct {
		file, moved, err string
	}{
		{file: ".claude/agents/a.md"},
		{file: abs},
		{file: ".claude/agents/a.md", moved: ".binnacle/originals/.claude/agents/a.md"},
		{file: "../a.md", err: `file "../a.md" is neither absolute nor a path inside the repository`},
		{file: "a/../../a.md", err: "neither absolute nor a path inside"},
		{file: abs, moved: ".binnacle/originals/a.md", err: "is outside the repository, yet moved says"},
		{file: "a/../a.md", moved: ".binnacle/originals/a.md", err: `file "a/../a.md" is not a plain relative path`},
		{file: "a.md", moved: "../a.md", err: `moved "../a.md" is not a plain relative path`},
		{file: "a.md", moved: ".binnacle//a.md", err: "a part is empty"},
	} {
		t.Run(tc.file+" "+tc.moved, func(t *testing.T) {
			rec := importer.Record{Originals: []importer.Original{{Agent: "a", File: tc.file, Format: "claude", SHA256: importer.Hash(nil), Moved: tc.moved}}}
			p := filepath.Join(t.TempDir(), importer.RecordFile)
			require.NoError(t, os.WriteFile(p, rec.Format(), 0o644))
			got, err := importer.ReadRecord(p)
			if tc.err == "" {
				require.NoError(t, err)
				assert.Equal(t, rec, got)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
			assert.Contains(t, err.Error(), "remove that entry (or the file, if it does not read), then import those agents again")
		})
	}
}
