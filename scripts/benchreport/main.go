//go:build linux

// Command benchreport times bn against its floors on generated layers and
// prints the ratios DESIGN.md §7 sets as targets. `make bench` runs it.
//
// Every number comes from one run on this machine: each command is run
// interleaved with its baseline, and medians are compared, so background
// noise hits both sides alike.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/binnacle-dev/bn/frontmatter"
	"github.com/goccy/go-yaml"
)

func main() {
	bn := flag.String("bn", "bin/bn", "the bn binary to measure")
	runs := flag.Int("runs", 21, "runs per command")
	rulesync := flag.String("rulesync", "", "the rulesync binary, to compare exports with (skipped when empty)")
	corpus := flag.String("corpus", "testdata/corpus/claude-agents", "the Claude Code agent corpus")
	keep := flag.String("keep", "", "write the fixtures into `DIR` and keep them (for profiling)")
	writes := flag.String("writes", "/dev/shm", "run the comparisons with rulesync in a new directory under `DIR`, a tmpfs where there is one (see compareRulesync); the system's temporary directory when DIR does not exist")
	only := flag.String("only", "", "run only the `PART`s named, comma-separated: version, show, rulesync, scale, sources, onefile, mcp, list, verify")
	clients := flag.String("clients", "", "time verify with the real clients installed in `DIR` (make test-clients-install); skipped when empty")
	flag.Parse()
	part := func(name string) bool { return *only == "" || slices.Contains(strings.Split(*only, ","), name) }
	abs, err := filepath.Abs(*bn)
	check(err)
	tmp := *keep
	if tmp == "" {
		tmp, err = os.MkdirTemp("", "bn-bench-")
		check(err)
		defer os.RemoveAll(tmp)
	}
	abs = installed(abs, filepath.Join(tmp, "installed"), "bn-mcp", "bn-verify")
	r := &runner{bn: abs, runs: *runs}

	fmt.Println("bn benchmark report (medians of", *runs, "interleaved runs; ratios against the targets of DESIGN.md §7 and the issues)")
	fmt.Println()
	if part("version") {
		benchVersion(r, tmp, abs)
	}
	if part("show") {
		benchShow(r, tmp, abs)
	}
	if *rulesync != "" && part("rulesync") {
		rs, err := filepath.Abs(*rulesync)
		check(err)
		dir := tmp
		if st, err := os.Stat(*writes); err == nil && st.IsDir() {
			dir, err = os.MkdirTemp(*writes, "bn-bench-")
			check(err)
			defer os.RemoveAll(dir)
		}
		fmt.Printf("\nrulesync and bn, each job in %s:\n", dir)
		compareRulesync(r, dir, abs, rs, *corpus)
		compareImport(r, dir, abs, rs, *corpus)
	}
	if part("scale") {
		benchScale(r, tmp, *corpus)
	}
	if part("sources") {
		benchSources(r, tmp, abs)
	}
	if part("onefile") {
		benchOneFile(r, tmp, abs)
	}
	if part("mcp") {
		benchMCP(r, tmp, abs)
	}
	if part("list") {
		benchList(r, tmp, abs)
	}
	if *clients != "" && part("verify") {
		benchVerify(tmp, abs, *clients, *corpus)
	}
}

// benchShow times show with four populated layers against bn --version:
// 50 agents each (the target), and 3 each (what a project usually has).
func benchShow(r *runner, tmp, abs string) {
	// 1. show worker --json with four populated layers: 50 agents each (the
	// target), and 3 each (what a project usually has).
	for _, n := range []int{50, 3} {
		dir := filepath.Join(tmp, fmt.Sprintf("four-%d", n))
		env := layeredFixture(dir, n, 2048, kdlAgents)
		version := r.cmd(env, abs, "--version")
		show := r.cmd(env, abs, "-C", filepath.Join(dir, "repo"), "config", "agents", "show", "worker", "--json")
		tv, ts := r.race(version, show)
		target := "(target <= 1.3x)"
		if n != 50 {
			target = ""
		}
		fmt.Printf("show worker --json, 4 layers x %2d agents:  %8s   bn --version: %8s   ratio %.2fx %s\n", n, ts.median, tv.median, ratio(ts, tv), target)
		if n == 50 {
			benchCheck(r, env, abs, dir, version)
		}
	}
}

