package probe

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/binnacle-dev/bn/dialect"
)

// CopilotHookCase is what came of one Copilot CLI session whose agent is
// asked for a command that makes a marker file, with a hook that records
// its input and environment and refuses (exit status 2).
type CopilotHookCase struct {
	Name string `json:"name"`
	// Hooked is what came of the command: "refused: " and the CLI's
	// answer, or "ran: made {M}".
	Hooked string `json:"hooked"`
	// Input are the fields of the hook's input, when the hook ran.
	Input []string `json:"input,omitempty"`
	// AgentNamed: the hook ran, and its input names the session's custom
	// agent.
	AgentNamed bool `json:"agent_named"`
	// LauncherEnv: the hook ran, and a variable set in the CLI's
	// environment (as a launcher would set one) reached it.
	LauncherEnv bool `json:"launcher_env"`
}

// CopilotHookGolden is the Copilot CLI's hook probe.
type CopilotHookGolden struct {
	Client string            `json:"client"`
	Cases  []CopilotHookCase `json:"cases"`
}

// launcherVar stands in for what bn config agents launch could set in the
// CLI's environment to tell the hook its agent.
const launcherVar = "BNPROBE_LAUNCHED_AGENT"

// TestCopilotHook asks whether the Copilot CLI's hooks could enforce an
// agent's limits: the repository's hook (dialect's RepoHook) in a folder
// trusted for the session and in one not trusted, and a hook in the agent
// file's own frontmatter, in Claude Code's shape, which the CLI's agent
// files accept. Offline, against the stand-in, every tool allowed. The
// untrusted and frontmatter sessions are the control: there the command
// must run. What came of each is kept in
// dialect/testdata/probes/enforcement-copilot.json, and the record's
// NamesAgent must agree with it.
func TestCopilotHook(t *testing.T) {
	bin := installed(t, "copilot")
	d, _ := dialect.All().Lookup("copilot")
	rh := d.Info().RepoHook
	dir := t.TempDir()
	hook := filepath.Join(dir, "hook.sh")
	writeAll(t, hook, "#!/bin/sh\ncat > \""+dir+"/$1.json\"; env > \""+dir+"/$1.env\"; echo 'bnprobe refuses' >&2; exit 2\n")
	must(t, os.Chmod(hook, 0o755))
	agent := "---\nname: differ\ndescription: Diffs\n%s---\nDo what you are asked.\n"
	// Each hook is told its case's tag, which names what it records.
	cases := []struct {
		name, tag, file string
		files           map[string]string
		trust           bool
	}{
		{"repository hook, folder trusted", "trusted", fmt.Sprintf(agent, ""), map[string]string{rh.Path: rh.Config(hook + " trusted")}, true},
		{"repository hook, folder not trusted", "untrusted", fmt.Sprintf(agent, ""), map[string]string{rh.Path: rh.Config(hook + " untrusted")}, false},
		{"agent file hook, folder trusted", "frontmatter",
			fmt.Sprintf(agent, "hooks:\n  PreToolUse:\n    - hooks:\n        - type: command\n          command: "+hook+" frontmatter\n"), nil, true},
	}
	got := CopilotHookGolden{Client: "copilot", Cases: make([]CopilotHookCase, len(cases))}
	start := time.Now()
	var wg sync.WaitGroup
	for i, c := range cases {
		wg.Add(1)
		go func() {
			defer wg.Done()
			marker := filepath.Join(dir, fmt.Sprintf("mark-%d", i))
			perms := []string{"--allow-all-tools"}
			if c.trust {
				perms = append(perms, rh.TrustFlag)
			}
			obs, err := Copilot(Run{Bin: bin, Name: "differ", File: c.file, Files: c.files, Command: "touch " + marker,
				Env: []string{launcherVar + "=differ"}, Permissions: perms})
			if err != nil {
				t.Error(err)
				return
			}
			cs := CopilotHookCase{Name: c.name, Hooked: "ran: made {M}"}
			if _, err := os.Stat(marker); err != nil {
				cs.Hooked = "refused"
				if obs.Call != nil {
					cs.Hooked += ": " + obs.Call.Output
				}
			}
			if b, err := os.ReadFile(filepath.Join(dir, c.tag+".json")); err == nil {
				var in map[string]any
				must(t, json.Unmarshal(b, &in))
				for k, v := range in {
					cs.Input = append(cs.Input, k)
					if s, _ := json.Marshal(v); k != "tool_input" && strings.Contains(string(s), "differ") {
						cs.AgentNamed = true
					}
				}
				slices.Sort(cs.Input)
				env, _ := os.ReadFile(filepath.Join(dir, c.tag+".env"))
				cs.LauncherEnv = strings.Contains(string(env), launcherVar+"=differ")
			}
			got.Cases[i] = cs
		}()
	}
	wg.Wait()
	t.Logf("copilot hook probe: %s", time.Since(start).Round(time.Second))
	if t.Failed() {
		return
	}
	if got.Cases[0].Hooked == "ran: made {M}" || got.Cases[1].Hooked != "ran: made {M}" {
		t.Errorf("the repository hook refused %q trusted and %q untrusted: the probe proves nothing", got.Cases[0].Hooked, got.Cases[1].Hooked)
	}
	for _, c := range got.Cases {
		if c.Input != nil && c.AgentNamed != rh.NamesAgent {
			t.Errorf("%s: the hook's input names the agent: %v, and the Copilot record's RepoHook.NamesAgent says %v", c.Name, c.AgentNamed, rh.NamesAgent)
		}
	}
	compareGolden(t, filepath.Join("..", "dialect", "testdata", "probes", "enforcement-copilot.json"), got)
}
