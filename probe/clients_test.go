package probe

import (
	"flag"
	"maps"
	"os"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files from what the clients do")

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
			bin, ok := Find(dir, client)
			if !ok {
				t.Fatalf("%s is not installed in %s", client, dir)
			}
			path := GoldenPath("..", client)
			g, err := ReadGolden(path)
			if err != nil {
				t.Fatal(err)
			}
			changed := false
			for i, c := range g.Cases {
				got, err := Runners[client](Run{Bin: bin, Name: "probe-" + c.Name, File: c.File})
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
			if *update && changed {
				if err := g.Write(path); err != nil {
					t.Fatal(err)
				}
				t.Logf("rewrote %s", path)
			}
		})
	}
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
