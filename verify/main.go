package verify

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/probe"
	"github.com/binnacle-dev/bn/resolver"
	"golang.org/x/term"
)

// Exit statuses: every agent verified and the same (or none to verify);
// a difference (or a client that failed); nothing verified (no client
// found).
const (
	ExitSame        = 0
	ExitDiffers     = 1
	ExitUsage       = 2
	ExitNoneChecked = 3
)

// Main runs bn-verify: bn config agents verify runs it with the
// repository it resolved. It returns the exit status.
func Main(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bn-verify", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	repo := fs.String("repo", "", "the repository root")
	clientDir := fs.String("client-dir", "", "where the clients are installed")
	human := fs.Bool("H", false, "human-readable output")
	var targets, names list
	fs.Var(&targets, "target", "a tool to verify")
	fs.Var(&names, "agent", "an agent to verify")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: bn config agents verify [--target T]... [--agent NAME]... [--client-dir DIR] [-H]")
		return ExitUsage
	}
	paths, err := resolver.ProcessPaths(*repo)
	if err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return ExitDiffers
	}
	// What verify judges is what export writes: the committed scope.
	set := paths.Load(resolver.Committed, config.Decoder{Sections: dialect.All()})
	if err := set.Fatal(); err != nil {
		fmt.Fprintln(stderr, "Error:", resolver.LoadError{Err: err})
		return ExitDiffers
	}
	// The hooks an exported file runs call the bn beside bn-verify, in
	// each run's sandbox, which holds the rules they decide from.
	var hooks []string
	if exe, err := os.Executable(); err == nil {
		hooks = probe.HookEnv(filepath.Dir(exe))
	}
	opts := Options{Targets: targets, Agents: names, ClientDir: *clientDir, Root: paths.RepoRoot, Hooks: hooks}
	var p *progress
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p = &progress{w: stderr}
		opts.Progress = p.update
	}
	// An interrupt or termination stops every client running, each with
	// the processes it started, and starts no other: the run then ends
	// quickly. Once one came, a second exits at once, as signals do by
	// default.
	interrupted, stopInt := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stopInt()
	ctx, stop := signal.NotifyContext(interrupted, syscall.SIGTERM)
	defer stop()
	context.AfterFunc(ctx, func() { stop(); stopInt() })
	opts.Context = ctx
	rep, err := Run(set, opts)
	// The line goes before the report, which the terminal shows too.
	p.end()
	if ctx.Err() != nil {
		// An interrupt is the cause of both contexts' end; stopInt, the
		// cause of interrupted's after a termination, is not.
		sig := syscall.SIGTERM
		if context.Cause(interrupted) == context.Cause(ctx) {
			sig = syscall.SIGINT
		}
		fmt.Fprintf(stderr, "Error: stopped by %v; the clients running were killed, and nothing was verified\n", sig)
		return 128 + int(sig)
	}
	if err != nil {
		fmt.Fprintln(stderr, "Error:", err)
		return ExitUsage
	}
	if *human {
		printHuman(stdout, rep)
	} else {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		enc.Encode(rep)
	}
	switch {
	case rep.Differ > 0 || rep.Drifted > 0:
		return ExitDiffers
	case rep.Verified == 0 && !rep.found():
		return ExitNoneChecked
	}
	return ExitSame
}

func printHuman(w io.Writer, rep *Report) {
	var missing []string
	for _, c := range rep.Clients {
		if !c.Found {
			fmt.Fprintf(w, "%s: no client found; skipped\n", c.Target)
			if !slices.Contains(missing, c.Package) { // one client for two targets (Claude Code's plugins)
				missing = append(missing, c.Package)
			}
			continue
		}
		if c.How == NothingToVerify {
			fmt.Fprintf(w, "%s (%s): %s\n", c.Target, c.Path, c.How)
		} else {
			fmt.Fprintf(w, "%s (%s): %s, %.1f s\n", c.Target, c.Path, c.How, c.Seconds)
		}
		if c.Error != "" {
			fmt.Fprintf(w, "  error: %s\n", c.Error)
		}
		for _, r := range c.Refused {
			fmt.Fprintf(w, "  refuses the project, loading none of its agents, for %s\n", r)
		}
		for _, f := range rep.Files {
			if f.Target == c.Target && f.State != Same {
				fmt.Fprintf(w, "  %s: %s%s\n", f.Path, stateText[f.State], detail(f.Detail))
			}
		}
		for _, r := range rep.Results {
			if r.Target != c.Target {
				continue
			}
			for _, n := range r.Notes {
				fmt.Fprintf(w, "  %-24s note: %s\n", r.Agent, n)
			}
			for _, a := range r.Advisory {
				fmt.Fprintf(w, "  %-24s advisory: %s\n", r.Agent, a)
			}
			switch {
			case r.Error != "":
				fmt.Fprintf(w, "  %-24s error: %s\n", r.Agent, firstLine(r.Error))
			case r.Same:
				fmt.Fprintf(w, "  %-24s same: %s\n", r.Agent, offered(r.Offered))
			default:
				for i, d := range r.Differences {
					name := r.Agent
					if i > 0 {
						name = ""
					}
					note := "not reported by export"
					if d.Reported {
						note = "reported by export"
					}
					fmt.Fprintf(w, "  %-24s differs: %s (%s)\n", name, d.Detail, note)
				}
			}
		}
	}
	if len(rep.NotVerified) > 0 {
		fmt.Fprintf(w, "%s: %s\n", strings.Join(rep.NotVerified, ", "), dialect.NotVerified)
	}
	if len(missing) > 0 {
		fmt.Fprintf(w, "to verify with the missing clients: npm install --prefix DIR %s, then pass --client-dir DIR\n", strings.Join(missing, " "))
	}
	switch {
	case rep.Verified == 0 && !rep.found():
		fmt.Fprintln(w, "nothing verified: no client of", strings.Join(Targets(), ", "), "was found (install one, or pass --client-dir)")
		return
	case rep.Verified == 0 && rep.Differ == 0 && rep.Drifted == 0:
		fmt.Fprintln(w, "nothing to verify: the project has no agent for the tools whose clients were found (define one in .binnacle/agents/config.kdl)")
		return
	}
	fmt.Fprintf(w, "%d verified, %d differ; %d files on disk differ from what export writes\n", rep.Verified, rep.Differ, rep.Drifted)
}

// stateText says what a file's state means.
var stateText = map[string]string{
	Missing:   "missing: not exported yet (verified as export would write it; run bn config agents export)",
	OutOfDate: "out of date: the definition changed since export wrote it (verified as it is; run bn config agents export)",
	Edited:    "edited by hand since export wrote it (verified as it is)",
	NotBn:     "not written by bn (verified as bn reads it)",
	Stale:     "stale: written by bn for an agent no longer exported, and loaded all the same (run bn config agents export --prune)",
}

func detail(d string) string {
	if d == "" {
		return ""
	}
	return ": " + d
}

func offered(tools []string) string {
	if len(tools) == 0 {
		return "no tool"
	}
	return strings.Join(tools, ", ")
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// list is a repeatable flag that also takes comma-separated values.
type list []string

func (l *list) String() string { return strings.Join(*l, ",") }
func (l *list) Set(v string) error {
	for p := range strings.SplitSeq(v, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}

// found says whether a client of some target was found.
func (rep *Report) found() bool {
	return slices.ContainsFunc(rep.Clients, func(c Client) bool { return c.Found })
}
