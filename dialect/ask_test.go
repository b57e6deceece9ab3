package dialect_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// careful asks the user before it edits, fetches or pushes.
const careful = "---\ndescription: d\npermission:\n  edit: ask\n  webfetch: ask\n  bash:\n    \"*\": allow\n    \"git push*\": ask\n---\nHelp, asking first.\n"

// TestAskCrosses: an ask read from OpenCode or Kilo is the definition's
// (agents.Tools.Ask), written back as ask by both, even after the tools
// change, and every crossing that writes it as allowed reports it
// widened, unless the agent no longer has the use at all.
func TestAskCrosses(t *testing.T) {
	tests := []struct {
		name, from, src, to string
		deny                []string // denied after import
		written             []string // in the file written
		asks                []string // the definition's asks, as read
		widened             []string // the asks reported widened
	}{
		{name: "opencode back to opencode", from: "opencode", src: careful, to: "opencode",
			asks:    []string{"edit", "create", "notebook", "webfetch", "shell(git push*)"},
			written: []string{"edit: ask", "webfetch: ask", "git push*: ask"}},
		{name: "opencode to kilo", from: "opencode", src: careful, to: "kilo",
			written: []string{"edit: ask", "webfetch: ask", "git push*: ask"}},
		{name: "kilo to opencode", from: "kilo", src: careful, to: "opencode",
			written: []string{"edit: ask", "webfetch: ask", "git push*: ask"}},
		{name: "opencode to claude: its hook asks", from: "opencode", src: careful, to: "claude",
			written: []string{"matcher: Bash|Edit|MultiEdit|Write|NotebookEdit|WebFetch", "--hook claude"}},
		{name: "opencode to qwen: its hook asks", from: "opencode", src: careful, to: "qwen",
			written: []string{"--hook qwen"}},
		{name: "kilo to gemini", from: "kilo", src: careful, to: "gemini",
			widened: []string{"edit", "create", "notebook", "webfetch", "shell(git push*)"}},
		{name: "tools changed since import: the asks are written from them", from: "opencode", src: careful, to: "opencode", deny: []string{"shell(rm:*)"},
			written: []string{"rm *: deny", "edit: ask", "webfetch: ask", "git push*: ask"}},
		{name: "tools changed since import, to kilo", from: "opencode", src: careful, to: "kilo", deny: []string{"shell(rm:*)"},
			written: []string{"rm *: deny", "edit: ask", "webfetch: ask", "git push*: ask"}},
		{name: "a use denied since import asks nothing", from: "opencode", src: careful, to: "gemini", deny: []string{"edit", "create", "notebook", "shell(git push*)"},
			widened: []string{"webfetch"}},
		{name: "a later rule overrides the ask", from: "opencode", to: "claude",
			src: "---\ndescription: d\npermission:\n  bash: ask\n  \"*\": allow\n---\nb\n"},
		{name: "everything asks: what the hook does not see is widened", from: "opencode", to: "claude",
			src: "---\ndescription: d\npermission: ask\n---\nb\n",
			widened: slices.DeleteFunc(kindNames(), func(k string) bool {
				return slices.Contains([]string{"read", "edit", "create", "notebook", "shell", "webfetch"}, k)
			})},
		{name: "everything asks, to gemini", from: "opencode", to: "gemini",
			src: "---\ndescription: d\npermission: ask\n---\nb\n", widened: kindNames()},
		{name: "an ask of a pattern only", from: "kilo", to: "codex",
			src: "---\ndescription: d\npermission:\n  bash:\n    \"git push*\": ask\n---\nb\n", widened: []string{"shell(git push*)"}},
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
			if tt.asks != nil {
				assert.ElementsMatch(t, tt.asks, im.Def.Tools.Ask)
			}
			var widened []string
			for _, l := range losses {
				if asked, _, ok := strings.Cut(l.Detail, ": the agent's tool asks the user before each use;"); ok && l.Kind == dialect.Widened {
					for _, a := range strings.Split(strings.TrimPrefix(asked, "ask "), ", ") {
						widened = append(widened, strings.Trim(a, `"`))
					}
				}
			}
			assert.ElementsMatch(t, tt.widened, widened, "%s\n%+v", out.Content, losses)
			// A hook's asks are in its rules, not in the file.
			if len(tt.widened) == 0 && (d.Info().Asks || len(def.Tools.Ask) == 0) {
				back := read(t, tt.to, d.Info().Dir+"/careful"+d.Info().Ext, string(out.Content))
				assert.True(t, def.Tools.Equal(back.Def.Tools), "%+v became %+v", def.Tools, back.Def.Tools)
				if d.Info().Asks {
					assert.True(t, slices.ContainsFunc(back.Notes, func(n string) bool { return strings.Contains(n, "asks the user before each use") }), "the ask is lost: %q", back.Notes)
					assert.NotEmpty(t, back.Def.Tools.Ask)
				}
			}
		})
	}
}

// kindNames are every bn kind, as "everything asks" reads.
func kindNames() []string {
	var out []string
	for _, ki := range agents.Kinds {
		out = append(out, string(ki.Kind))
	}
	return out
}