// benchList times list over layers of many agents against cat.
func benchList(r *runner, tmp, abs string) {
	// 2. list over 10,000 agents vs cat of the same files, and 1,000 vs 10,000.
	for _, kind := range []fixtureKind{markdownAgents, kdlAgents} {
		small := filepath.Join(tmp, "small-"+kind.name)
		big := filepath.Join(tmp, "big-"+kind.name)
		envSmall := layeredFixture(small, 333, 1024, kind)
		envBig := layeredFixture(big, 3333, 1024, kind)
		files, bytes := agentFiles(big)
		listBig := r.cmd(envBig, abs, "-C", filepath.Join(big, "repo"), "config", "agents", "list")
		listSmall := r.cmd(envSmall, abs, "-C", filepath.Join(small, "repo"), "config", "agents", "list")
		cat := r.cmd(envBig, "cat", files...)
		tc, tb, tsm := r.race3(cat, listBig, listSmall)
		fmt.Printf("\nlist, 10,000 agents as %s (%d files, %.1f MB read):\n", kind.name, len(files), float64(bytes)/1e6)
		fmt.Printf("  bn list %8s   cat the same files %8s   ratio %.2fx (target <= 2x)\n", tb.median, tc.median, ratio(tb, tc))
		fmt.Printf("  1,000 agents %8s   10,000 agents %8s   growth %.2fx for 10x agents (target <= 11x)\n", tsm.median, tb.median, ratio(tb, tsm))
		fmt.Printf("  peak RSS %.1f MB for %.1f MB read: %.2fx (target < 4x)\n", float64(tb.maxRSS)/1e6, float64(bytes)/1e6, float64(tb.maxRSS)/float64(bytes))
	}
}

type fixtureKind struct {
	name  string
	write func(dir string, layer, n, promptBytes int)
}

var (
	markdownAgents = fixtureKind{"markdown files", writeMarkdownLayer}
	kdlAgents      = fixtureKind{"config.kdl nodes", writeKDLLayer}
)

// layeredFixture writes system, session and project layers plus a
// BN_CONFIG_DIR/BN_DATA_DIR environment; the fourth layer is the built-in.
// Each layer defines n agents of its own and overrides worker.
func layeredFixture(root string, n, promptBytes int, kind fixtureKind) []string {
	repo := filepath.Join(root, "repo")
	check(os.MkdirAll(filepath.Join(repo, ".git"), 0o755))
	canon, err := filepath.EvalSymlinks(repo)
	check(err)
	hash := sessionHash(canon)
	dirs := []string{
		filepath.Join(root, "config", "agents"),
		filepath.Join(root, "data", hash, "agents"),
		filepath.Join(repo, ".binnacle", "agents"),
	}
	for i, d := range dirs {
		check(os.MkdirAll(d, 0o755))
		kind.write(d, i, n, promptBytes)
	}
	return append(os.Environ(), "BN_CONFIG_DIR="+filepath.Join(root, "config"), "BN_DATA_DIR="+filepath.Join(root, "data"),
		"HOME="+root, "XDG_CONFIG_HOME="+filepath.Join(root, "xdg"), "XDG_DATA_HOME="+filepath.Join(root, "xdg"))
}

func promptText(n int) string {
	line := "You are a careful agent. Read the code, make the change, run the tests, and explain what you did.\n"
	return strings.Repeat(line, n/len(line)+1)[:n]
}

