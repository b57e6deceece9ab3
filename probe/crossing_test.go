package probe

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/dialect/dialecttest"
	"github.com/binnacle-dev/bn/internal/clientbin"
)

// crossing is one agent, as bn read it from some tool's file.
type crossing struct {
	from string // where it came from
	def  agents.Definition
}

// crossings are the probes' fixtures of every tool and the corpus agents,
// one per distinct set of tools (agents that differ only in their prompt
// cross alike).
func crossings(t *testing.T, cat *agents.Catalog) []crossing {
	reg := dialect.All()
	seen := map[string]bool{}
	var out []crossing
	add := func(from string, d dialect.Dialect, rel string, data []byte) {
		im, err := d.Read(dialect.Source{Path: filepath.Join(d.Info().Dir, rel), Rel: rel, Data: data}, cat)
		if err != nil {
			return // a file its own tool would not load either
		}
		key := d.Info().Name + fmt.Sprint(im.Def.Tools.Normalize())
		if seen[key] {
			return
		}
		seen[key] = true
		out = append(out, crossing{from, im.Def})
	}
	// In a fixed order: the clients that are sampled (crossingStride)
	// meet the same agents in every run.
	for _, client := range slices.Sorted(maps.Keys(Runners)) {
		g, err := ReadGolden(GoldenPath("..", client))
		if err != nil {
			t.Fatal(err)
		}
		d, _ := reg.Lookup(client)
		for _, c := range g.Cases {
			add(client+" fixture "+c.Name, d, "probe-"+c.Name+d.Info().Ext, []byte(c.File))
		}
	}
	root := filepath.Join("..", "testdata", "corpus")
	filepath.WalkDir(root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".md") || strings.EqualFold(e.Name(), "README.md") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		d := reg.Detect(p, data)
		add(strings.TrimPrefix(p, root+string(filepath.Separator)), d, filepath.Base(p), data)
		return nil
	})
	return out
}

// crossingStride samples the crossings for clients that take seconds to
// start (Qwen Code, about 10 s a run; Cline, Pi and oh-my-pi, which run a
// sub-agent of their own, about 30 s; a Claude Code plugin, installed
// before each run): every nth agent, so that the suite stays within CI's
// time while each still meets every kind of agent the sample holds. Kilo,
// one server for every agent, crosses them all.
var crossingStride = map[string]int{"qwen": 3, "cline": 45, "omp": 45, "pi": 45, "claude-plugin": 10}

// TestCrossings exports every crossing agent to every probed tool and
// asks the tool what it grants: nothing gained without a widened entry,
// nothing lost without a report, none stays none, all stays all.
// BN_CROSSINGS=TEXT crosses only the agents whose origin (a corpus path,
// a client's fixture) holds TEXT.
func TestCrossings(t *testing.T) {
	dir := os.Getenv("BN_CLIENTS_DIR")
	if dir == "" {
		t.Skip("BN_CLIENTS_DIR is not set: the real clients are installed by make test-clients")
	}
	cat := dialecttest.BuiltInCatalog()
	all := crossings(t, cat)
	if only := os.Getenv("BN_CROSSINGS"); only != "" {
		// A run of the crossings one collection (or fixture) adds:
		// those whose origin holds the text.
		all = slices.DeleteFunc(all, func(c crossing) bool { return !strings.Contains(c.from, only) })
	}
	for i := range all {
		def := all[i].def.Clone()
		// One name for all: crossings whose files come out the same
		// are asked of a client once.
		def.Name, def.Prompt = "cross", "Do the job."
		def.Targets = nil // another tool's own fields say nothing here
		// OpenCode offers websearch with some providers only: the
		// model is judged apart from the tools.
		def.Model = ""
		all[i].def = def
	}
	hooks := hookEnv(t)
	tallies := map[string]*Tally{}
	for _, client := range slices.Sorted(maps.Keys(Runners)) {
		tallies[client] = &Tally{}
	}
	// Clients side by side, as many as go test's -parallel: a run waits on
	// its client's start as much as it computes, and CI's time is bounded.
	t.Run("clients", func(t *testing.T) {
		for _, client := range slices.Sorted(maps.Keys(Runners)) {
			t.Run(client, func(t *testing.T) {
				t.Parallel()
				crossTo(t, client, all, hooks, cat, tallies[client])
			})
		}
	})
	// The table CI's log shows: agents per target, by what the client
	// showed.
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(w, "target\tcrossed\texact\treported\tunreported\tfalsely reported\t\n")
	for _, client := range slices.Sorted(maps.Keys(tallies)) {
		n := tallies[client]
		fmt.Fprintf(w, "%s\t%d of %d\t%d\t%d\t%d\t%d\t\n", client, n.Crossed, len(all), n.Exact, n.Reported, n.Unreported, n.FalselyReported)
	}
	w.Flush()
	t.Logf("%d crossings, agents per target:\n%s", len(all), b.String())
}

