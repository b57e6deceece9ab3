package probe

import (
	"flag"
	"maps"
	"os"
	"path/filepath"
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
			bin, ok := Find(dir, client)
			if !ok {
				t.Fatalf("%s is not installed in %s", client, dir)
			}
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

// TestRunnersAreTheVerifiedTools: the tools whose record names a client
// (dialect.Info.Client) are those the probes run, and each such client is
// pinned in the Makefile's CLIENTS at the version the record names, so
// that the export report, verify and the docs say "verified" of a tool
// exactly when a client is run for it.
func TestRunnersAreTheVerifiedTools(t *testing.T) {
	verified := dialect.All().Verifiable()
	slices.Sort(verified)
	assert.Equal(t, slices.Sorted(maps.Keys(Runners)), verified)
	makefile, err := os.ReadFile(filepath.Join("..", "Makefile"))
	require.NoError(t, err)
	var pinned []string
	for _, line := range strings.Split(string(makefile), "\n") {
		if rest, ok := strings.CutPrefix(line, "CLIENTS"); ok {
			_, list, _ := strings.Cut(rest, "=")
			pinned = strings.Fields(list)
		}
	}
	require.NotEmpty(t, pinned, "no CLIENTS line in the Makefile")
	for _, d := range dialect.All() {
		if c := d.Info().Client; c != "" {
			assert.Contains(t, pinned, c, "%s's client is not pinned at that version in the Makefile's CLIENTS", d.Info().Title)
		}
	}
}
