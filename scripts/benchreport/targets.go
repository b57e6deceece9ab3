//go:build linux

package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"
)

// benchVersion compares `bn --version` with the start of a minimal Go
// binary built here (target: at most 2x).
func benchVersion(r *runner, tmp, bn string) {
	dir := filepath.Join(tmp, "minimal")
	check(os.MkdirAll(dir, 0o755))
	check(os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o644))
	check(os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module minimal\n\ngo 1.21\n"), 0o644))
	build := exec.Command("go", "build", "-trimpath", "-o", "minimal", ".")
	build.Dir = dir
	build.Stderr = os.Stderr
	check(build.Run())
	env := os.Environ()
	minimal := installed(filepath.Join(dir, "minimal"), filepath.Join(dir, "installed"))
	tm, tv := r.race(r.cmd(env, minimal), r.cmd(env, bn, "--version"))
	fmt.Printf("bn --version %8s   minimal Go binary %8s   ratio %.2fx (target <= 2x)\n", tv.median, tm.median, ratio(tv, tm))
}

// writeOneFile writes a project whose one KDL 2.0 config.kdl defines n
// agents (prompts inline: list reads nothing else) and returns its path.
func writeOneFile(root string, n int) string {
	dir := filepath.Join(root, "repo", ".binnacle", "agents")
	check(os.MkdirAll(filepath.Join(root, "repo", ".git"), 0o755))
	check(os.MkdirAll(dir, 0o755))
	var b strings.Builder
	b.WriteString("/- kdl-version 2\n")
	for i := range n {
		fmt.Fprintf(&b, "agent agent-%d {\n    description \"Agent %d: reviews one kind of change\"\n    lifecycle stateless\n    model claude-sonnet-4.5\n    show-reasoning #true\n    tags bench review\n    tools {\n        allow view grep \"shell(git:*)\"\n        deny write\n    }\n    prompt #\"You are agent %d. Read the change, check it, and say what you found.\"#\n}\n", i, i, i)
	}
	path := filepath.Join(dir, "config.kdl")
	check(os.WriteFile(path, []byte(b.String()), 0o644))
	return path
}

// benchOneFile times list over one KDL 2.0 config.kdl of 1,000, 10,000
// and 50,000 agents against cat of the file (target at 10,000: at most
// 10x cat, growing linearly, peak RSS at most 10x the bytes read).
func benchOneFile(r *runner, tmp, bn string) {
	fmt.Println("\nlist over one KDL 2.0 config.kdl:")
	var prev result
	prevN := 0
	for _, n := range []int{1000, 10000, 50000} {
		root := filepath.Join(tmp, fmt.Sprintf("one-%d", n))
		path := writeOneFile(root, n)
		fi, err := os.Stat(path)
		check(err)
		env := append(os.Environ(), "HOME="+root, "XDG_CONFIG_HOME="+filepath.Join(root, "xdg"), "XDG_DATA_HOME="+filepath.Join(root, "xdg"))
		tc, tl := r.race(r.cmd(env, "cat", path), r.cmd(env, bn, "-C", filepath.Join(root, "repo"), "config", "agents", "list"))
		line := fmt.Sprintf("  %6d agents, %5.1f MB: bn list %8s   cat %8s   ratio %5.2fx   peak RSS %5.1f MB = %.2fx the file",
			n, float64(fi.Size())/1e6, tl.median, tc.median, ratio(tl, tc), float64(tl.maxRSS)/1e6, float64(tl.maxRSS)/float64(fi.Size()))
		if prevN > 0 {
			line += fmt.Sprintf("   %.1fx the time of %d agents", ratio(tl, prev), prevN)
		}
		fmt.Println(line)
		prev, prevN = tl, n
	}
	fmt.Println("  (targets at 10,000 agents: <= 10x cat, peak RSS <= 10x the file; time linear in agents)")
}