func writeKDLLayer(dir string, layer, n, promptBytes int) {
	var b strings.Builder
	fmt.Fprintf(&b, "agent \"worker\" {\n    model \"model-%d\"\n    tools {\n        allow \"shell(make:*)\"\n    }\n    prompt-file \"worker.md\"\n}\n", layer)
	check(os.WriteFile(filepath.Join(dir, "worker.md"), []byte(promptText(promptBytes)), 0o644))
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("l%d-agent-%d", layer, i)
		fmt.Fprintf(&b, "agent %q {\n    description \"Agent %d of layer %d: does one job well\"\n    lifecycle \"stateless\"\n    model \"claude-sonnet-4.5\"\n    tags \"bench\" \"layer%d\"\n    tools {\n        allow \"view\" \"grep\" \"shell(git:*)\"\n        deny \"write\"\n    }\n    prompt-file %q\n}\n",
			name, i, layer, layer, name+".md")
		check(os.WriteFile(filepath.Join(dir, name+".md"), []byte(promptText(promptBytes)), 0o644))
	}
	check(os.WriteFile(filepath.Join(dir, "config.kdl"), []byte(b.String()), 0o644))
}

func writeMarkdownLayer(dir string, layer, n, promptBytes int) {
	check(os.WriteFile(filepath.Join(dir, "config.kdl"), []byte(fmt.Sprintf("agent \"worker\" {\n    model \"model-%d\"\n}\n", layer)), 0o644))
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("l%d-agent-%d", layer, i)
		body := fmt.Sprintf("---\nname: %s\ndescription: Agent %d of layer %d, which does one job well\ntools: Read, Grep, Glob, shell(git:*)\nmodel: claude-sonnet-4.5\ntags: [bench, layer%d]\n---\n\n%s", name, i, layer, layer, promptText(promptBytes))
		check(os.WriteFile(filepath.Join(dir, name+".md"), []byte(body), 0o644))
	}
}

// agentFiles lists the files `list` has to read: every config.kdl and
// markdown agent file, not the prompt files config.kdl names.
func agentFiles(root string) ([]string, int64) {
	var files []string
	var total int64
	check(filepath.Walk(root, func(path string, info os.FileInfo, err error) error {
		check(err)
		if info.IsDir() || filepath.Base(filepath.Dir(path)) != "agents" {
			return nil
		}
		isKDL := filepath.Base(path) == "config.kdl"
		if isKDL || (strings.HasSuffix(path, ".md") && isAgentFile(path)) {
			files = append(files, path)
			total += info.Size()
		}
		return nil
	}))
	return files, total
}

func isAgentFile(path string) bool {
	f, err := os.Open(path)
	check(err)
	defer f.Close()
	head := make([]byte, 3)
	n, _ := f.Read(head)
	return string(head[:n]) == "---"
}

type command struct {
	env  []string
	name string
	args []string
	// stdin is a file fed to the command; refusals is whether an exit
	// status of 1 or 2 (a check that says no) is an answer, not a failure.
	stdin    string
	refusals bool
	// prepare is a shell command run, untimed, before each run (setting
	// aside what the last run wrote, then sync, so that no file system work
	// of one run is paid by the next).
	prepare string
}

type result struct {
	median time.Duration
	maxRSS int64 // bytes, the largest seen
	// user and kernel are the median CPU times of the command and what it
	// started (where a job's time goes: its own work or the kernel's).
	user, kernel time.Duration
}

type runner struct {
	bn   string
	runs int
}

func (r *runner) cmd(env []string, name string, args ...string) command {
	return command{env: env, name: name, args: args}
}

func (r *runner) race(a, b command) (result, result) {
	res := r.interleave(a, b)
	return res[0], res[1]
}

func (r *runner) race3(a, b, c command) (result, result, result) {
	res := r.interleave(a, b, c)
	return res[0], res[1], res[2]
}

