package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/importer"
	"github.com/spf13/cobra"
)

type DiffOptions struct {
	F         *Factory
	Source    string
	Target    string
	From      string
	FailBelow float64
	ShowDiff  bool
}

func NewCmdDiff(f *Factory, runF func(*DiffOptions) error) *cobra.Command {
	opts := &DiffOptions{F: f}
	formats := importer.FormatChoices()
	cmd := &cobra.Command{
		Use:   "diff --source DIR",
		Short: "Report how faithfully exported agents keep their source files",
		Long: "Match each agent file in --source with the file bn generated for the same agent (in\n" +
			"--target, default the tool's directory in the repo), diff the prompts and compare the\n" +
			"fields both model. Fidelity per file is (1 - changed lines / total lines) × 100; lines\n" +
			"that differ only in whitespace are reported apart and not counted as changed.",
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(formats, opts.From) {
				return usagef("--from %q: use one of %s", opts.From, strings.Join(formats, ", "))
			}
			if opts.FailBelow < 0 || opts.FailBelow > 100 {
				return usagef("--fail-below %v: give a percentage from 0 to 100", opts.FailBelow)
			}
			if runF != nil {
				return runF(opts)
			}
			return diffRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Source, "source", "", "`DIR` of the original agent files")
	fl.StringVar(&opts.Target, "target", "", "`DIR` of bn's output (default: the tool's agents directory in the repo)")
	fl.StringVar(&opts.From, "from", "auto", "`FORMAT` of the files: "+strings.Join(formats, ", "))
	fl.Float64Var(&opts.FailBelow, "fail-below", 0, "exit 1 when overall fidelity is below `PCT`")
	fl.BoolVar(&opts.ShowDiff, "diff", false, "show a unified diff of every prompt that changed")
	cmd.MarkFlagRequired("source")
	return cmd
}

type fidelityFile struct {
	Source     string   `json:"source"`
	Target     string   `json:"target"`
	Agent      string   `json:"agent"`
	Status     string   `json:"status"`
	Fidelity   float64  `json:"fidelity"`
	Changed    int      `json:"changed_lines"`
	Whitespace int      `json:"whitespace_lines"`
	Total      int      `json:"total_lines"`
	Fields     []string `json:"fields"`
	Diff       string   `json:"diff,omitempty"`
}

type fidelityReport struct {
	Files     []fidelityFile `json:"files"`
	Skipped   []skippedJSON  `json:"skipped"`
	Overall   float64        `json:"overall"`
	Agents    int            `json:"agents"`
	FailBelow float64        `json:"fail_below"`
	Passed    bool           `json:"passed"`
}

func diffRun(opts *DiffOptions) error {
	p, err := opts.F.Paths()
	if err != nil {
		return err
	}
	sources, err := collectSources([]string{opts.Source}, opts.F.Cwd)
	if err != nil {
		return err
	}
	report := fidelityReport{Files: []fidelityFile{}, Skipped: []skippedJSON{}, FailBelow: opts.FailBelow}
	changed, total := 0, 0
	for _, src := range sources {
		format := importer.Format(opts.From)
		if opts.From == "auto" {
			format = importer.Detect(src.path)
		}
		a, err := readAgentFile(src.path, src.rel, format)
		if err != nil {
			report.Skipped = append(report.Skipped, skippedJSON{File: src.path, Reason: err.Error()})
			continue
		}
		target, ok := emit.LookupTarget(string(format))
		if !ok {
			report.Skipped = append(report.Skipped, skippedJSON{File: src.path, Reason: fmt.Sprintf("bn does not export to %s, so there is no output to compare", format)})
			continue
		}
		dir := opts.Target
		if dir == "" {
			dir = filepath.Join(p.RepoRoot, filepath.FromSlash(target.Dir))
		} else if !filepath.IsAbs(dir) {
			dir = filepath.Join(opts.F.Cwd, dir)
		}
		file := fidelityFile{Source: displayPath(p.RepoRoot, src.path), Agent: a.Name, Fields: []string{}}
		targetPath := filepath.Join(dir, a.Name+target.Ext)
		file.Target = displayPath(p.RepoRoot, targetPath)
		out, err := readAgentFile(targetPath, a.Name+target.Ext, format)
		if err != nil {
			lines := strings.Count(strings.TrimSpace(a.Prompt), "\n") + 1
			file.Status = "no output: " + err.Error()
			file.Changed, file.Total = lines, lines
		} else {
			d := importer.CompareBodies(a.Prompt, out.Prompt, file.Source, file.Target)
			file.Status, file.Changed, file.Whitespace, file.Total = d.Status(), d.Changed, d.Whitespace, d.Total
			file.Fidelity = d.Fidelity()
			file.Fields = append(file.Fields, importer.FieldDiffs(a, out)...)
			for _, d := range a.Dropped {
				file.Fields = append(file.Fields, "not carried: "+d)
			}
			if opts.ShowDiff {
				file.Diff = d.Unified
			}
		}
		changed += file.Changed
		total += file.Total
		report.Files = append(report.Files, file)
	}
	report.Agents = len(report.Files)
	report.Overall = 100
	if total > 0 {
		report.Overall = (1 - float64(changed)/float64(total)) * 100
	}
	report.Passed = report.Overall >= opts.FailBelow
	if err := printFidelity(opts, report); err != nil {
		return err
	}
	if !report.Passed {
		return exitError{1}
	}
	return nil
}

func readAgentFile(path, rel string, format importer.Format) (*importer.Agent, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, unwrapPathErr(err)
	}
	return importer.Read(path, rel, data, format)
}

func printFidelity(opts *DiffOptions, r fidelityReport) error {
	if !opts.F.Human {
		return writeJSON(opts.F.IO.Out, r)
	}
	w := opts.F.IO.Out
	fmt.Fprintln(w, "Agent Fidelity Report")
	fmt.Fprintln(w, "=====================")
	width := 0
	for _, f := range r.Files {
		width = max(width, len(filepath.Base(f.Source)))
	}
	for _, f := range r.Files {
		fmt.Fprintf(w, "%-*s : %5.1f%% match (%s)\n", width, filepath.Base(f.Source), f.Fidelity, f.Status)
		for _, d := range f.Fields {
			fmt.Fprintf(w, "%*s   %s\n", width, "", d)
		}
		if f.Diff != "" {
			fmt.Fprint(w, f.Diff)
		}
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "skipped %s: %s\n", s.File, s.Reason)
	}
	fmt.Fprintln(w, strings.Repeat("-", max(width+22, 40)))
	fmt.Fprintf(w, "Overall fidelity : %.1f%% (%d agents)\n", r.Overall, r.Agents)
	if !r.Passed {
		fmt.Fprintf(w, "below --fail-below %.1f%%\n", r.FailBelow)
	}
	return nil
}
