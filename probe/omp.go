package probe

import (
	"path/filepath"
	"strings"
)

// OMP runs oh-my-pi (omp -p) against the stand-in as a custom
// OpenAI-compatible provider (~/.omp/agent/models.yml), with its main
// agent handing the work to the agent under test with its task tool; the
// sub-agent's first request shows the tools it is offered. omp runs on
// Bun, which the clients' directory holds beside it.
func OMP(r Run) (Observation, error) {
	var result string
	s := &Standin{
		Via: &Call{Tool: "task", Input: map[string]any{"i": "probe", "context": "probe",
			"tasks": []map[string]any{{"agent": r.Name, "task": promptWord + ": run the command you are asked to run"}}}},
		// A sub-agent that may start sub-agents is offered task too.
		Nested: true,
		// task runs the sub-agent in the background: the main agent
		// waits for it (hub wait) until it is done.
		Await: func(out string) *Call {
			result = out
			return &Call{Tool: "hub", Input: map[string]any{"i": "probe", "op": "wait"}}
		},
		AwaitAgain: true,
	}
	home, proj, env, done, err := session("omp", r, s)
	if err != nil {
		return Observation{}, err
	}
	defer done()
	// The stand-in asks oh-my-pi for commands only.
	r.ask(s, proj, spelling{shell: func(c string) *Call { return &Call{Tool: "bash", Input: map[string]any{"i": "probe", "command": c}} }})
	if err := OMPSetup(home, s.URL); err != nil {
		return Observation{}, err
	}
	env = append(env, "PATH="+filepath.Dir(r.Bin)+string(filepath.ListSeparator)+envPath(env))
	out, err := run(r.ctx(), proj, env, r.Bin, "--model", "probe/probe-model", "-p", promptWord+": hand the work to "+r.Name)
	if _, seen, _ := s.Observed(); !seen && result != "" && !strings.Contains(result, "Spawned agent") {
		return Observation{Offered: []string{}, Rejected: firstLine(result)}, nil
	}
	return observed(s, "omp", out, err, r)
}

// OMPSetup makes a home for omp with the stand-in at url as a custom
// provider, probe/probe-model.
func OMPSetup(home, url string) error {
	return writeFile(filepath.Join(home, ".omp", "agent", "models.yml"),
		"providers:\n  probe:\n    baseUrl: "+url+"/v1\n    api: openai-completions\n    apiKey: probe\n    models:\n      - id: probe-model\n")
}

// envPath is the PATH an environment sets (the last one wins).
func envPath(env []string) string {
	path := ""
	for _, e := range env {
		if p, ok := strings.CutPrefix(e, "PATH="); ok {
			path = p
		}
	}
	return path
}
