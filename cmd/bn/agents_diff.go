package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/export"
	"github.com/binnacle-dev/bn/importer"
	"github.com/binnacle-dev/bn/resolver"
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
	formats := append([]string{"auto"}, f.Registry().Names()...)
	cmd := &cobra.Command{
		Use:   "diff [--source DIR]",
		Short: "Report how faithfully bn's files keep the original agent files",
		Long: "Compare each original agent file with bn's file for the same agent, read both with the\n" +
			"tool's reader, and compare what they mean: description, tool access (every tool, a list,\n" +
			"or none), model, every other field, and the prompt line by line. Fidelity per file is\n" +
			"(1 - changed / total) × 100 over prompt lines and fields; lines that differ only in\n" +
			"whitespace are reported apart and not counted. A changed field always counts, so an\n" +
			"agent whose tool access changed is never 100%.\n\n" +
			"The originals are those import recorded (imports.lock), where they are now, moved aside\n" +
			"or not; --source DIR names others (files bn wrote there are not originals, and skipped).\n" +
			"bn's side is what export writes now from the definitions, or the file in the tool's\n" +
			"directory when it was edited by hand since export (what the tool loads): an edit on\n" +
			"either side lowers the figure. --target DIR compares with the files there instead.",
		Example: "  bn config agents diff -H --fail-below 100\n  bn config agents diff --source ~/src/agents -H\n" +
			"  bn config agents diff --source .github/agents --target out/ --fail-below 100 --diff -H",
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !slices.Contains(formats, opts.From) {
				return usagef("--from %q: use one of %s%s", opts.From, strings.Join(formats, ", "), suggest(opts.From, formats))
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
	fl.StringVar(&opts.Source, "source", "", "`DIR` of the original agent files (default: those import recorded)")
	fl.StringVar(&opts.Target, "target", "", "`DIR` of bn's output (default: the tool's agents directory in the repository)")
	fl.StringVar(&opts.From, "from", "auto", "`FORMAT` of the files: "+strings.Join(formats, ", "))
	fl.Float64Var(&opts.FailBelow, "fail-below", 0, "exit 1 when overall fidelity is below `PCT`")
	fl.BoolVar(&opts.ShowDiff, "diff", false, "show a unified diff of every prompt that changed")
	cmd.RegisterFlagCompletionFunc("from", fixedCompletion(formats...))
	return cmd
}

func diffRun(opts *DiffOptions) error {
	p, err := opts.F.Paths()
	if err != nil {
		return err
	}
	var from dialect.Dialect
	if opts.From != "auto" {
		from, _ = opts.F.Registry().Lookup(opts.From)
	}
	set, err := opts.F.LoadAgents(resolver.AllLayers)
	if err != nil {
		return err
	}
	var originals []importer.Original
	if opts.Source == "" {
		recordPath := filepath.Join(p.ProjectDir, importer.RecordFile)
		record, err := importer.ReadRecord(recordPath)
		if err != nil {
			return err
		}
		if len(record.Originals) == 0 {
			return fmt.Errorf("no import is recorded in %s to compare with; import agents first (bn config agents import DIR), or name the originals: --source DIR",
				displayPath(p.RepoRoot, recordPath))
		}
		originals = record.Originals
	}
	// bn's side is what export writes: the built-in and project layers.
	committed, _ := opts.F.Agents(resolver.Committed)
	render := func(d dialect.Dialect, agent string) ([]byte, string, error) {
		if committed == nil {
			return nil, "", fmt.Errorf("the definitions do not load (bn config agents validate says why)")
		}
		a, err := committed.Lookup(agent)
		if err != nil {
			return nil, "", err
		}
		content, id, _, err := export.One(committed, a, d, "", export.Command(d.Info().Name, "", "", false))
		return content, id, err
	}
	report, err := importer.Fidelity(importer.FidelityOptions{Source: opts.Source, Originals: originals, Target: opts.Target, Root: p.RepoRoot,
		Cwd: opts.F.Cwd, From: from, Registry: opts.F.Registry(), Catalog: set.Catalog(), Diff: opts.ShowDiff, Render: render,
		Display: func(s string) string { return displayPath(p.RepoRoot, s) }})
	if err != nil {
		return err
	}
	report.FailBelow = opts.FailBelow
	// Nothing compared proves nothing: a threshold above 0 fails.
	report.Passed = report.Overall >= opts.FailBelow && (report.Agents > 0 || opts.FailBelow == 0)
	if err := printFidelity(opts, report); err != nil {
		return err
	}
	if !report.Passed {
		return exitError{1}
	}
	return nil
}

func printFidelity(opts *DiffOptions, r importer.FidelityReport) error {
	if !opts.F.Human {
		return writeJSON(opts.F.IO.Out, r)
	}
	w := opts.F.IO.Out
	fmt.Fprintln(w, "Agent Fidelity Report")
	fmt.Fprintln(w, "=====================")
	// A file is named by its base name, unless another compared file has
	// the same one (an agent's originals for two tools): then by its path.
	bases := map[string]int{}
	for _, f := range r.Files {
		bases[filepath.Base(f.Source)]++
	}
	label := func(f importer.FileFidelity) string {
		if bases[filepath.Base(f.Source)] > 1 {
			return f.Source
		}
		return filepath.Base(f.Source)
	}
	width := 0
	for _, f := range r.Files {
		width = max(width, len(label(f)))
	}
	for _, f := range r.Files {
		fmt.Fprintf(w, "%-*s : %5.1f%% match (%s)\n", width, label(f), f.Fidelity, f.Status)
		if f.Note != "" {
			fmt.Fprintf(w, "%*s   %s\n", width, "", f.Note)
		}
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
	fmt.Fprintf(w, "Overall fidelity : %.1f%% (%s)\n", r.Overall, plural(r.Agents, "agent"))
	switch {
	case !r.Passed && r.Agents == 0:
		fmt.Fprintf(w, "no agent compared: --fail-below %.1f%% needs at least one; fix the originals skipped above, or name them: --source DIR\n", r.FailBelow)
	case !r.Passed:
		fmt.Fprintf(w, "below --fail-below %.1f%%\n", r.FailBelow)
	}
	return nil
}
