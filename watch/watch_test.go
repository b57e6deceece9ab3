package watch

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// started runs Run over roots in the background and returns a channel
// that receives once per job, the first run already taken.
func started(t *testing.T, roots ...string) (chan struct{}, context.CancelFunc, chan error) {
	return startedQuiet(t, 50*time.Millisecond, roots...)
}

func startedQuiet(t *testing.T, quiet time.Duration, roots ...string) (chan struct{}, context.CancelFunc, chan error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	runs := make(chan struct{}, 100)
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, func() []string { return roots }, quiet, func(context.Context) { runs <- struct{}{} })
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	ran(t, runs)
	return runs, cancel, done
}

func ran(t *testing.T, runs chan struct{}) {
	t.Helper()
	select {
	case <-runs:
	case <-time.After(10 * time.Second):
		t.Fatal("the job did not run again")
	}
}

func quiet(t *testing.T, runs chan struct{}) {
	t.Helper()
	select {
	case <-runs:
		t.Fatal("the job ran with nothing changed")
	case <-time.After(1500 * time.Millisecond):
	}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
	require.NoError(t, os.WriteFile(path, []byte(text), 0o644))
}

// A file written, a file saved by rename over it, a file in a
// subdirectory: each runs the job again.
func TestRunSeesChanges(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "agents")
	write(t, filepath.Join(dir, "config.kdl"), "a")
	write(t, filepath.Join(dir, "prompts", "p.md"), "p")
	runs, _, _ := started(t, dir)
	quiet(t, runs)

	write(t, filepath.Join(dir, "config.kdl"), "b")
	ran(t, runs)

	write(t, filepath.Join(dir, ".config.kdl.swp"), "c")
	require.NoError(t, os.Rename(filepath.Join(dir, ".config.kdl.swp"), filepath.Join(dir, "config.kdl")))
	ran(t, runs)

	write(t, filepath.Join(dir, "prompts", "p.md"), "q")
	ran(t, runs)
}

// Many changes at once run the job once they stop (a quiet time long
// enough for a busy machine to write them all within it).
func TestRunTakesABurstAsOne(t *testing.T) {
	dir := t.TempDir()
	runs, _, _ := startedQuiet(t, time.Second, dir)
	for i := range 20 {
		write(t, filepath.Join(dir, "config.kdl"), string(rune('a'+i)))
	}
	ran(t, runs)
	quiet(t, runs)
}

// A layer directory that appears later, or is put in the place of
// another, is watched again.
func TestRunWatchesDirectoriesThatAppearOrAreReplaced(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".binnacle", "agents")
	runs, _, _ := started(t, dir)

	write(t, filepath.Join(dir, "config.kdl"), "a") // creates .binnacle/agents
	ran(t, runs)
	write(t, filepath.Join(dir, "config.kdl"), "b")
	ran(t, runs)

	next := filepath.Join(root, ".binnacle", "agents.new")
	write(t, filepath.Join(next, "config.kdl"), "c")
	quiet(t, runs) // a sibling is not a layer
	require.NoError(t, os.Rename(dir, filepath.Join(root, ".binnacle", "agents.old")))
	require.NoError(t, os.Rename(next, dir))
	ran(t, runs)
	write(t, filepath.Join(dir, "config.kdl"), "d")
	ran(t, runs)
}

// Changes elsewhere do not run the job; a cancelled context ends Run.
func TestRunIgnoresOtherFilesAndStops(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "agents")
	write(t, filepath.Join(dir, "config.kdl"), "a")
	runs, cancel, done := started(t, dir)
	write(t, filepath.Join(root, "README.md"), "x")
	quiet(t, runs)
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
		done <- nil // for the cleanup
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not stop")
	}
}
