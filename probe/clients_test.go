package probe

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var (
	update = flag.Bool("update", false, "rewrite the golden files from what the clients do")
	cases  = flag.String("cases", "", "run only the fixtures whose name matches this `regexp` (the others keep their observations)")
)

// TestClients runs each installed client on its fixtures and compares what
// it offers and runs with the golden file: a client whose behaviour
// changed fails here with the difference (make probes writes the new
// observations after review). Without BN_CLIENTS_DIR (make test-clients
// sets it) there is nothing to run.
func TestClients(t *testing.T) {
	dir := os.Getenv("BN_CLIENTS_DIR")
	if dir == "" {
		t.Skip("BN_CLIENTS_DIR is not set: the real clients are installed by make test-clients")
	}
	for _, client := range slices.Sorted(maps.Keys(Runners)) {
		t.Run(client, func(t *testing.T) {
			bin := installed(t, client)
			path := GoldenPath("..", client)
			g, err := ReadGolden(path)
			if err != nil {
				t.Fatal(err)
			}
			only, err := regexp.Compile(*cases)
			if err != nil {
				t.Fatalf("-cases: %v", err)
			}
			changed := false
			for i, c := range g.Cases {
				if !only.MatchString(c.Name) {
					continue
				}
				got, err := Runners[client](Run{Bin: bin, Name: "probe-" + c.Name, File: c.File, Command: c.Command})
				if err != nil {
					t.Errorf("%s: %v", c.Name, err)
					continue
				}
				if !same(c.Observation, got) {
					changed = true
					if !*update {
						t.Errorf("%s %s: the client now offers %v (was %v), the shell probe %s (was %s), rejects the file: %q (was %q)",
							client, c.Name, got.Offered, c.Offered, callText(got.Call), callText(c.Call), got.Rejected, c.Rejected)
					}
				}
				g.Cases[i].Observation = got
			}
			if subs, ok := batchCases(t, client, bin, g, only); ok {
				for i, c := range g.Cases {
					if !only.MatchString(c.Name) {
						continue
					}
					if got := subs[c.Name]; !reflect.DeepEqual(got, c.Sub) {
						changed = true
						if !*update {
							t.Errorf("%s %s: started as a sub-agent, the client now offers %v (was %v)", client, c.Name, subText(got), subText(c.Sub))
						}
						g.Cases[i].Sub = got
					}
				}
			}
			if *update && changed {
				if err := g.Write(path); err != nil {
					t.Fatal(err)
				}
				t.Logf("rewrote %s", path)
			}
		})
	}
}

// batchCases starts, for a client that batches, every fixture at once as
// a sub-agent (RunBatch), and says what each was offered.
func batchCases(t *testing.T, client, bin string, g Golden, only *regexp.Regexp) (map[string]*SubObservation, bool) {
	if _, ok := fanouts[client]; !ok {
		return nil, false
	}
	d, _ := dialect.All().Lookup(client)
	b := Batch{Bin: bin, Files: map[string]string{}}
	for _, c := range g.Cases {
		if only.MatchString(c.Name) {
			name := "probe-" + c.Name
			b.Files[d.Info().Dir+"/"+name+d.Info().Ext] = c.File
			b.Runs = append(b.Runs, Run{Name: name})
		}
	}
	res, err := RunBatch(client, b)
	if err != nil {
		t.Errorf("%s, the fixtures as sub-agents: %v", client, err)
		return nil, false
	}
	subs := map[string]*SubObservation{}
	for _, c := range g.Cases {
		if o, ok := res.Observations["probe-"+c.Name]; ok {
			subs[c.Name] = &SubObservation{Offered: o.Offered}
		}
	}
	return subs, true
}

func subText(s *SubObservation) string {
	if s == nil {
		return "nothing: not started"
	}
	return fmt.Sprint(s.Offered)
}

func same(a, b Observation) bool {
	return a.Rejected == b.Rejected && slices.Equal(a.Offered, b.Offered) && (a.Call == nil) == (b.Call == nil) && (a.Call == nil || a.Call.Ran == b.Call.Ran)
}

func callText(r *Result) string {
	switch {
	case r == nil:
		return "not asked"
	case r.Ran:
		return "ran"
	}
	return "refused (" + strings.TrimSpace(r.Output) + ")"
}

