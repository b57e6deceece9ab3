package probe

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/binnacle-dev/bn/dialect"
)

// Batch is one client run for many agents: their files in one project,
// each agent started as a sub-agent by the client's main agent. Only for
// a client whose sub-agents are offered what an agent is offered at top
// level, but for the tools the probes' goldens show withheld
// (dialect.Info.SubWithheld).
type Batch struct {
	// Context, when set, stops the batch as Run.Context stops a run (the
	// Runs' own are not used).
	Context context.Context
	Bin     string
	// Files are the project's files by path (the agent files, and what
	// goes beside them); Runs the agents to start, with their uses.
	Files map[string]string
	Runs  []Run
	Env   []string
	// Progress, when set, is told now and then how many of the runs are
	// done.
	Progress func(done int)
	// Timeout bounds the client run (zero: BatchTime of its runs).
	Timeout time.Duration
}

// BatchResult is what a batch saw.
type BatchResult struct {
	// Loaded are the agents the client loaded from the project.
	Loaded []string
	// Observations are by agent; an agent the client did not start has
	// none.
	Observations map[string]Observation
}

// BatchTime bounds a batch: a client run, and a little more per agent.
func BatchTime(agents int) time.Duration { return clientTimeout + time.Duration(agents)*5*time.Second }

// fanout is how a client's main agent is made to start many agents at
// once, as sub-agents, each asked for its run's uses.
type fanout struct {
	tool     string
	spelling spelling
	// most is how many sub-agents the client starts at once (0: no
	// limit); it refuses the calls beyond, each as costly to it as a
	// sub-agent started.
	most int
	// spawn is the main agent's call that starts agent with prompt.
	spawn func(agent, prompt string) *Call
	// env points the client at the stand-in (url), in home.
	env func(home, url string) []string
	// args run the client on prompt, every call approved.
	args func(prompt string) []string
	// loaded reads the agents the client loaded from a request of its
	// main agent, when the request lists them.
	loaded func(body []byte) ([]string, bool)
}

// fanouts are the clients that batch (dialect.Info.SubWithheld).
var fanouts = map[string]fanout{
	"claude": {
		tool: "claude", spelling: claudeSpelling,
		spawn: func(agent, prompt string) *Call {
			return &Call{Tool: "Agent", Input: map[string]any{"subagent_type": agent, "description": "probe " + agent, "prompt": prompt}}
		},
		env: func(_, url string) []string {
			// Claude Code starts 20 sub-agents at once unless told more.
			return append(claudeEnv(url), "CLAUDE_CODE_MAX_CONCURRENT_SUBAGENTS=10000")
		},
		args: func(prompt string) []string {
			return []string{"-p", prompt, "--dangerously-skip-permissions", "--model", "claude-sonnet-4-5"}
		},
		loaded: func(body []byte) ([]string, bool) {
			_, list, ok := strings.Cut(firstUserText(body), "Available agent types for the Agent tool:")
			if !ok {
				return nil, false
			}
			list, _, _ = strings.Cut(list, "</system-reminder>")
			return names(claudeAgents, list), true
		},
	},
	"copilot": {
		tool: "copilot", spelling: copilotSpelling,
		// "Maximum concurrent agent limit of 32 reached. Wait for
		// existing agents to complete before spawning new ones."
		most: 32,
		spawn: func(agent, prompt string) *Call {
			return &Call{Tool: "task", Input: map[string]any{"agent_type": agent, "name": agent, "description": "probe", "prompt": prompt}}
		},
		env: func(home, url string) []string {
			return []string{"COPILOT_HOME=" + filepath.Join(home, ".copilot"), "COPILOT_AUTO_UPDATE=false", "COPILOT_OFFLINE=true",
				"COPILOT_PROVIDER_BASE_URL=" + url + "/v1", "COPILOT_PROVIDER_API_KEY=probe"}
		},
		args: func(prompt string) []string {
			return []string{"--model", "probe-model", "-p", prompt, "--no-auto-update", "--allow-all-tools"}
		},
		loaded: func(body []byte) ([]string, bool) {
			_, list, ok := strings.Cut(string(body), "User-provided custom agents:")
			if !ok {
				return nil, false
			}
			list, _, _ = strings.Cut(list, `"parameters"`)
			return names(copilotAgents, strings.ReplaceAll(list, `\n`, "\n")), true
		},
	},
}

