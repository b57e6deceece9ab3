package dialect_test

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite the generated tables in docs/")

var generated = regexp.MustCompile(`(?s)(<!-- generated: ([a-z-]+) -->\n)(.*?)(<!-- end: ([a-z-]+) -->)`)

// TestDocTables: the vocabulary, field, tool and built-in tables in docs/
// are what the dialects do. Each table is generated in exactly one place;
// -update rewrites them.
func TestDocTables(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	require.NoError(t, err)
	tables := dialect.All().DocTables(catalog(t))
	seen := map[string]string{}
	for _, path := range files {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		out := generated.ReplaceAllStringFunc(string(src), func(m string) string {
			g := generated.FindStringSubmatch(m)
			name := g[2]
			require.Equal(t, name, g[5], "%s: section %q ends as %q", path, name, g[5])
			want, ok := tables[name]
			require.True(t, ok, "%s: no table named %q", path, name)
			require.Empty(t, seen[name], "%s: the %q table is generated in %s already", path, name, seen[name])
			seen[name] = path
			if !*update {
				assert.Equal(t, want, g[3], "%s: the %q table is out of date; run go test ./dialect -update", path, name)
			}
			return g[1] + want + g[4]
		})
		if *update && out != string(src) {
			require.NoError(t, os.WriteFile(path, []byte(out), 0o644))
		}
	}
	for name := range tables {
		assert.NotEmpty(t, seen[name], "no file in docs/ has the generated %q table", name)
	}
}
