package dialect_test

import (
	"flag"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the generated tables in README.md")

var generated = regexp.MustCompile(`(?s)(<!-- generated: ([a-z-]+) -->\n)(.*?)(<!-- end: ([a-z-]+) -->)`)

// TestReadmeTables: README's vocabulary, field, tool and built-in tables
// are what the dialects do. -update rewrites them.
func TestReadmeTables(t *testing.T) {
	const path = "../README.md"
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	tables := dialect.All().DocTables(catalog(t))
	seen := map[string]bool{}
	out := generated.ReplaceAllStringFunc(string(src), func(m string) string {
		g := generated.FindStringSubmatch(m)
		name := g[2]
		require.Equal(t, name, g[5], "README: section %q ends as %q", name, g[5])
		want, ok := tables[name]
		require.True(t, ok, "README: no table named %q", name)
		seen[name] = true
		if !*update {
			assert.Equal(t, want, g[3], "README's %q table is out of date; run go test ./dialect -update", name)
		}
		return g[1] + want + g[4]
	})
	for name := range tables {
		assert.True(t, seen[name], "README has no generated %q table", name)
	}
	if *update && out != string(src) {
		require.NoError(t, os.WriteFile(path, []byte(out), 0o644))
	}
	assert.False(t, strings.Contains(out, "../shared"), "README points outside the repository")
}
