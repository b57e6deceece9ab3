package verify

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/internal/clientbin"
	"github.com/binnacle-dev/bn/par"
	"github.com/binnacle-dev/bn/probe"
	"github.com/binnacle-dev/bn/resolver"
)

// Options say what to verify.
type Options struct {
	Targets   []string // tools to verify (empty: every tool a probe runs)
	Agents    []string // agents to verify (empty: what export writes)
	ClientDir string   // where the clients are (empty: PATH)
	// Root is the repository: the files the tools load are read there.
	Root string
	// Hooks is what a client needs to run the hooks an exported file
	// runs (probe.HookEnv): bn on PATH.
	Hooks []string
	// Progress, when set, is told how far each client is, as it goes.
	Progress func(target string, done, total int)
	// Context, when set, stops the run: once it is done, every client
	// running is killed with the processes it started, and none starts.
	Context context.Context
}

// NothingToVerify is how a client ran when the project has no agent file
// for its tool: it did not run.
const NothingToVerify = "not run: the project has no agent for it"

// Client is one tool's client, found or not.
type Client struct {
	Target string `json:"target"`
	Path   string `json:"path,omitempty"`
	Found  bool   `json:"found"`
	// Package is the npm package of the client, at the version the probes
	// run: what to install when it is not found.
	Package string `json:"package"`
	// How the client ran (AsSubAgents, AsServer, OneByOne, or
	// NothingToVerify), and how long
	// it took for all the agents.
	How     string  `json:"how,omitempty"`
	Seconds float64 `json:"seconds,omitempty"`
	// Refused are the files for which the client refused the whole
	// project, loading none of its agents while each was there.
	Refused []string `json:"refused,omitempty"`
	// Error is why the client could not be asked at all.
	Error string `json:"error,omitempty"`
}

// Result is what one tool grants one agent, against its definition.
type Result struct {
	Agent  string `json:"agent"`
	Target string `json:"target"`
	// File is the file the client loaded, in the repository.
	File        string             `json:"file,omitempty"`
	Same        bool               `json:"same"`
	Offered     []string           `json:"offered"`
	Differences []probe.Difference `json:"differences"`
	// Notes say what of the file verify did not run: the repository's
	// own hooks and servers.
	Notes []string `json:"notes,omitempty"`
	// Advisory are the limits export carries in the file that do not
	// hold against what else the agent may do (dialect.Advisory): a
	// client that applies them is still walked around.
	Advisory []string `json:"advisory,omitempty"`
	Error    string   `json:"error,omitempty"`
}

// Report is a verification: the clients, the files on disk, and a result
// per agent file and tool.
type Report struct {
	Clients []Client `json:"clients"`
	Files   []File   `json:"files"`
	Results []Result `json:"results"`
	// Verified counts the results a client gave; Differ those that
	// differ from the definition (or failed); Drifted the files on disk
	// that differ from what export would write.
	Verified int `json:"verified"`
	Differ   int `json:"differ"`
	Drifted  int `json:"drifted"`
	// NotVerified are the tools bn writes for whose clients do not run
	// here: what bn writes for them is not verified by a client.
	NotVerified []string `json:"not_verified"`
}

// Targets are the tools verify can run: those whose client the probes
// run (dialect.Info.Client), sorted.
func Targets() []string {
	out := dialect.All().Verifiable()
	slices.Sort(out)
	return out
}

// baselineName is the agent verify adds to every project it loads: no
// limit, so what the client offers it is what the client can be seen to
// grant or withhold.
const baselineName = "bn-verify-baseline"

