package probe

import (
	"fmt"
	"os"
	"path/filepath"
)

// Pi runs Pi (pi -p) with its subagent extension, the example its
// documentation names (examples/extensions/subagent of the same package),
// installed where that documentation puts it (~/.pi/agent/extensions),
// against the stand-in as a custom OpenAI-compatible provider. Its main
// agent hands the work to the agent under test with the extension's
// subagent tool, reading project agents too (agentScope both, which the
// extension asks to be set for them, without asking the user to
// confirm); the extension runs the agent as a pi process of its own,
// whose first request shows the tools it is offered.
func Pi(r Run) (Observation, error) {
	var result string
	s := &Standin{
		Via: &Call{Tool: "subagent", Input: map[string]any{"agent": r.Name, "task": promptWord + ": run the command you are asked to run",
			"agentScope": "both", "confirmProjectAgents": false}},
		// The agent's own process has the subagent tool too, unless its
		// tools leave it out.
		Nested: true,
		Await: func(out string) *Call {
			result = out
			return nil
		},
	}
	home, proj, env, done, err := session("pi", r, s)
	if err != nil {
		return Observation{}, err
	}
	defer done()
	// The stand-in asks Pi for commands only.
	r.ask(s, proj, spelling{shell: func(c string) *Call { return &Call{Tool: "bash", Input: map[string]any{"command": c}} }})
	if err := PiSetup(r.Bin, home, s.URL); err != nil {
		return Observation{}, err
	}
	out, err := run(r.ctx(), proj, env, r.Bin, "-p", promptWord+": hand the work to "+r.Name)
	if _, seen, _ := s.Observed(); !seen && result != "" {
		// The agent never ran: the tool's answer says why (an unknown
		// agent, a file the extension fails on).
		return Observation{Offered: []string{}, Rejected: firstLine(result)}, nil
	}
	return observed(s, "pi", out, err, r)
}

// PiSetup makes a home for Pi: the stand-in at url as its default model
// (a custom provider in ~/.pi/agent/models.json), and the subagent
// extension of the installed package (bin is its pi command) linked into
// ~/.pi/agent/extensions/subagent, as its README installs it.
func PiSetup(bin, home, url string) error {
	agentDir := filepath.Join(home, ".pi", "agent")
	if err := writeFile(filepath.Join(agentDir, "models.json"), `{"providers":{"probe":{"baseUrl":"`+url+`/v1","api":"openai-completions",`+
		`"apiKey":"probe","compat":{"supportsDeveloperRole":false,"supportsReasoningEffort":false},"models":[{"id":"probe-model"}]}}}`); err != nil {
		return err
	}
	if err := writeFile(filepath.Join(agentDir, "settings.json"), `{"defaultProvider":"probe","defaultModel":"probe-model"}`); err != nil {
		return err
	}
	real, err := filepath.EvalSymlinks(bin)
	if err != nil {
		return err
	}
	src := filepath.Join(filepath.Dir(filepath.Dir(real)), "examples", "extensions", "subagent")
	dst := filepath.Join(agentDir, "extensions", "subagent")
	if err := os.MkdirAll(dst, 0o755); err != nil {
		return err
	}
	for _, f := range []string{"index.ts", "agents.ts"} {
		if _, err := os.Stat(filepath.Join(src, f)); err != nil {
			return fmt.Errorf("pi's subagent extension: %v", err)
		}
		if err := os.Symlink(filepath.Join(src, f), filepath.Join(dst, f)); err != nil {
			return err
		}
	}
	return nil
}