// interleave runs the commands in turn, runs times each, after one warm-up
// round, and returns each one's median time and peak memory.
func (r *runner) interleave(cmds ...command) []result {
	times := make([][3][]time.Duration, len(cmds)) // wall, user, kernel
	out := make([]result, len(cmds))
	for round := -1; round < r.runs; round++ {
		for i, c := range cmds {
			d, rss, user, kernel := run(c)
			if round >= 0 {
				for k, t := range []time.Duration{d, user, kernel} {
					times[i][k] = append(times[i][k], t)
				}
				out[i].maxRSS = max(out[i].maxRSS, rss)
			}
		}
	}
	median := func(ts []time.Duration) time.Duration {
		slices.Sort(ts)
		return ts[len(ts)/2]
	}
	for i := range cmds {
		out[i].median, out[i].user, out[i].kernel = median(times[i][0]), median(times[i][1]), median(times[i][2])
	}
	return out
}

func run(c command) (wall time.Duration, rss int64, user, kernel time.Duration) {
	if c.prepare != "" {
		prep := exec.Command("sh", "-c", c.prepare)
		prep.Env, prep.Stderr = c.env, os.Stderr
		check(prep.Run())
	}
	cmd := exec.Command(c.name, c.args...)
	cmd.Env = c.env
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	check(err)
	defer devnull.Close()
	cmd.Stdout = devnull
	if c.stdin != "" {
		in, err := os.Open(c.stdin)
		check(err)
		defer in.Close()
		cmd.Stdin = in
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	shrinkPeakRSS()
	start := time.Now()
	if err := cmd.Run(); err != nil && !(c.refusals && (cmd.ProcessState.ExitCode() == 1 || cmd.ProcessState.ExitCode() == 2)) {
		fmt.Fprintf(os.Stderr, "%s %s: %v\n%s", c.name, strings.Join(c.args[:min(len(c.args), 6)], " "), err, stderr.String())
		os.Exit(1)
	}
	wall = time.Since(start)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss * 1024 // kilobytes on Linux
	}
	return wall, rss, cmd.ProcessState.UserTime(), cmd.ProcessState.SystemTime()
}

// shrinkPeakRSS lowers this process's peak RSS to what it now holds.
// Go starts a command with vfork, and Linux carries the parent's peak RSS
// into the child's at exec: without this, a child's peak would read as the
// largest this benchmark ever was.
func shrinkPeakRSS() {
	debug.FreeOSMemory()
	// 5 resets the peak to the current RSS (proc(5), clear_refs).
	check(os.WriteFile("/proc/self/clear_refs", []byte("5"), 0))
}

// installed copies a binary, and the siblings named that it runs, into dir
// with plain writes, and returns the copy's path: the report times binaries
// as an install writes them (a release archive unpacked, npm, cp), the
// minimal Go binary as bn. The Go linker writes its output through a
// shared memory mapping, and a binary so written starts slower for as long
// as its pages stay cached (Linux 6.18, ext4): bn --version took 3.50 ms
// against 2.88 ms for a copy of the same file, and the minimal binary
// 1.67 ms against 1.47 ms (medians of 801 interleaved runs), so the ratio
// read 2.09x where the copies give 1.96x.
func installed(bin, dir string, siblings ...string) string {
	check(os.MkdirAll(dir, 0o755))
	for _, name := range append([]string{filepath.Base(bin)}, siblings...) {
		data, err := os.ReadFile(filepath.Join(filepath.Dir(bin), name))
		if os.IsNotExist(err) && name != filepath.Base(bin) {
			continue
		}
		check(err)
		check(os.WriteFile(filepath.Join(dir, name), data, 0o755))
	}
	return filepath.Join(dir, filepath.Base(bin))
}

func ratio(a, b result) float64 { return float64(a.median) / float64(b.median) }

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}

