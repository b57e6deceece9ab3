package emit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlanCompanions: a companion file carries no marker; it is bn's when
// the agent file bn wrote records its digest, edited when it no longer
// matches, and in the way when no agent file of bn's records it.
func TestPlanCompanions(t *testing.T) {
	dir := t.TempDir()
	agents, prompts := filepath.Join(dir, "agents"), filepath.Join(dir, "prompts")
	require.NoError(t, os.MkdirAll(agents, 0o755))
	require.NoError(t, os.MkdirAll(prompts, 0o755))
	write := func(path, content string) { require.NoError(t, os.WriteFile(path, []byte(content), 0o644)) }
	agent := func(name, prompt string) {
		write(filepath.Join(agents, name+".toml"), string(Seal(WithCompanion([]byte(Marker("bn x")+"a = 1\n"), []byte(prompt)))))
	}
	agent("mine", "old\n")
	write(filepath.Join(prompts, "mine.md"), "old\n")
	agent("edited", "old\n")
	write(filepath.Join(prompts, "edited.md"), "edited by hand\n")
	write(filepath.Join(prompts, "theirs.md"), "not bn's\n")
	write(filepath.Join(prompts, "legacy.md"), string(Seal([]byte(Marker("bn x")+"old\n"))))
	agent("gone", "bye\n")
	write(filepath.Join(prompts, "gone.md"), "bye\n")
	write(filepath.Join(prompts, "other.md"), "not bn's either\n")

	records, err := CompanionRecords(agents, ".toml", false, nil, func(p string) string {
		return filepath.Join(prompts, filepath.Base(p[:len(p)-len(".toml")])+".md")
	})
	require.NoError(t, err)
	var wants []Want
	for _, n := range []string{"mine", "edited", "theirs", "legacy", "new"} {
		wants = append(wants, Want{Path: filepath.Join(prompts, n+".md"), Content: []byte("new\n")})
	}
	for _, tt := range []struct {
		force, prune bool
		want         map[string]Action
	}{
		{want: map[string]Action{"mine": Update, "edited": Edited, "theirs": Conflict, "legacy": Update, "new": Create, "gone": Stale}},
		{force: true, prune: true, want: map[string]Action{"mine": Update, "edited": Overwrite, "theirs": Overwrite, "legacy": Update, "new": Create, "gone": Remove}},
	} {
		p, err := PlanCompanions(prompts, ".md", false, wants, records, tt.force, tt.prune)
		require.NoError(t, err)
		got := map[string]Action{}
		for _, f := range p.Files {
			got[filepath.Base(f.Path[:len(f.Path)-len(".md")])] = f.Action
		}
		assert.Equal(t, tt.want, got, "force %v, prune %v", tt.force, tt.prune)
	}
}