// AtOnce is how many sub-agents tool's client starts in one run (0: no
// limit): a batch of more starts only so many.
func AtOnce(tool string) int { return fanouts[tool].most }

// copilotAgents are the project's agents the Copilot CLI's task tool
// names ("User-provided custom agents:" then "- **name**: …").
var copilotAgents = regexp.MustCompile(`- \*\*([^*]+)\*\*:`)

// claudeAgents are the agents Claude Code tells its main agent of
// ("Available agent types for the Agent tool:" then "- name: …").
var claudeAgents = regexp.MustCompile(`(?m)^- ([^:\n]+):`)

// names are the first submatches of re in s.
func names(re *regexp.Regexp, s string) []string {
	out := []string{}
	for _, m := range re.FindAllStringSubmatch(s, -1) {
		out = append(out, strings.TrimSpace(m[1]))
	}
	return out
}

// RunBatch runs tool's client once for many agents: its main agent starts
// them all at once, and each, a sub-agent, is asked for its run's uses.
func RunBatch(tool string, b Batch) (BatchResult, error) {
	res := BatchResult{Observations: map[string]Observation{}}
	fo, ok := fanouts[tool]
	if !ok {
		return res, fmt.Errorf("%s does not run agents side by side", tool)
	}
	home, proj, base, err := sandboxFiles(b.Files)
	if err != nil {
		return res, err
	}
	defer cleanup(proj)
	d, _ := dialect.All().Lookup(tool)
	hub := &Hub{}
	if err := hub.Start(); err != nil {
		return res, err
	}
	defer hub.Close()
	var mu sync.Mutex
	var loaded []string
	main := &Standin{Watch: func(body []byte) {
		mu.Lock()
		defer mu.Unlock()
		if loaded == nil {
			if l, ok := fo.loaded(body); ok {
				loaded = l
			}
		}
	}}
	subs := make([]*Standin, len(b.Runs))
	for i, r := range b.Runs {
		if err := hooked(d.Info(), proj, r); err != nil {
			return res, err
		}
		marker := Marker(i + 1)
		main.Fan = append(main.Fan, fo.spawn(r.Name, marker+": run the commands you are asked to run, one at a time"))
		subs[i] = &Standin{}
		r.ask(subs[i], proj, fo.spelling)
		hub.Add(marker, subs[i])
	}
	hub.Add(Marker(0), main)
	env := append(append(base(home), b.Env...), fo.env(home, hub.URL)...)
	if b.Progress != nil {
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			tick := time.NewTicker(250 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-stop:
					return
				case <-tick.C:
					done := 0
					for i, r := range b.Runs {
						if len(subs[i].Results()) == len(r.uses()) {
							done++
						}
					}
					b.Progress(done)
				}
			}
		}()
	}
	timeout := b.Timeout
	if timeout == 0 {
		timeout = BatchTime(len(b.Runs))
	}
	out, runErr := runFor(orBackground(b.Context), timeout, proj, env, b.Bin, fo.args(Marker(0)+": hand the work to the agents")...)
	mu.Lock()
	res.Loaded = loaded
	mu.Unlock()
	for i, r := range b.Runs {
		if o, err := observed(subs[i], tool, out, runErr, r); err == nil {
			o.SubAgent = true
			res.Observations[r.Name] = o
		}
	}
	if len(res.Observations) == 0 && runErr != nil {
		return res, fmt.Errorf("%s: %v\n%s", d.Info().Title, runErr, strings.TrimSpace(out))
	}
	return res, nil
}
