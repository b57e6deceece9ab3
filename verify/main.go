package verify

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/probe"
	"github.com/binnacle-dev/bn/resolver"
)

// Exit statuses: every agent verified and the same; a difference (or a
// client that failed); nothing verified (no client found).
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
	rep, err := Run(set, Options{Targets: targets, Agents: names, ClientDir: *clientDir, Hooks: hooks})
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
	case rep.Differ > 0:
		return ExitDiffers
	case rep.Verified == 0:
		return ExitNoneChecked
	}
	return ExitSame
}

func printHuman(w io.Writer, rep *Report) {
	var missing []string
	for _, c := range rep.Clients {
		if !c.Found {
			fmt.Fprintf(w, "%s: no client found; skipped\n", c.Target)
			missing = append(missing, c.Package)
			continue
		}
		fmt.Fprintf(w, "%s (%s):\n", c.Target, c.Path)
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
	if rep.Verified == 0 {
		fmt.Fprintln(w, "nothing verified: no client of", strings.Join(Targets(), ", "), "was found (install one, or pass --client-dir)")
		return
	}
	fmt.Fprintf(w, "%d verified, %d differ\n", rep.Verified, rep.Differ)
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
