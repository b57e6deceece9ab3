package probe

import (
	"reflect"
	"sync"
	"testing"
)

// TestPluginHosts installs a Claude Code plugin, as export writes it,
// with each client besides Claude Code that installs one, starts its
// agent there, and compares what the client did with the golden file
// (make probes rewrites it after review): the name it knows the agent by,
// the tools it offers it, or why it could not start it.
func TestPluginHosts(t *testing.T) {
	path := HostsPath("..")
	g, err := ReadHosts(path)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	changed := false
	// Side by side (make test-clients runs three at once): the group
	// returns when every host is done.
	t.Run("hosts", func(t *testing.T) {
		for i, want := range g.Hosts {
			t.Run(want.Client, func(t *testing.T) {
				t.Parallel()
				bin := installed(t, want.Client)
				got, err := PluginHosts[want.Client](Run{Bin: bin, Name: "probe-read-only", File: g.File})
				if err != nil {
					t.Fatal(err)
				}
				if !same(want.Observation, got.Observation) || want.Agent != got.Agent || want.Blocked != got.Blocked {
					mu.Lock()
					changed = true
					mu.Unlock()
					if !*update {
						t.Errorf("%s now knows the plugin's agent as %q (was %q), offers it %v (was %v), blocked: %q (was %q)",
							want.Client, got.Agent, want.Agent, got.Offered, want.Offered, got.Blocked, want.Blocked)
					}
					g.Hosts[i] = got
				}
			})
		}
	})
	if *update && changed {
		if err := g.Write(path); err != nil {
			t.Fatal(err)
		}
		t.Logf("rewrote %s", path)
	}
}

// TestPluginHostsAreProbed: every host the probes run has its case in the
// golden file, and no other.
func TestPluginHostsAreProbed(t *testing.T) {
	g, err := ReadHosts(HostsPath(".."))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, c := range g.Hosts {
		got[c.Client] = true
	}
	want := map[string]bool{}
	for client := range PluginHosts {
		want[client] = true
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the golden file has hosts %v, the probes run %v", got, want)
	}
}