// TestRunnersAreTheVerifiedTools: the tools whose record names a client
// (dialect.Info.Client) are those the probes run, and each such client is
// pinned in the Makefile's CLIENTS at the version the record names, so
// that the export report, verify and the docs say "verified" of a tool
// exactly when a client is run for it.
func TestRunnersAreTheVerifiedTools(t *testing.T) {
	verified := dialect.All().Verifiable()
	slices.Sort(verified)
	assert.Equal(t, slices.Sorted(maps.Keys(Runners)), verified)
	core, heavy := makefilePins(t)
	require.NotEmpty(t, core, "no CLIENTS line in the Makefile")
	pinned := append(core, heavy...)
	for _, d := range dialect.All() {
		if c := d.Info().Client; c != "" {
			assert.Contains(t, pinned, c, "%s's client is not pinned at that version in the Makefile's CLIENTS or HEAVY_CLIENTS", d.Info().Title)
		}
	}
}

// TestSubAgentsAsAtTopLevel: a client verify starts agents in as
// sub-agents offers each what it offers the agent at top level, but for
// some of the tools its record says it may withhold
// (dialect.Info.SubWithheld), as its golden shows; no other client has
// sub-agent observations.
func TestSubAgentsAsAtTopLevel(t *testing.T) {
	for _, d := range dialect.All() {
		info := d.Info()
		_, batches := fanouts[info.Name]
		assert.Equal(t, batches, info.SubWithheld != nil, "%s: verify batches it exactly when its record says what a sub-agent is not offered", info.Title)
		if info.Client == "" {
			continue
		}
		g, err := ReadGolden(GoldenPath("..", info.Name))
		require.NoError(t, err)
		seen := 0
		for _, c := range g.Cases {
			if c.Sub == nil {
				continue
			}
			seen++
			for _, n := range c.Sub.Offered {
				assert.Contains(t, c.Offered, n, "%s %s: a sub-agent is offered a tool the agent is not at top level", info.Name, c.Name)
			}
			for _, n := range c.Offered {
				if !slices.Contains(c.Sub.Offered, n) {
					assert.Contains(t, info.SubWithheld, n, "%s %s: a sub-agent is not offered a tool the agent is at top level, and the record does not say so", info.Name, c.Name)
				}
			}
		}
		if batches {
			assert.NotZero(t, seen, "%s batches, yet its golden shows no agent started as a sub-agent (make probes)", info.Name)
		} else {
			assert.Zero(t, seen, "%s does not batch, yet its golden has sub-agent observations", info.Name)
		}
	}
}

// makefilePins reads the clients the Makefile pins (name@version):
// CLIENTS, which make test-clients always installs, and HEAVY_CLIENTS,
// which it installs only with MORE_CLIENTS=1.
func makefilePins(t *testing.T) (core, heavy []string) {
	makefile, err := os.ReadFile(filepath.Join("..", "Makefile"))
	require.NoError(t, err)
	for _, line := range strings.Split(string(makefile), "\n") {
		switch name, list, _ := strings.Cut(line, ":="); strings.TrimSpace(name) {
		case "CLIENTS":
			core = append(core, strings.Fields(list)...)
		case "HEAVY_CLIENTS":
			heavy = append(heavy, strings.Fields(list)...)
		}
	}
	return core, heavy
}

// A client that unpacks itself as it starts (CacheEnv) unpacks into the
// directory the runs share, not into each run's fresh home: the second
// run finds it unpacked.
func TestCacheEnv(t *testing.T) {
	if os.Getenv("BN_CLIENTS_DIR") == "" {
		t.Skip("BN_CLIENTS_DIR is not set: the real clients are installed by make test-clients")
	}
	for tool := range unpacks {
		t.Run(tool, func(t *testing.T) {
			bin := installed(t, tool)
			cache := t.TempDir()
			for range 2 {
				home := t.TempDir()
				out, err := run(t.Context(), home, append(baseEnv(home), CacheEnv(tool, cache)...), bin, "--version")
				require.NoError(t, err, out)
				entries, err := os.ReadDir(filepath.Join(home, ".cache"))
				if !os.IsNotExist(err) {
					assert.Empty(t, entries, "the client unpacked into its home")
				}
			}
			entries, err := os.ReadDir(cache)
			require.NoError(t, err)
			assert.NotEmpty(t, entries, "the client did not unpack into the shared cache")
		})
	}
	assert.Nil(t, CacheEnv("claude", t.TempDir()), "Claude Code does not unpack itself")
}