// compareRulesync exports the corpus with bn and generates it with
// rulesync for the four tools both write, each from its own copy of the
// same agents: every file afresh, and again over files already there.
// Each run starts after a sync, so that neither pays to flush the other's
// files.
//
// make bench runs the comparisons on a tmpfs, so that they compare the two
// tools' work: on ext4 without a journal (the disk of the machine it runs
// on), creating a file steps over every inode freed in the minute before,
// and a benchmark removes tens of thousands of files (the Go benchmarks'
// temporary directories, an earlier run's fixtures). There, the kernel's
// time for the same bn export measured 20 ms to 90 ms from one run of the
// report to the next, while bn's own stayed at 20 ms.
func compareRulesync(r *runner, tmp, bn, rulesync, corpus string) {
	as := readCorpus(corpus)
	bnRepo, rsRepo := filepath.Join(tmp, "bn-corpus"), filepath.Join(tmp, "rulesync-corpus")
	writeBnProject(bnRepo, as)
	writeRulesyncProject(rsRepo, as)
	env := append(os.Environ(), "HOME="+tmp)
	outputs := ".github/agents .claude/agents .opencode/agents .codex/agents"
	bnExport := fmt.Sprintf("%q config agents export --target copilot,claude,opencode,codex --prefix bn- >/dev/null 2>&1", bn)
	rsGenerate := fmt.Sprintf("%q generate --targets copilot,claudecode,opencode,codexcli --features subagents >/dev/null", rulesync)
	fmt.Printf("\nexport of %d corpus agents to Copilot, Claude Code, OpenCode and Codex (bn export; rulesync generate):\n", len(as))
	for _, fresh := range []bool{true, false} {
		bnCmd := r.cmd(env, "sh", "-c", fmt.Sprintf("cd %q && %s", bnRepo, bnExport))
		rsCmd := r.cmd(env, "sh", "-c", fmt.Sprintf("cd %q && %s", rsRepo, rsGenerate))
		bnCmd.prepare, rsCmd.prepare = "sync", "sync"
		label := "outputs already there (regenerate)"
		if fresh {
			label = "no outputs yet (every file created)"
			bnCmd.prepare = setAside(tmp, bnRepo, outputs)
			rsCmd.prepare = setAside(tmp, rsRepo, outputs)
		}
		tb, ts := r.race(bnCmd, rsCmd)
		fmt.Printf("  %-44s bn %d files %8s   rulesync %d files %8s   bn is %.1fx faster\n",
			label, countFiles(bnRepo, outputs), tb.median.Round(100*time.Microsecond), countFiles(rsRepo, outputs), ts.median.Round(100*time.Microsecond), ratio(ts, tb))
		fmt.Printf("  %-44s bn's CPU: %s its own, %s the kernel's (creating files)\n", "", tb.user.Round(100*time.Microsecond), tb.kernel.Round(100*time.Microsecond))
	}
}

// setAside is a prepare step that moves paths (space-separated, under
// root) into a new directory under tmp, then syncs. Removing them instead
// would free their inodes, and ext4 without a journal (the file system of
// the machine make bench runs on) steps over every inode freed in the last
// minute each time it creates a file: a cost that grows with the runs of
// this loop, and one no user's first export meets.
func setAside(tmp, root, paths string) string {
	return fmt.Sprintf(`cd %q && d=$(mktemp -d %q) && i=0 && for p in %s; do i=$((i+1)); if [ -e "$p" ]; then mv "$p" "$d/$i"; fi; done && sync`,
		root, filepath.Join(tmp, "set-aside.XXXXXX"), paths)
}

// countFiles counts the files in dirs (space-separated, under root).
func countFiles(root, dirs string) int {
	n := 0
	for _, d := range strings.Fields(dirs) {
		entries, _ := os.ReadDir(filepath.Join(root, d))
		n += len(entries)
	}
	return n
}