// benchMCP compares a show_agent call to a running `bn mcp serve` (no
// layer changed between calls) with one `bn config agents show` process
// (target: the call at least 5x faster, DESIGN.md §7).
func benchMCP(r *runner, tmp, bn string) {
	root := filepath.Join(tmp, "mcp")
	env := layeredFixture(root, 50, 2048, kdlAgents)
	// The server reads a file changed in the last two seconds again on
	// every call, until it settles; a project's files are older.
	old := time.Now().Add(-time.Hour)
	check(filepath.WalkDir(root, func(path string, _ fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		return os.Chtimes(path, old, old)
	}))
	repo := filepath.Join(root, "repo")
	show := r.interleave(r.cmd(env, bn, "-C", repo, "config", "agents", "show", "worker", "--json"))[0]

	srv := exec.Command(bn, "-C", repo, "mcp", "serve")
	srv.Env = env
	in, err := srv.StdinPipe()
	check(err)
	outPipe, err := srv.StdoutPipe()
	check(err)
	srv.Stderr = os.Stderr
	check(srv.Start())
	out := bufio.NewReaderSize(outPipe, 1<<20)
	send := func(msg string) { _, err := io.WriteString(in, msg+"\n"); check(err) }
	// The answers are read, not parsed, as the show process's output is:
	// the last one is parsed and checked after the timing.
	var line []byte
	recv := func() {
		line, err = out.ReadSlice('\n')
		check(err)
	}
	send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`)
	recv()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	// The first call loads the layers, and the next hundred warm the
	// server up (its heap and its goroutines' stacks grow to what a call
	// needs), as a server that has run for a while is; then 1,000 calls.
	const warmUp, timed = 101, 1000
	calls := make([]time.Duration, 0, timed)
	for i := 1; i <= warmUp+timed; i++ {
		start := time.Now()
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"show_agent","arguments":{"name":"worker"}}}`, i))
		recv()
		if i > warmUp {
			calls = append(calls, time.Since(start))
		}
	}
	var res struct {
		Error  any
		Result struct {
			IsError           bool
			StructuredContent struct{ Name string }
		}
	}
	check(json.Unmarshal(line, &res))
	if res.Error != nil || res.Result.IsError || res.Result.StructuredContent.Name != "worker" {
		check(fmt.Errorf("show_agent: %s", line))
	}
	check(in.Close())
	check(srv.Wait())
	sort.Slice(calls, func(a, b int) bool { return calls[a] < calls[b] })
	call := calls[len(calls)/2]
	fmt.Printf("\nbn mcp serve, show_agent worker (4 layers x 50 agents, none changed): %8s per call   bn config agents show process %8s   %.1fx faster (target >= 5x)\n",
		call, show.median, float64(show.median)/float64(call))
}

// benchCheck times what runs before every shell command an agent with an
// enforced limit makes: check of one command, and the Claude Code hook
// round trip (its JSON on stdin, the answer out, decided from the rules
// export compiled), against bn --version.
func benchCheck(r *runner, env []string, bn, dir string, version command) {
	repo := filepath.Join(dir, "repo")
	export := exec.Command(bn, "-C", repo, "config", "agents", "export", "--target", "claude", "--agent", "worker")
	export.Env, export.Stderr = env, os.Stderr
	check(export.Run())
	// The hook remembers that the layers give the exported rules only once
	// their files are older than the clock tick a change could hide in
	// (two seconds): as a project's are, between one edit and the next.
	time.Sleep(2100 * time.Millisecond)
	direct := r.cmd(env, bn, "-C", repo, "config", "agents", "check", "worker", "shell(git status)", "--json")
	direct.refusals = true
	input := filepath.Join(dir, "hook.json")
	check(os.WriteFile(input, []byte(`{"session_id":"s","cwd":"`+repo+`","hook_event_name":"PreToolUse","agent_type":"worker",`+
		`"tool_name":"Bash","tool_input":{"command":"git status","description":"status"},"tool_use_id":"t"}`), 0o644))
	// Claude Code names the project in the hook's environment.
	hook := r.cmd(append(slices.Clone(env), "CLAUDE_PROJECT_DIR="+repo), bn, "config", "agents", "check", "worker", "--hook", "claude", "--rules", ".claude/agents/worker.rules")
	hook.stdin, hook.refusals = input, true
	res := r.interleave(version, direct, hook)
	fmt.Printf("check worker \"shell(git status)\", 4 layers x 50:  %8s   bn --version: %8s   ratio %.2fx (target <= 1.3x)\n", res[1].median, res[0].median, ratio(res[1], res[0]))
	fmt.Printf("check --hook claude round trip, 4 layers x 50:  %8s   bn --version: %8s   ratio %.2fx (target <= 1.5x)\n", res[2].median, res[0].median, ratio(res[2], res[0]))
}