// crossTo crosses the agents to client and judges what it offers each,
// counting them in tally. A file that comes out as one before it (with
// the same rules for its hook) is judged on that run's observation: the
// client is asked once. A client that serves many agents from one
// process (OpenCode, Kilo) is asked for them all at once.
func crossTo(t *testing.T, client string, all []crossing, hooks []string, cat *agents.Catalog, tally *Tally) {
	bin := installed(t, client)
	d, _ := dialect.All().Lookup(client)
	info := d.Info()
	g, _ := ReadGolden(GoldenPath("..", client))
	observable := Observable(info, g)
	var runs []crossed
	stride := max(1, crossingStride[client])
	for i, c := range all {
		if i%stride != 0 {
			continue
		}
		out, err := d.Render(c.def, c.def.Name, "# probe\n", cat)
		if err != nil {
			t.Errorf("%s: %v", c.from, err)
			continue
		}
		runs = append(runs, crossed{c, out, string(out.Content) + fmt.Sprint(c.def.Tools)})
	}
	asked := map[string]Observation{}
	if Serves(client) {
		asked = served(t, client, bin, info, runs, hooks)
	}
	for _, r := range runs {
		def, out := r.def, r.out
		obs, ok := asked[r.key]
		if !ok {
			var err error
			obs, err = Runners[client](Run{Bin: bin, Name: def.Name, File: string(out.Content), Env: hooks, Def: &def})
			if err != nil {
				t.Errorf("%s: %v", r.from, err)
				continue
			}
			asked[r.key] = obs
		}
		diffs := Judge(def, out.Losses, info, obs, observable)
		for _, b := range diffs {
			if !b.Reported {
				t.Errorf("%s → %s: %s, unreported\n%s", r.from, client, b.Detail, out.Content)
			}
		}
		// A reported loss the client does not show errs on the
		// safe side (or is one the probe cannot see): counted in
		// the table and logged, not failed, while unreported
		// ones fail.
		falsely := FalseReports(def, out.Losses, obs, observable, diffs)
		for _, l := range falsely {
			t.Logf("%s → %s: reported %s %q, which %s does not show (offered %v)", r.from, client, l.Kind, l.Detail, info.Title, obs.Offered)
		}
		tally.Add(diffs, falsely)
	}
}

// crossed is a crossing as written for a target; key is the same for
// crossings whose files (and hooks' rules) come out the same.
type crossed struct {
	crossing
	out dialect.Rendered
	key string
}

