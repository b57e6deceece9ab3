//go:build linux

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// verifyTargets are the clients the verify timing asks side by side.
var verifyTargets = []string{"claude", "copilot", "opencode"}

// benchVerify times `bn config agents verify` on the corpus, imported
// into a project, against Claude Code, the Copilot CLI and OpenCode side
// by side (target: 90 s on 2 cores), with the time verify reports per
// client. One run: it is the clients' own work, minutes of it on a busy
// machine, so the load average is printed beside it.
func benchVerify(tmp, bn, clients, corpus string) {
	fmt.Printf("\nverify, the corpus against %s side by side:\n", strings.Join(verifyTargets, ", "))
	if _, err := os.Stat(filepath.Join(clients, "node_modules", ".bin")); err != nil {
		fmt.Printf("  skipped: no clients in %s (make test-clients-install installs them)\n", clients)
		return
	}
	// The import runs in the new project: a relative corpus is the
	// caller's.
	corpus, err := filepath.Abs(corpus)
	check(err)
	clients, err = filepath.Abs(clients)
	check(err)
	root := filepath.Join(tmp, "verify")
	repo := filepath.Join(root, "repo")
	check(os.MkdirAll(filepath.Join(repo, ".git"), 0o755))
	env := append(os.Environ(), "HOME="+root, "BN_CONFIG_DIR="+filepath.Join(root, "config"), "BN_DATA_DIR="+filepath.Join(root, "data"),
		"XDG_CONFIG_HOME="+filepath.Join(root, "xdg"), "XDG_DATA_HOME="+filepath.Join(root, "xdg"))
	imp := exec.Command(bn, "config", "agents", "import", corpus)
	imp.Dir, imp.Env = repo, env
	if out, err := imp.CombinedOutput(); err != nil {
		check(fmt.Errorf("importing %s: %v\n%s", corpus, err, out))
	}
	load, _ := os.ReadFile("/proc/loadavg")
	args := []string{"config", "agents", "verify", "--client-dir", clients}
	for _, t := range verifyTargets {
		args = append(args, "--target", t)
	}
	cmd := exec.Command(bn, args...)
	var stdout, stderr bytes.Buffer
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = repo, env, &stdout, &stderr
	start := time.Now()
	// Exit 1 is an answer: some agent differs.
	if err := cmd.Run(); err != nil && cmd.ProcessState.ExitCode() != 1 {
		check(fmt.Errorf("bn %s: %v\n%s", strings.Join(args, " "), err, stderr.String()))
	}
	wall := time.Since(start)
	var rep struct {
		Clients []struct {
			Target  string  `json:"target"`
			Found   bool    `json:"found"`
			How     string  `json:"how"`
			Seconds float64 `json:"seconds"`
			Error   string  `json:"error"`
		} `json:"clients"`
		Results []struct {
			Target string `json:"target"`
		} `json:"results"`
		Verified int `json:"verified"`
	}
	check(json.Unmarshal(stdout.Bytes(), &rep))
	fmt.Printf("  %d results: %.1f s wall (target <= 90 s on 2 cores), CPU %.1f s user + %.1f s sys; load average before: %s\n",
		rep.Verified, wall.Seconds(), cmd.ProcessState.UserTime().Seconds(), cmd.ProcessState.SystemTime().Seconds(), strings.Join(strings.Fields(string(load))[:3], " "))
	for _, c := range rep.Clients {
		if !c.Found {
			fmt.Printf("  %-9s no client found\n", c.Target)
			continue
		}
		n := 0
		for _, r := range rep.Results {
			if r.Target == c.Target {
				n++
			}
		}
		fmt.Printf("  %-9s %3d agents %6.1f s  %s\n", c.Target, n, c.Seconds, c.How)
		if c.Error != "" {
			fmt.Printf("            error: %s\n", c.Error)
		}
	}
}