// compareImport times a whole migration: import the corpus, then write it
// for every target. rulesync's import stops at the first file strict YAML
// rejects, so both tools get the corpus files strict YAML accepts.
func compareImport(r *runner, tmp, bn, rulesync, corpus string) {
	src := filepath.Join(tmp, "strict-corpus", ".claude", "agents")
	check(os.MkdirAll(src, 0o755))
	n := 0
	paths, _ := filepath.Glob(filepath.Join(corpus, "*.md"))
	for _, p := range paths {
		data, err := os.ReadFile(p)
		check(err)
		if strictFrontmatter(data) {
			check(os.WriteFile(filepath.Join(src, filepath.Base(p)), data, 0o644))
			n++
		}
	}
	bnRepo, rsRepo := filepath.Join(tmp, "bn-migrate"), filepath.Join(tmp, "rs-migrate")
	check(os.MkdirAll(filepath.Join(bnRepo, ".git"), 0o755))
	check(os.MkdirAll(filepath.Join(rsRepo, ".claude"), 0o755))
	check(os.Symlink(src, filepath.Join(rsRepo, ".claude", "agents")))
	env := append(os.Environ(), "HOME="+tmp)
	// The source is .claude/agents, so both write the other three targets
	// they share (Gemini ids cannot hold the corpus's dotted names).
	outputs := ".github/agents .opencode/agents .codex/agents"
	bnScript := fmt.Sprintf("cd %q && %q config agents import %q >/dev/null && %q config agents export --target copilot,opencode,codex --prefix bn- >/dev/null 2>&1",
		bnRepo, bn, src, bn)
	rsScript := fmt.Sprintf("cd %q && %q import --targets claudecode --features subagents >/dev/null && %q generate --targets copilot,opencode,codexcli --features subagents >/dev/null",
		rsRepo, rulesync, rulesync)
	// Each run starts from nothing (the last run's files set aside, and
	// synced, untimed).
	bnCmd, rsCmd := r.cmd(env, "sh", "-c", bnScript), r.cmd(env, "sh", "-c", rsScript)
	bnCmd.prepare = setAside(tmp, bnRepo, ".binnacle "+outputs)
	rsCmd.prepare = setAside(tmp, rsRepo, ".rulesync "+outputs)
	tb, ts := r.race(bnCmd, rsCmd)
	fmt.Printf("  import %d agents, write copilot, opencode, codex  bn %8s   rulesync %8s   bn is %.1fx faster (target >= 40x)\n",
		n, tb.median.Round(100*time.Microsecond), ts.median.Round(100*time.Microsecond), ratio(ts, tb))
	fmt.Printf("  %-44s bn's CPU: %s its own, %s the kernel's (creating files, flushing the import to disk)\n", "", tb.user.Round(100*time.Microsecond), tb.kernel.Round(100*time.Microsecond))
}

// strictFrontmatter reports whether an agent file's frontmatter is a
// mapping strict YAML accepts (what rulesync's import requires).
func strictFrontmatter(src []byte) bool {
	md, err := frontmatter.Split(src)
	if err != nil {
		return false
	}
	var m map[string]any
	return yaml.Unmarshal(md.YAML, &m) == nil
}

// benchSources times sources over 10,000 Claude agent files against cat.
func benchSources(r *runner, tmp, bn string) {
	repo := filepath.Join(tmp, "sources-10k")
	dir := filepath.Join(repo, ".claude", "agents")
	check(os.MkdirAll(dir, 0o755))
	check(os.MkdirAll(filepath.Join(repo, ".git"), 0o755))
	var files []string
	for i := 0; i < 10000; i++ {
		p := filepath.Join(dir, fmt.Sprintf("agent-%d.md", i))
		check(os.WriteFile(p, []byte(fmt.Sprintf("---\nname: agent-%d\ndescription: Agent %d does one job well\ntools: Read, Grep\n---\n\n%s", i, i, promptText(1024))), 0o644))
		files = append(files, p)
	}
	env := append(os.Environ(), "HOME="+tmp)
	tc, ts := r.race(r.cmd(env, "cat", files...), r.cmd(env, bn, "-C", repo, "config", "agents", "sources", "--tool", "claude"))
	fmt.Printf("\nsources over 10,000 Claude agent files: %8s   cat the same files %8s   ratio %.2fx\n", ts.median, tc.median, ratio(ts, tc))
}
