package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/binnacle-dev/bn/doctor"
	"github.com/binnacle-dev/bn/internal/clientbin"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/spf13/cobra"
)

type DoctorOptions struct {
	F *Factory
}

func NewCmdDoctor(f *Factory, runF func(*DoctorOptions) error) *cobra.Command {
	opts := &DoctorOptions{F: f}
	return &cobra.Command{
		Use:   "doctor",
		Short: "Say what keeps the tools from loading bn's agents as defined, with the fix for each",
		Long: "Examine the repository as the tools will load it: originals import recorded still in the\n" +
			"tools' directories, other files there that define bn's agents (the tools load them instead\n" +
			"of bn's, or merge them in), exported files out of date, a tool that does not trust the\n" +
			"repository yet (so it leaves out its agents or skips their hooks), bn missing from the\n" +
			"PATH the hooks run with, definitions that do not load. Each problem comes with its fix;\n" +
			"the exit status is 1 when there is any. It also lists the clients verify would run.\n" +
			"Only the tools whose files the repository holds are judged. Nothing is written.",
		Example: "  bn config agents doctor\n  bn config agents doctor --json | jq '.problems[].fix'",
		Args:    exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return doctorRun(opts)
		},
	}
}

func doctorRun(opts *DoctorOptions) error {
	f := opts.F
	p, err := f.Paths()
	if err != nil {
		return err
	}
	self, _ := os.Executable()
	rep := doctor.Run(doctor.Options{
		Load:       func() (*resolver.Set, error) { return f.Agents(resolver.Committed) },
		Paths:      p,
		Registry:   f.Registry(),
		Home:       f.Getenv("HOME"),
		LookPath:   exec.LookPath,
		FindClient: func(tool string) (string, bool) { return clientbin.Find("", tool) },
		Self:       self,
		IsBn:       answersCheck,
		Display:    func(s string) string { return displayPath(p.RepoRoot, s) },
	})
	if !f.Human {
		if err := writeJSON(f.IO.Out, rep); err != nil {
			return err
		}
	} else {
		printDoctor(f, rep)
	}
	if len(rep.Problems) > 0 {
		return exitError{1}
	}
	return nil
}

// answersCheck says whether the program at path is a bn with `config
// agents check`, which the hooks run (binnacle's bn has none).
func answersCheck(path string) bool {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return exec.CommandContext(ctx, path, "config", "agents", "check", "--help").Run() == nil
}

func printDoctor(f *Factory, rep doctor.Report) {
	w := f.IO.Out
	tools := "no tool's files yet"
	if len(rep.Tools) > 0 {
		tools = "the files of " + strings.Join(rep.Tools, ", ")
	}
	fmt.Fprintf(w, "%s; this repository holds %s\n", plural(len(rep.Problems), "problem"), tools)
	for _, pr := range rep.Problems {
		fmt.Fprintf(w, "\nX %s\n", pr.Problem)
		for i, file := range pr.Files {
			if i == maxListed && len(pr.Files) > maxListed+1 {
				fmt.Fprintf(w, "    … and %d more (--json lists them all)\n", len(pr.Files)-i)
				break
			}
			fmt.Fprintf(w, "    %s\n", file)
		}
		fmt.Fprintf(w, "  fix: %s\n", pr.Fix)
	}
	if len(rep.Passed) > 0 {
		fmt.Fprintln(w)
	}
	for _, ok := range rep.Passed {
		fmt.Fprintf(w, "ok %s\n", ok)
	}
	var found, missing []string
	for _, c := range rep.Clients {
		if c.Found {
			found = append(found, c.Tool)
		} else {
			missing = append(missing, c.Tool)
		}
	}
	if len(found) == 0 {
		found = []string{"none"}
	}
	fmt.Fprintf(w, "\nclients verify would run: %s", strings.Join(found, ", "))
	if len(missing) > 0 {
		fmt.Fprintf(w, "; not found: %s (npm install -g their packages, or verify --client-dir DIR)", strings.Join(missing, ", "))
	}
	fmt.Fprintln(w)
}

// maxListed is how many files a report lists before counting the rest.
const maxListed = 5
