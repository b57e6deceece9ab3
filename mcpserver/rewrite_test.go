package mcpserver

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/binnacle-dev/bn/resolver"
	"github.com/binnacle-dev/bn/resolver/resolvertest"
	"github.com/binnacle-dev/bn/views"
	"github.com/stretchr/testify/assert"
)

// TestCheckToolUnderRewrites: while the config.kdl that narrows a
// built-in agent is rewritten over and over (removed and made again,
// truncated and written again), check_tool never answers that the agent
// may do what the narrowing denies: it answers as the file says, or
// refuses to answer.
func TestCheckToolUnderRewrites(t *testing.T) {
	narrow := "agent do {\n    tools {\n        deny \"shell(git push:*)\"\n    }\n}\n"
	for _, how := range []string{resolvertest.Remove, resolvertest.Truncate} {
		t.Run(how, func(t *testing.T) {
			dir, layers := testLayers(t, narrow)
			cs := connectLoader(t, testLoader(layers))
			path := filepath.Join(dir, "config.kdl")
			refused := 0
			allowed := resolvertest.Judge(t, resolver.QuietTime, func() (int, time.Duration) {
				r := resolvertest.Rewrite(path, []byte(narrow), how)
				allowed := 0
				refused = 0
				for range 40 {
					time.Sleep(resolvertest.Pace)
					var out views.Check
					res := call(t, cs, "check_tool", map[string]any{"name": "do", "tool": "shell(git push origin main)"}, &out)
					switch {
					case res.IsError:
						refused++
					case out.Allowed:
						allowed++
					}
				}
				return allowed, r.Stop()
			})
			assert.Zero(t, allowed, "check_tool allowed what the narrowing denies (%d refused to answer)", refused)
			t.Logf("%s: 40 calls, %d refused to answer, none allowed", how, refused)
		})
	}
}
