package verify

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/probe"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A client that starts so many sub-agents a run: the first runs are
// offered as many as the client is known to start (all in one run when
// it is not known), side by side; the agents they did not start go to
// further runs, side by side, each offered as many as a first run
// started and holding every file of the project; each agent is
// seen as a run that started it saw it, as the runs one after another saw
// it; an agent no run starts runs alone, and one the client did not load
// is not run.
func TestBatchRunsTheRestSideBySide(t *testing.T) {
	d, _ := dialect.All().Lookup("copilot")
	for _, tt := range []struct {
		name      string
		agents    int
		most      int    // the most a run starts
		atOnce    int    // the most the client is known to start (client.atOnce)
		never     string // an agent no run starts
		notLoaded string // an agent the client does not load
		runs      []int  // how many agents each run is offered, in order
		// sideBySide: the time a run of two side by side has (the
		// runs share the cores: as long as one run of them all)
		sideBySide time.Duration
	}{
		{name: "all in one run", agents: 3, most: 5, runs: []int{4}},
		{name: "the rest side by side", agents: 7, most: 2, runs: []int{8, 2, 2, 2}, sideBySide: probe.BatchTime(6)},
		{name: "one never started", agents: 5, most: 2, never: "a3", runs: []int{6, 2, 2, 1}},
		{name: "one not loaded", agents: 4, most: 2, notLoaded: "a1", runs: []int{5, 2}},
		{name: "as many as the client starts, side by side", agents: 7, most: 3, atOnce: 3, runs: []int{3, 3, 2}},
		{name: "fewer than the client is known to start", agents: 9, most: 3, atOnce: 4, runs: []int{4, 4, 2, 2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var subs []subject
			for i := range tt.agents {
				id := fmt.Sprintf("a%d", i)
				subs = append(subs, subject{agent: id, id: id, rel: ".github/agents/" + id + ".agent.md", file: "file of " + id, uses: []probe.Use{{Command: probe.ShellProbe}}})
			}
			subs = append(subs, subject{agent: baselineName, id: baselineName, rel: ".github/agents/base.agent.md", file: "base", uses: []probe.Use{{Command: probe.ShellProbe}}})
			var mu sync.Mutex
			var offered []int
			var alone []string
			c := client{info: d.Info(), atOnce: tt.atOnce,
				run: func(r probe.Run) (probe.Observation, error) {
					mu.Lock()
					defer mu.Unlock()
					alone = append(alone, r.Name)
					return probe.Observation{Offered: []string{"alone " + r.Name}}, nil
				},
				runBatch: func(tool string, b probe.Batch) (probe.BatchResult, error) {
					assert.Len(t, b.Files, len(subs), "a run holds every file of the project")
					assert.GreaterOrEqual(t, b.Timeout, probe.BatchTime(len(b.Runs)))
					res := probe.BatchResult{Observations: map[string]probe.Observation{}}
					for _, s := range subs {
						if s.id != tt.notLoaded {
							res.Loaded = append(res.Loaded, s.id)
						}
					}
					for _, r := range b.Runs {
						if len(res.Observations) < tt.most && r.Name != tt.never && r.Name != tt.notLoaded {
							res.Observations[r.Name] = probe.Observation{Offered: []string{"sub " + r.Name}}
						}
					}
					mu.Lock()
					defer mu.Unlock()
					offered = append(offered, len(b.Runs))
					if tt.sideBySide != 0 && len(b.Runs) == 2 {
						assert.Equal(t, tt.sideBySide, b.Timeout)
					}
					return res, nil
				}}
			seen, err := c.batch(subs)
			require.NoError(t, err)
			slices.Sort(offered) // runs go side by side
			slices.Reverse(offered)
			assert.Equal(t, tt.runs, offered)
			for i, s := range subs {
				switch s.id {
				case tt.never:
					assert.Equal(t, seen[i], seenAs("alone "+s.id, false), s.id)
				case tt.notLoaded:
					assert.True(t, seen[i].notLoaded, s.id)
				default:
					assert.Equal(t, seen[i], seenAs("sub "+s.id, true), s.id)
				}
			}
			if tt.never != "" {
				assert.Equal(t, []string{tt.never}, alone)
			} else {
				assert.Empty(t, alone)
			}
		})
	}
}

// seenAs is a subject seen offered one tool.
func seenAs(tool string, sub bool) seen {
	return seen{obs: probe.Observation{Offered: []string{tool}}, sub: sub}
}
