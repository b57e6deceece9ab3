package emit_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

// awkward is an agent whose text and tools are hard to carry.
var awkward = agents.Definition{
	Name:            "awkward",
	Description:     "Use this: when \"quoting\" # matters\nand 'single' quotes, too",
	Execution:       agents.Host,
	Lifecycle:       agents.Stateless,
	Model:           "anthropic/claude-sonnet-4.5",
	ReasoningEffort: "low",
	Hidden:          true,
	Tools: agents.Tools{
		Allow: []string{"view", "shell(git diff:*)", "shell(env FOO=bar)", "write(src/*.go)", "github/get_issue", "todo", "url"},
		Deny:  []string{"write(.env)", "shell(rm -rf:*)", "github(delete_repo)", "task"},
	},
	Prompt: "Line with \"quotes\", a tab\there and a trailing # hash.\n\n---\nNot frontmatter.",
}

// TestTargetGoldens renders the built-in agents and the awkward one for
// every target and compares with testdata/golden/<target>/.
func TestTargetGoldens(t *testing.T) {
	set := resolver.Load([]resolver.Layer{resolver.EmbeddedLayer()})
	defs := []agents.Definition{awkward}
	for _, name := range set.Names() {
		a, err := set.Lookup(name)
		require.NoError(t, err)
		def := a.Definition
		def.Prompt, err = a.Prompt()
		require.NoError(t, err)
		defs = append(defs, def)
	}
	for _, target := range emit.Targets {
		for _, def := range defs {
			content, losses, err := target.Render("bn-"+def.Name, def, "bn config agents export --target "+target.Name)
			require.NoError(t, err)
			var report strings.Builder
			for _, l := range losses {
				report.WriteString(l.Field + ": " + l.Detail + "\n")
			}
			path := filepath.Join("testdata", "golden", target.Name, def.Name+target.Ext)
			golden(t, path, content)
			golden(t, path+".losses", []byte(report.String()))
		}
	}
}

func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, got, 0o644))
		return
	}
	want, err := os.ReadFile(path)
	require.NoError(t, err, "run go test ./emit -update to create it")
	assert.Equal(t, string(want), string(got), path)
}
