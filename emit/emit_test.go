package emit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/goccy/go-yaml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteFileAtomic(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a", "b.md")
	res, err := WriteFileAtomic(path, []byte("one"), 0o644)
	require.NoError(t, err)
	assert.Equal(t, Created, res)
	st1, _ := os.Stat(path)
	res, err = WriteFileAtomic(path, []byte("one"), 0o644)
	require.NoError(t, err)
	assert.Equal(t, Unchanged, res)
	st2, _ := os.Stat(path)
	assert.Equal(t, st1.ModTime(), st2.ModTime(), "an unchanged file is not rewritten")
	require.NoError(t, os.Chmod(path, 0o600))
	res, err = WriteFileAtomic(path, []byte("two"), 0o644)
	require.NoError(t, err)
	assert.Equal(t, Updated, res)
	st3, _ := os.Stat(path)
	assert.Equal(t, os.FileMode(0o600), st3.Mode().Perm(), "a replaced file keeps its mode")
	b, _ := os.ReadFile(path)
	assert.Equal(t, "two", string(b))
	entries, _ := os.ReadDir(filepath.Dir(path))
	assert.Len(t, entries, 1, "no temporary file is left behind")
}

func TestCopilotAgentFileSurvivesAwkwardText(t *testing.T) {
	for _, desc := range []string{"Use this: then that # not a comment", `She said "hi" and 'bye'`, "two\nlines", "- looks like a list", "[x]", "true", "@at"} {
		content, _, err := CopilotAgentFile(agents.Definition{Name: "a", Description: desc, Tools: agents.Tools{Allow: []string{"view"}}, Prompt: "P"}, "bn test")
		require.NoError(t, err)
		md, err := agents.SplitFrontmatter(content)
		require.NoError(t, err)
		var fm struct {
			Name        string   `yaml:"name"`
			Description string   `yaml:"description"`
			Tools       []string `yaml:"tools"`
		}
		require.NoError(t, yaml.Unmarshal(md.YAML, &fm), string(content))
		assert.Equal(t, desc, fm.Description)
		assert.Equal(t, "binnacle-a", fm.Name)
		assert.Equal(t, []string{"read"}, fm.Tools)
		assert.Equal(t, "P\n", string(md.Body))
	}
}

func TestCopilotToolsReportsWhatItCannotCarry(t *testing.T) {
	tools, losses := CopilotTools(agents.Tools{
		Allow: []string{"shell(git log)", "binnacle", "view", "grep", "lsp", "write", "github(get_issue)"},
		Deny:  []string{"edit", "shell(git push)"},
	})
	assert.Equal(t, []string{"execute", "binnacle/*", "read", "search", "github/get_issue"}, tools)
	assert.Equal(t, []Loss{
		{"tools", `allow "shell(git log)" widened to execute: agent files cannot limit shell commands`},
		{"tools", `allow "write" dropped: a deny rule covers every edit tool`},
		{"tools", `deny "shell(git push)" not expressible: agent files have no deny list`},
	}, losses)
}
