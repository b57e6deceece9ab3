package dialect_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// careful asks the user before it edits, fetches or pushes.
const careful = "---\ndescription: d\npermission:\n  edit: ask\n  webfetch: ask\n  bash:\n    \"*\": allow\n    \"git push*\": ask\n---\nb\n"

// TestAskCrosses: an ask read from OpenCode or Kilo is written back as
// ask by both, and every crossing that writes it as allowed reports it
// widened, unless the agent no longer has the use at all.
func TestAskCrosses(t *testing.T) {
	tests := []struct {
		name, from, src, to string
		deny                []string // denied after import
		written             []string // in the file written
		widened             []string // the labels of the asks reported widened
	}{
		{name: "opencode back to opencode", from: "opencode", src: careful, to: "opencode",
			written: []string{"edit: ask", "webfetch: ask", "git push*: ask"}},
		{name: "opencode to kilo", from: "opencode", src: careful, to: "kilo",
			written: []string{"edit: ask", "webfetch: ask", "git push*: ask"}},
		{name: "kilo to opencode", from: "kilo", src: careful, to: "opencode",
			written: []string{"edit: ask", "webfetch: ask", "git push*: ask"}},
		{name: "opencode to claude", from: "opencode", src: careful, to: "claude",
			widened: []string{"edit", "webfetch", `bash "git push*"`}},
		{name: "kilo to gemini", from: "kilo", src: careful, to: "gemini",
			widened: []string{"edit", "webfetch", `bash "git push*"`}},
		{name: "tools changed since import: written from them", from: "opencode", src: careful, to: "opencode", deny: []string{"shell(rm:*)"},
			written: []string{"rm *: deny"}, widened: []string{"edit", "webfetch", `bash "git push*"`}},
		{name: "a use denied since import asks nothing", from: "opencode", src: careful, to: "claude", deny: []string{"edit", "create", "notebook", "shell(git push*)"},
			widened: []string{"webfetch"}},
		{name: "a later rule overrides the ask", from: "opencode", to: "claude",
			src: "---\ndescription: d\npermission:\n  bash: ask\n  \"*\": allow\n---\nb\n"},
		{name: "everything asks", from: "opencode", to: "claude",
			src: "---\ndescription: d\npermission: ask\n---\nb\n", widened: []string{"every tool"}},
		{name: "an ask of a pattern only", from: "kilo", to: "codex",
			src: "---\ndescription: d\npermission:\n  bash:\n    \"git push*\": ask\n---\nb\n", widened: []string{`bash "git push*"`}},
	}
	cat := catalog(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from, _ := dialect.All().Lookup(tt.from)
			im := read(t, tt.from, from.Info().Dir+"/careful.md", tt.src)
			def := im.Def.Clone()
			def.Tools.Deny = append(def.Tools.Deny, tt.deny...)
			d, ok := dialect.All().Lookup(tt.to)
			require.True(t, ok)
			out, err := d.Render(def, "careful", "# marker\n", cat)
			require.NoError(t, err)
			losses := dialect.Asked(d.Info(), &def, out.Losses)
			for _, w := range tt.written {
				assert.Contains(t, string(out.Content), w)
			}
			var widened []string
			for _, l := range losses {
				if label, _, ok := strings.Cut(l.Detail, " asks the user before each use in "); ok && l.Kind == dialect.Widened {
					widened = append(widened, label)
				}
			}
			assert.ElementsMatch(t, tt.widened, widened, "%s\n%+v", out.Content, losses)
			if len(tt.widened) == 0 {
				back := read(t, tt.to, d.Info().Dir+"/careful"+d.Info().Ext, string(out.Content))
				assert.True(t, def.Tools.Equal(back.Def.Tools), "%+v became %+v", def.Tools, back.Def.Tools)
				if d.Info().Asks {
					assert.True(t, slices.ContainsFunc(back.Notes, func(n string) bool { return strings.Contains(n, "asks the user before each use") }), "the ask is lost: %q", back.Notes)
				}
			}
		})
	}
}
