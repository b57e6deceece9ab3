package probe

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// planModeCase is one way of running a client as an agent whose file
// sets a plan mode: how the client's own permission checks are set
// (perms), and whether the main session starts the agent as a sub-agent.
type planModeCase struct {
	client string
	// key is the agent file's line that asks for plan mode.
	key string
	// perms name the permission flags, which args gives the client.
	perms string
	args  []string
	sub   bool
}

// planModeCases: Claude Code with the tools allowed by rule
// (--allowedTools, its permission checks on: what plan mode is said to
// narrow) and with its permission checks bypassed (as the enforcement
// probes run it); Qwen Code, whose agents are sub-agents, with the tools
// allowed by mode and rule (--approval-mode auto-edit: its default mode
// offers no write_file in -p; --allowed-tools for the shell) and with
// --yolo, for approvalMode, and for the permissionMode it maps.
func planModeCases() []planModeCase {
	claudeRules := []string{"--allowedTools", "Bash", "Write", "Agent"}
	qwenRules := []string{"--approval-mode", "auto-edit", "--allowed-tools", "run_shell_command"}
	var out []planModeCase
	for _, sub := range []bool{false, true} {
		out = append(out,
			planModeCase{client: "claude", key: "permissionMode: plan", perms: strings.Join(claudeRules, " "), args: claudeRules, sub: sub},
			planModeCase{client: "claude", key: "permissionMode: plan", perms: "--dangerously-skip-permissions", args: []string{"--dangerously-skip-permissions"}, sub: sub})
	}
	return append(out,
		planModeCase{client: "qwen", key: "approvalMode: plan", perms: strings.Join(qwenRules, " "), args: qwenRules, sub: true},
		planModeCase{client: "qwen", key: "approvalMode: plan", perms: "--yolo", args: []string{"--yolo"}, sub: true},
		planModeCase{client: "qwen", key: "permissionMode: plan", perms: strings.Join(qwenRules, " "), args: qwenRules, sub: true})
}

// PlanModeRun is what came of one agent's write and command, as the
// golden file keeps it: "made the marker", "did nothing", or "not
// offered" (the stand-in did not ask for a tool the agent lacks).
type PlanModeRun struct {
	Key         string `json:"key,omitempty"` // the agent file's plan mode line ("": the control)
	Via         string `json:"via"`
	Permissions string `json:"permissions"`
	Write       string `json:"write"`
	Shell       string `json:"shell"`
}

// PlanModeGolden is a client's plan mode probes.
type PlanModeGolden struct {
	Client string        `json:"client"`
	Runs   []PlanModeRun `json:"runs"`
}

// TestPlanMode asks whether a plan mode in an agent's file (Claude Code's
// permissionMode: plan; Qwen Code's approvalMode: plan, and the
// permissionMode it maps) keeps the agent from writing a file and from
// running a command that makes one, as the session's agent and as a
// sub-agent, with the client's permission checks on and bypassed. A
// control agent, the same file without the line, must make both markers,
// or the probe proves nothing. What came of each is kept in
// dialect/testdata/probes/planmode-CLIENT.json.
func TestPlanMode(t *testing.T) {
	// The runs wait on their clients more than they compute (a Qwen Code
	// run, 43 s, computes 8): six at a time, across both clients.
	slots := make(chan struct{}, 6)
	for _, client := range []string{"claude", "qwen"} {
		t.Run(client, func(t *testing.T) {
			t.Parallel()
			bin := installed(t, client)
			start := time.Now()
			// Each way of running, with the plan mode line and without
			// it (the control, once for each).
			type job struct {
				c   planModeCase
				key string
			}
			var jobs []job
			controls := map[string]bool{}
			for _, c := range planModeCases() {
				if c.client != client {
					continue
				}
				jobs = append(jobs, job{c, c.key})
				if k := fmt.Sprint(c.perms, c.sub); !controls[k] {
					controls[k] = true
					jobs = append(jobs, job{c, ""})
				}
			}
			got := PlanModeGolden{Client: client, Runs: make([]PlanModeRun, len(jobs))}
			errs := make([]error, len(jobs))
			var wg sync.WaitGroup
			for i, j := range jobs {
				wg.Add(1)
				go func() {
					defer wg.Done()
					slots <- struct{}{}
					defer func() { <-slots }()
					got.Runs[i], errs[i] = planModeRun(bin, j.c, j.key)
				}()
			}
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			for _, r := range got.Runs {
				if r.Key == "" && (r.Write != made || r.Shell != made) {
					t.Errorf("%s: the control agent (%s, %s) did not make both markers, so the probe proves nothing: %+v", client, r.Via, r.Permissions, r)
				}
			}
			t.Logf("%s, plan mode: %d runs, %s", client, len(jobs), time.Since(start).Round(time.Second))
			if t.Failed() {
				return
			}
			compareGolden(t, filepath.Join("..", "dialect", "testdata", "probes", "planmode-"+client+".json"), got)
		})
	}
}

