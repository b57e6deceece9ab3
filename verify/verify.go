package verify

import (
	"fmt"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/export"
	"github.com/binnacle-dev/bn/probe"
	"github.com/binnacle-dev/bn/resolver"
)

// Options say what to verify.
type Options struct {
	Targets   []string // tools to verify (empty: every tool a probe runs)
	Agents    []string // agents to verify (empty: what export writes)
	ClientDir string   // where the clients are (empty: PATH)
	// Hooks is what a client needs to run the hooks an exported file
	// runs (probe.HookEnv): bn on PATH.
	Hooks []string
}

// Client is one tool's client, found or not.
type Client struct {
	Target string `json:"target"`
	Path   string `json:"path,omitempty"`
	Found  bool   `json:"found"`
	// Package is the npm package of the client, at the version the probes
	// run: what to install when it is not found.
	Package string `json:"package"`
}

// Result is what one tool grants one agent, against its definition.
type Result struct {
	Agent       string             `json:"agent"`
	Target      string             `json:"target"`
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

// Report is a verification: the clients, and a result per agent and tool.
type Report struct {
	Clients []Client `json:"clients"`
	Results []Result `json:"results"`
	// Verified counts the results a client gave; Differ those that
	// differ from the definition (or failed).
	Verified int `json:"verified"`
	Differ   int `json:"differ"`
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

// Run verifies the set's agents with every client found.
func Run(set *resolver.Set, opts Options) (*Report, error) {
	targets := opts.Targets
	if len(targets) == 0 {
		targets = Targets()
	}
	names := opts.Agents
	if len(names) == 0 {
		for _, n := range set.Names() {
			if a, _ := set.Agent(n); set.Exported(a) {
				names = append(names, n)
			}
		}
	}
	rep := &Report{Clients: []Client{}, Results: []Result{}, NotVerified: []string{}}
	for _, d := range dialect.All().Exporters() {
		if d.Info().Client == "" {
			rep.NotVerified = append(rep.NotVerified, d.Info().Name)
		}
	}
	for _, target := range targets {
		run, ok := probe.Runners[target]
		if !ok {
			return nil, fmt.Errorf("--target %q: verify runs %v", target, Targets())
		}
		d, _ := dialect.All().Lookup(target)
		bin, found := probe.Find(opts.ClientDir, target)
		rep.Clients = append(rep.Clients, Client{Target: target, Path: bin, Found: found, Package: d.Info().Client})
		if !found {
			continue
		}
		observable, err := baseline(set, d, run, bin, opts.Hooks)
		if err != nil {
			return nil, err
		}
		for _, name := range names {
			rep.Results = append(rep.Results, one(set, d, probe.Run{Bin: bin, Env: opts.Hooks}, run, name, observable))
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

// baseline asks the client which kinds it offers an agent with no limits:
// those are the kinds it can be seen to grant or withhold.
func baseline(set *resolver.Set, d dialect.Dialect, run probe.Runner, bin string, env []string) ([]agents.Kind, error) {
	def := agents.Definition{Name: "bn-verify-baseline", Description: "Every tool", Prompt: "Do what you are asked to do.", Tools: agents.Tools{All: true}}
	out, err := d.Render(def, def.Name, "# bn verify\n", set.Catalog())
	if err != nil {
		return nil, err
	}
	obs, err := run(probe.Run{Bin: bin, Name: def.Name, File: string(out.Content), Env: env})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", d.Info().Title, err)
	}
	return probe.Kinds(d.Info(), obs.Offered), nil
}

// one verifies one agent with one client. What the file would run of the
// repository's own (its MCP servers, the agent's own hooks, anything else
// a key of the tool's section starts) is left out: verify runs an
// untrusted clone's agents, and runs no command of the clone's, only
// bn's hook, byte for byte as export writes it.
func one(set *resolver.Set, d dialect.Dialect, r probe.Run, run probe.Runner, name string, observable []agents.Kind) Result {
	res := Result{Agent: name, Target: d.Info().Name, Offered: []string{}, Differences: []probe.Difference{}}
	a, err := set.Lookup(name)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	def, err := a.WithPrompt()
	if err != nil {
		res.Error = err.Error()
		return res
	}
	safe, notes := harmless(def, d.Info())
	res.Notes = notes
	content, id, losses, err := export.Definition(set, safe, d, "", "bn config agents export --target "+d.Info().Name)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	for _, l := range losses {
		if l.Kind == dialect.Advisory {
			res.Advisory = append(res.Advisory, l.Detail)
		}
	}
	r.Name, r.File, r.Def = id, string(content), &safe
	obs, err := run(r)
	if err != nil {
		res.Error = err.Error()
		return res
	}
	res.Offered = obs.Offered
	res.Differences = append(res.Differences, probe.Judge(def, losses, d.Info(), obs, observable)...)
	res.Same = len(res.Differences) == 0
	return res
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