// served asks a client that serves many agents (Server) for every
// distinct file at once, by key: one process in place of one a file.
// A file the client refuses the project for is set aside, observed as
// refused, until it loads the rest. The first file is asked of the client
// alone too: both must see the same.
func served(t *testing.T, client, bin string, info *dialect.Info, runs []crossed, hooks []string) map[string]Observation {
	// files by path in the project, the agent a key is written as, and
	// the key a path holds.
	files, names, keys := map[string]string{}, map[string]string{}, map[string]string{}
	asked := map[string]Observation{}
	for _, r := range runs {
		if _, ok := names[r.key]; ok {
			continue
		}
		names[r.key] = fmt.Sprintf("%s-%d", r.def.Name, len(names)+1)
		rel := path.Join(filepath.ToSlash(info.Dir), names[r.key]+info.Ext)
		files[rel], keys[rel] = string(r.out.Content), r.key
	}
	for {
		srv, err := StartServer(t.Context(), client, bin, files, hooks)
		if err != nil {
			t.Fatalf("%s serve: %v", client, err)
		}
		loaded, err := srv.Agents()
		if why, refused := Refused(err); refused {
			srv.Close()
			rel, reason, _ := strings.Cut(why, ": ")
			if _, ok := files[rel]; !ok {
				t.Fatalf("%s refuses the project: %s", info.Title, why)
			}
			delete(files, rel)
			asked[keys[rel]] = Observation{Offered: []string{}, Rejected: reason}
			continue
		}
		ids, idErr := srv.ToolIDs()
		srv.Close()
		if err != nil || idErr != nil {
			t.Fatalf("%s serve: %v %v", client, err, idErr)
		}
		for _, r := range runs {
			if _, done := asked[r.key]; done {
				continue
			}
			def := r.def
			run := Run{Name: names[r.key], Def: &def}
			if rules, ok := loaded[run.Name]; ok {
				asked[r.key] = srv.Observe(run, ids, rules)
			} else {
				// Kilo leaves out a file its schema rejects, and loads
				// the rest.
				asked[r.key] = Observation{Offered: []string{}, Rejected: "not found: the file was not loaded"}
			}
		}
		break
	}
	if len(runs) > 0 {
		r := runs[0]
		def := r.def
		alone, err := Runners[client](Run{Bin: bin, Name: def.Name, File: string(r.out.Content), Env: hooks, Def: &def})
		if err != nil {
			t.Fatalf("%s: %v", r.from, err)
		}
		// A refusal is worded apart by each: that it refused is compared.
		// Kilo's server registers tools of its own debug agent does not
		// list, none of a kind bn knows: what is compared is what the
		// judge reads, the kinds offered.
		got := asked[r.key]
		if got.Rejected != "" && alone.Rejected != "" {
			got.Rejected, alone.Rejected = "refused", "refused"
		}
		same := func(o Observation) Observation {
			kinds := Kinds(info, o.Offered)
			o.Offered = nil
			for _, k := range kinds {
				o.Offered = append(o.Offered, string(k))
			}
			slices.Sort(o.Offered)
			return o
		}
		if !reflect.DeepEqual(same(got), same(alone)) {
			g, _ := json.Marshal(got)
			a, _ := json.Marshal(alone)
			t.Fatalf("%s: %s serve sees %s, a run of its own %s", r.from, info.Title, g, a)
		}
	}
	return asked
}

// hookEnv builds bn, and returns what a client run adds for the hooks an
// exported file runs: bn on PATH. (Each run's sandbox holds the rules and
// the layer its hook decides from: Run.Def.)
func hookEnv(t *testing.T) []string {
	bin := filepath.Join(t.TempDir(), "bin")
	build := exec.Command("go", "build", "-o", bin+string(filepath.Separator), "../cmd/bn")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build bn: %v\n%s", err, out)
	}
	return HookEnv(bin)
}

