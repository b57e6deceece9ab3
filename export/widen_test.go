package export_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/export"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An agent whose Claude Code file carries bn's hook is under
// enforcement: a new definition that grants it more is found and held;
// one that grants less, and a change to an agent without the hook, are
// written.
func TestWideningsAreHeld(t *testing.T) {
	p := newPipeline(t)
	layer := filepath.Join(p.repo, ".binnacle", "agents", "config.kdl")
	define := func(guarded, scribe string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(layer), 0o755))
		require.NoError(t, os.WriteFile(layer, []byte(`agent guarded {
    description "Looks at diffs"
    tools {
        allow `+guarded+`
    }
    prompt "Review."
}
agent scribe {
    description "Free"
    tools {
        allow `+scribe+`
    }
    prompt "Do."
}
`), 0o644))
	}
	plan := func() *export.Result {
		d, _ := p.reg.Lookup("claude")
		res, err := export.Plan(p.set(), export.Options{Root: p.repo, Targets: []dialect.Dialect{d}})
		require.NoError(t, err)
		return res
	}
	define(`read "shell(git diff:*)"`, `read`)
	require.NoError(t, plan().Apply())

	define(`read edit "shell(git diff:*)"`, `read edit`)
	res := plan()
	ws, err := res.Widenings()
	require.NoError(t, err)
	require.Len(t, ws, 1, "scribe has no hook: not under enforcement")
	assert.Equal(t, "guarded", ws[0].Agent)
	assert.Equal(t, []string{"edit"}, ws[0].Grants)
	res.Hold(ws)
	require.NoError(t, res.Apply())
	actions := map[string]emit.Action{}
	for _, f := range res.Reports[0].Files {
		actions[f.Agent] = f.Action
	}
	assert.Equal(t, map[string]emit.Action{"guarded": emit.Held, "scribe": emit.Update}, actions)
	data, err := os.ReadFile(filepath.Join(p.repo, ".claude", "agents", "guarded.md"))
	require.NoError(t, err)
	assert.Contains(t, string(data), "tools: Read, Bash\n", "the held file is left as it was")

	define(`"shell(git diff:*)"`, `read edit`)
	res = plan()
	ws, err = res.Widenings()
	require.NoError(t, err)
	assert.Empty(t, ws, "a narrower file is written")
	require.NoError(t, res.Apply())

	// Wider inside what the file grants whole: the file stays the same
	// (all of Bash, and the hook), the rules the hook decides from would
	// not, and are held with it.
	define(`"shell(git:*)"`, `read edit`)
	res = plan()
	ws, err = res.Widenings()
	require.NoError(t, err)
	require.Len(t, ws, 1)
	assert.Equal(t, []string{"shell(git:*)"}, ws[0].Grants)
	res.Hold(ws)
	require.NoError(t, res.Apply())
	rules, err := os.ReadFile(filepath.Join(p.repo, ".claude", "agents", "guarded"+dialect.RulesExt))
	require.NoError(t, err)
	assert.Contains(t, string(rules), `"shell(git diff:*)"`, "the held rules are left as they were")
	assert.NotContains(t, string(rules), `"shell(git:*)"`)
}