// planModeRun runs c's client once as an agent whose file has key (""
// none) and says what came of its write and its command.
func planModeRun(bin string, c planModeCase, key string) (PlanModeRun, error) {
	name := "planner"
	if key == "" {
		name = "control"
	}
	file := "---\nname: " + name + "\ndescription: Does what it is asked to do\n" + key + "\n---\nDo what you are asked to do.\n"
	home, proj, env, err := sandbox(c.client, Run{Name: name, File: file})
	if err != nil {
		return PlanModeRun{}, err
	}
	defer cleanup(proj)
	write, shell := filepath.Join(proj, "marks", "write"), filepath.Join(proj, "marks", "shell")
	if err := os.MkdirAll(filepath.Dir(write), 0o755); err != nil {
		return PlanModeRun{}, err
	}
	ts := toolsets[c.client]
	s := &Standin{
		Ask:  &Call{Tool: ts.write, Input: map[string]any{"file_path": write, "content": "bnprobe\n"}},
		Then: []*Call{{Tool: ts.shell, Input: map[string]any{"command": "touch " + shell, "description": "probe"}}},
	}
	if c.sub {
		prompt := promptWord + ": do what you are asked"
		s.Via = &Call{Tool: "agent", Input: map[string]any{"subagent_type": name, "description": "probe", "prompt": prompt}}
		if c.client == "claude" {
			s.Via = fanouts[c.client].spawn(name, prompt)
		}
		s.Nested = true
		s.Await = func(string) *Call { return nil }
	}
	if err := s.Start(); err != nil {
		return PlanModeRun{}, err
	}
	defer s.Close()
	var args []string
	switch c.client {
	case "claude":
		env = append(env, claudeEnv(s.URL)...)
		args = []string{"-p", promptWord + ": do what you are asked", "--model", "claude-sonnet-4-5"}
		if c.sub {
			args[1] = promptWord + ": hand the work to the agent"
		} else {
			args = append([]string{"--agent", name}, args...)
		}
	case "qwen":
		qenv, qargs, err := qwenSetup(home, s.URL, name)
		if err != nil {
			return PlanModeRun{}, err
		}
		env, args = append(env, qenv...), slices.DeleteFunc(qargs, func(a string) bool { return a == "--yolo" })
	}
	text, err := runFor(context.Background(), clientTimeout, proj, env, bin, append(args, c.args...)...)
	results := s.Results()
	if len(results) < 2 {
		return PlanModeRun{}, fmt.Errorf("%s (%s, %s) as %s answered %d of 2 calls: %v\n%s", c.client, c.perms, key, name, len(results), err, lastLines(text, 20))
	}
	// runFor returned once the client exited and its output closed (so
	// did every command it ran that holds it): what it made is on disk.
	via := "top level"
	if c.sub {
		via = "sub-agent"
	}
	return PlanModeRun{Key: key, Via: via, Permissions: c.perms,
		Write: planModeOutcome(results[0], write), Shell: planModeOutcome(results[1], shell)}, nil
}

// planModeOutcome says what came of a call that makes marker: the marker
// on disk is the truth, not what the client answered.
func planModeOutcome(r *Result, marker string) string {
	if r.NotOffered {
		return "not offered"
	}
	if _, err := os.Stat(marker); err == nil {
		return made
	}
	return "did nothing"
}

const made = "made the marker"