// Run verifies, with every client found, the agent files each tool loads
// from the repository: side by side, a client per tool.
func Run(set *resolver.Set, opts Options) (*Report, error) {
	targets := opts.Targets
	if len(targets) == 0 {
		targets = Targets()
	}
	names := opts.Agents
	ctx := opts.Context
	if ctx == nil {
		ctx = context.Background()
	}
	rep := &Report{Clients: make([]Client, len(targets)), Files: []File{}, Results: []Result{}, NotVerified: []string{}}
	for _, d := range dialect.All().Exporters() {
		if d.Info().Client == "" {
			rep.NotVerified = append(rep.NotVerified, d.Info().Name)
		}
	}
	for _, target := range targets {
		if _, ok := probe.Runners[target]; !ok {
			return nil, fmt.Errorf("--target %q: verify runs %v", target, Targets())
		}
	}
	// Each tool found plans what to ask, side by side (the set is safe to
	// resolve so), then every client is asked at once.
	plans := make([]plan, len(targets))
	var found []int
	for i, target := range targets {
		d, _ := dialect.All().Lookup(target)
		bin, ok := clientbin.Find(opts.ClientDir, target)
		rep.Clients[i] = Client{Target: target, Path: bin, Found: ok, Package: d.Info().Client}
		plans[i].d = d
		if ok {
			found = append(found, i)
		}
	}
	par.Do(len(found), 1, func(j int) {
		p := &plans[found[j]]
		start := time.Now()
		if p.files, p.subs, p.skipped, p.err = onDisk(set, p.d, opts.Root, names); p.err != nil {
			return
		}
		if p.nothing = len(p.subs) == 0 && len(p.skipped) == 0; p.nothing {
			// Nothing of the project for this tool (a fresh project):
			// no client run, which would only ask about bn's baseline.
			return
		}
		base, err := baseline(set, p.d)
		p.subs, p.err, p.took = append(p.subs, base), err, time.Since(start)
	})
	for _, i := range found {
		if err := plans[i].err; err != nil {
			return nil, err
		}
	}
	// The client's runs share what it unpacks as it starts.
	cache, err := os.MkdirTemp("", "bn-verify-cache-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(cache)
	results := make([][]Result, len(targets))
	var wg sync.WaitGroup
	for _, i := range found {
		p, cl := plans[i], &rep.Clients[i]
		if p.nothing {
			cl.How = NothingToVerify
			continue
		}
		wg.Go(func() {
			start := time.Now().Add(-p.took)
			c := client{ctx: ctx, info: p.d.Info(), bin: cl.Path, env: append(slices.Clip(opts.Hooks), probe.CacheEnv(cl.Target, filepath.Join(cache, cl.Target))...), run: probe.Runners[cl.Target], runBatch: probe.RunBatch, atOnce: probe.AtOnce(cl.Target)}
			results[i] = verifyTarget(p.d, c, p.subs, p.skipped, opts, cl)
			cl.Seconds = time.Since(start).Round(100 * time.Millisecond).Seconds()
		})
	}
	wg.Wait()
	for i := range targets {
		rep.Files = append(rep.Files, plans[i].files...)
		rep.Results = append(rep.Results, results[i]...)
	}
	for _, f := range rep.Files {
		if f.State != Same && f.State != NotBn {
			rep.Drifted++
		}
	}
	for _, r := range rep.Results {
		if r.Error == "" {
			rep.Verified++
		}
		if !r.Same {
			rep.Differ++
		}
	}
	return rep, nil
}

// plan is what verify asks one tool's client: the files on disk, the
// subjects (the baseline agent last), the agents export would not write,
// and how long planning took.
type plan struct {
	d       dialect.Dialect
	files   []File
	subs    []subject
	skipped []Result
	nothing bool // the project has no agent for the tool: no client runs
	took    time.Duration
	err     error
}

// verifyTarget asks one tool's client about subs (the files on disk as
// onDisk planned them, then the baseline agent): the project as the client
// loads it, then each agent, asked for several uses. results are those
// onDisk already has (agents export would not write).
func verifyTarget(d dialect.Dialect, c client, subs []subject, results []Result, opts Options, cl *Client) []Result {
	info := d.Info()
	if opts.Progress != nil {
		total := len(subs)
		opts.Progress(info.Name, 0, total)
		c.progress = func(done int) { opts.Progress(info.Name, min(done, total), total) }
	}
	how, why, refused, seen := c.observe(subs)
	cl.How, cl.Refused = how, refused
	if why != "" {
		cl.How += " (" + info.Title + " did not load the project as a whole: " + why + ")"
	}
	b := seen[len(seen)-1]
	if b.err != nil || b.notLoaded {
		why := "it did not load it"
		if b.err != nil {
			why = b.err.Error()
		}
		cl.Error = fmt.Sprintf("%s did not run bn's own agent, which may use every tool: %s", info.Title, why)
		return results
	}
	observable := probe.Kinds(info, b.obs.Offered)
	withheld := probe.Kinds(info, info.SubWithheld)
	for i, s := range subs[:len(subs)-1] {
		res := Result{Agent: s.agent, Target: info.Name, File: s.rel, Offered: []string{}, Differences: []probe.Difference{}, Notes: s.notes, Advisory: advisory(s.losses)}
		o := seen[i]
		switch {
		case o.err != nil:
			res.Error = o.err.Error()
		case o.notLoaded:
			res.Differences = append(res.Differences, probe.Difference{Detail: fmt.Sprintf("%s did not load %s", info.Title, s.rel)})
		case s.unread != "" && o.obs.Rejected == "":
			res.Offered = o.obs.Offered
			res.Error = "bn cannot read the file: " + s.unread
		default:
			res.Offered = o.obs.Offered
			kinds := observable
			if o.sub {
				kinds = slices.DeleteFunc(slices.Clone(observable), func(k agents.Kind) bool { return slices.Contains(withheld, k) })
			}
			res.Differences = append(res.Differences, probe.Judge(s.def, s.losses, info, o.obs, kinds)...)
		}
		res.Same = res.Error == "" && len(res.Differences) == 0
		results = append(results, res)
	}
	return results
}

// advisory are the limits among losses that the agent can walk around.
func advisory(losses []dialect.Loss) []string {
	var out []string
	for _, l := range losses {
		if l.Kind == dialect.Advisory {
			out = append(out, l.Detail)
		}
	}
	return out
}

// baseline is the agent with no limit verify adds to every project.
func baseline(set *resolver.Set, d dialect.Dialect) (subject, error) {
	def := agents.Definition{Name: baselineName, Description: "Every tool", Prompt: "Do what you are asked to do.", Tools: agents.Tools{All: true}}
	out, err := d.Render(def, def.Name, "# bn verify\n", set.Catalog())
	if err != nil {
		return subject{}, err
	}
	return subject{agent: def.Name, id: def.Name, rel: d.Info().Dir + "/" + def.Name + d.Info().Ext, file: string(out.Content), def: def,
		uses: []probe.Use{{Command: probe.ShellProbe}}}, nil
}

// harmless is def without what would run something of the repository's
// in the client: its MCP servers, and the keys of the tool's section that
// run commands (its own hooks). Notes say what was left out.
func harmless(def agents.Definition, info *dialect.Info) (agents.Definition, []string) {
	def = def.Clone()
	var notes []string
	if len(def.MCPServers) > 0 {
		var names []string
		for _, s := range def.MCPServers {
			names = append(names, s.Name)
		}
		notes = append(notes, fmt.Sprintf("MCP servers %s: not started (verify runs no command of the repository's); their tools unverified", strings.Join(names, ", ")))
		def.MCPServers = nil
	}
	if t := def.Targets[info.Name]; t != nil {
		for _, k := range slices.Clone(t.Fields.Keys) {
			if !info.Runs(k) {
				continue
			}
			t.Fields.Delete(k)
			what := k
			if k == "hooks" {
				what = "the agent's own hooks"
			}
			notes = append(notes, fmt.Sprintf("%s (%s): not bn's hook: not run, enforcement unverified", what, info.Title))
		}
	}
	return def, notes
}