// TestLauncherFlags runs the Copilot CLI as bn config agents launch (and
// bn-agent) starts it: a session that may use every tool, held to the
// agent's by flags alone. In -p mode the CLI refuses a command no flag
// allows (it runs those it deems read-only, such as expr, unasked), and
// --deny-tool refuses even those; --excluded-tools hides its own tools the
// agent may not use.
func TestLauncherFlags(t *testing.T) {
	bin := installed(t, "copilot")
	d, _ := dialect.All().Lookup("copilot")
	cat := dialecttest.BuiltInCatalog()
	limited := agents.Tools{Allow: []string{"read", "shell(git diff:*)"}, Deny: []string{"shell(expr:*)"}}
	def := agents.Definition{Name: "careful", Description: "Diffs, never expr", Prompt: "Work.", Tools: agents.Tools{All: true}}
	out, err := d.Render(def, def.Name, "# probe\n", cat)
	if err != nil {
		t.Fatal(err)
	}
	flags, notes := dialect.CopilotLaunchFlags(agents.Definition{Name: def.Name, Tools: limited}, cat)
	if len(notes) > 0 {
		t.Fatalf("every rule of the probe has a flag, yet: %v", notes)
	}
	for _, tt := range []struct {
		command string
		ran     bool
	}{{"git diff --no-index --stat /dev/null /dev/null", true}, {ShellProbe, false}, {"touch made-by-probe", false}} {
		obs, err := Copilot(Run{Bin: bin, Name: def.Name, File: string(out.Content), Command: tt.command, Permissions: flags})
		switch {
		case err != nil:
			t.Fatal(err)
		case obs.Call == nil:
			t.Errorf("the Copilot CLI did not offer its shell: %v", obs.Offered)
		case obs.Call.Ran != tt.ran:
			t.Errorf("%q ran=%v, want %v (%s)", tt.command, obs.Call.Ran, tt.ran, obs.Call.Output)
		default:
			t.Logf("%q ran=%v (%s)", tt.command, obs.Call.Ran, obs.Call.Output)
		}
		for _, name := range []string{"create", "edit", "task", "web_fetch"} {
			if slices.Contains(obs.Offered, name) {
				t.Errorf("--excluded-tools did not hide %s: offered %v", name, obs.Offered)
			}
		}
		if !slices.Contains(obs.Offered, "view") {
			t.Errorf("the agent may read, yet view is not offered: %v", obs.Offered)
		}
	}
	// A reader: no shell offered, and none run.
	flags, _ = dialect.CopilotLaunchFlags(agents.Definition{Name: def.Name, Tools: agents.Tools{Allow: []string{"view"}}}, cat)
	obs, err := Copilot(Run{Bin: bin, Name: def.Name, File: string(out.Content), Permissions: flags})
	switch {
	case err != nil:
		t.Fatal(err)
	case obs.Call != nil && obs.Call.Ran:
		t.Errorf("a reader ran %q (%s)", ShellProbe, obs.Call.Output)
	case slices.ContainsFunc(obs.Offered, func(n string) bool { return strings.Contains(n, "bash") || strings.Contains(n, "powershell") }):
		t.Errorf("a reader was offered a shell: %v", obs.Offered)
	default:
		t.Logf("a reader is offered %v", obs.Offered)
	}
}

// installed finds a client make test-clients installs; without
// BN_CLIENTS_DIR the test is skipped. The Makefile's HEAVY_CLIENTS are
// installed only when asked for: their probes skip without them, unless
// BN_MORE_CLIENTS says they were asked for.
func installed(t *testing.T, client string) string {
	dir := os.Getenv("BN_CLIENTS_DIR")
	if dir == "" {
		t.Skip("BN_CLIENTS_DIR is not set: the real clients are installed by make test-clients")
	}
	bin, ok := clientbin.Find(dir, client)
	if !ok && os.Getenv("BN_MORE_CLIENTS") == "" {
		_, heavy := makefilePins(t)
		if d, known := dialect.All().Lookup(client); known && slices.Contains(heavy, d.Info().Client) {
			t.Skipf("%s is installed by make test-clients MORE_CLIENTS=1", client)
		}
	}
	if !ok {
		t.Fatalf("%s is not installed in %s", client, dir)
	}
	return bin
}
