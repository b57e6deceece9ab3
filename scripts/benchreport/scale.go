//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// writeClaudeAgents writes n Claude Code agent files into dir, cycling
// through the corpus's agents (each under a name of its own).
func writeClaudeAgents(dir string, as []corpusAgent, n int) {
	check(os.MkdirAll(dir, 0o755))
	for i := range n {
		a := as[i%len(as)]
		name := fmt.Sprintf("%s-%d", a.name, i)
		desc := strings.ReplaceAll(a.description, `"`, `'`)
		content := fmt.Sprintf("---\nname: %s\ndescription: \"%s\"\ntools: Read, Grep, Glob, Bash\nmodel: sonnet\n---\n\n%s\n", name, desc, a.body)
		check(os.WriteFile(filepath.Join(dir, name+".md"), []byte(content), 0o644))
	}
}

// scaleFixture is a source directory of n Claude agents and a repository
// that has imported them and exported them to Claude Code.
type scaleFixture struct {
	n                    int
	src, repo, out       string
	env                  []string
	exported             int // files export writes
	importW, exportW     command
	importDry, exportDry command
}

func newScaleFixture(r *runner, tmp string, as []corpusAgent, n int) scaleFixture {
	root := filepath.Join(tmp, fmt.Sprintf("scale-%d", n))
	f := scaleFixture{n: n, src: filepath.Join(root, "src", ".claude", "agents"), repo: filepath.Join(root, "repo")}
	f.out = filepath.Join(f.repo, ".claude", "agents")
	writeClaudeAgents(f.src, as, n)
	check(os.MkdirAll(filepath.Join(f.repo, ".git"), 0o755))
	f.env = append(os.Environ(), "HOME="+root, "XDG_CONFIG_HOME="+filepath.Join(root, "xdg"), "XDG_DATA_HOME="+filepath.Join(root, "xdg"))
	bn := func(args ...string) command {
		return r.cmd(f.env, r.bn, append([]string{"-C", f.repo, "config", "agents"}, args...)...)
	}
	// What bn computes: the import planned in full (the config.kdl text
	// built and read back), and the export planned and compared with the
	// files already there; nothing written.
	f.importDry = bn("import", f.src, "--dry-run")
	f.exportDry = bn("export", "--target", "claude", "--dry-run")
	// With the writes: each run into a layer or a directory that does not
	// exist yet (the last run's set aside, and synced, untimed).
	f.importW = bn("import", f.src)
	f.importW.prepare = setAside(root, f.repo, ".binnacle")
	f.exportW = bn("export", "--target", "claude")
	f.exportW.prepare = setAside(root, f.repo, ".claude/agents")
	run(f.importW)
	run(f.exportW)
	entries, err := os.ReadDir(f.out)
	check(err)
	f.exported = len(entries)
	return f
}

// benchScale times import and export of 1,000 to 50,000 Claude agents:
// what bn computes (planned, nothing written) must grow linearly (1,500 ->
// 4,500 agents within 3.6x); with the writes, export's time per file is
// held to plainwrite's, a program that writes the same files the same
// safe way (target: within 2x).
func benchScale(r *runner, tmp string, corpus string) {
	as := readCorpus(corpus)
	dir := filepath.Join(tmp, "plainwrite")
	bin := filepath.Join(dir, "plainwrite")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./scripts/benchreport/plainwrite")
	build.Stderr = os.Stderr
	check(build.Run())
	fmt.Println("\nimport (Claude Code agent files into a project layer) and export (the layer to Claude Code), planned with --dry-run:")
	few := &runner{bn: r.bn, runs: max(3, r.runs/4)}
	var prev [2]result
	var first scaleFixture // 1,000 agents, kept for the timing with writes
	prevN := 0
	for _, n := range []int{1000, 1500, 4500, 10000, 50000} {
		rr := r
		if n >= 10000 {
			rr = few
		}
		f := newScaleFixture(rr, tmp, as, n)
		ti, te := rr.race(f.importDry, f.exportDry)
		line := fmt.Sprintf("  %6d agents: import %8s (%3.0f µs an agent)   export %8s (%3.0f µs an agent)",
			n, ti.median.Round(100*time.Microsecond), perItem(ti, n), te.median.Round(100*time.Microsecond), perItem(te, n))
		if prevN > 0 {
			line += fmt.Sprintf("   %.1fx the agents: %.2fx, %.2fx the time", float64(n)/float64(prevN), ratio(ti, prev[0]), ratio(te, prev[1]))
		}
		fmt.Println(line)
		// Every fixture stays until the end: removing one would leave the
		// writes timed next stepping over its freed inodes (see setAside).
		if prevN == 0 {
			first = f
		}
		prev, prevN = [2]result{ti, te}, n
	}
	fmt.Println("  (target: 1,500 -> 4,500 agents within 3.6x; time linear up to 50,000)")
	benchWrites(r, first, bin, dir)
}

func perItem(t result, n int) float64 { return float64(t.median.Microseconds()) / float64(n) }

// benchWrites times import and export with their writes, and plainwrite
// writing the files export wrote, each into a directory that does not exist
// yet.
func benchWrites(r *runner, f scaleFixture, bin, dir string) {
	same := filepath.Join(dir, "same")
	check(os.CopyFS(same, os.DirFS(f.out)))
	out := filepath.Join(dir, "out")
	plain := r.cmd(f.env, bin, same, out)
	plain.prepare = setAside(dir, dir, "out")
	ti, te, tp := r.race3(f.importW, f.exportW, plain)
	fmt.Printf("\n%d agents written (each run into a directory that does not exist yet):\n", f.n)
	fmt.Printf("  import %8s (%3.0f µs an agent: its config.kdl and prompts flushed to disk before they are renamed in)\n", ti.median.Round(100*time.Microsecond), perItem(ti, f.n))
	fmt.Printf("  export to Claude Code %8s (%3.0f µs a file)   plainwrite of the same %d files %8s (%3.0f µs a file)   ratio %.2fx (target <= 2x)\n",
		te.median.Round(100*time.Microsecond), perItem(te, f.exported), f.exported, tp.median.Round(100*time.Microsecond), perItem(tp, f.exported), ratio(te, tp))
}
