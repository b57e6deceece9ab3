package main

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/spf13/cobra"
)

type ExportOptions struct {
	F         *Factory
	Target    string
	Out       string
	Check     bool
	DryRun    bool
	Force     bool
	Prune     bool
	Prefix    string
	Agents    []string
	AllLayers bool
}

func NewCmdExport(f *Factory, runF func(*ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{F: f}
	cmd := &cobra.Command{
		Use:   "export --target TARGET",
		Short: "Write every resolved agent in another tool's format",
		Long: "Write each resolved agent as the target tool's agent file (" + strings.Join(emit.TargetNames(), ", ") + "),\n" +
			"and report every field the target cannot express. Files are written atomically, only when\n" +
			"they change, and carry a generated-by-bn marker: a file without it is never overwritten\n" +
			"without --force, and generated files no longer wanted are removed only with --prune.\n" +
			"Definitions come from the built-in and project layers, so private layers never reach\n" +
			"committed files; --all-layers includes the system and session layers.",
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			if _, ok := emit.LookupTarget(opts.Target); !ok {
				return usagef("--target %q: use one of %s", opts.Target, strings.Join(emit.TargetNames(), ", "))
			}
			if opts.Check && opts.DryRun {
				return usagef("--check and --dry-run cannot be used together")
			}
			if runF != nil {
				return runF(opts)
			}
			return exportRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.Target, "target", "", "`TARGET` tool: "+strings.Join(emit.TargetNames(), ", "))
	fl.StringVar(&opts.Out, "out", "", "write into `DIR` instead of the target's directory in the repo")
	fl.BoolVar(&opts.Check, "check", false, "write nothing; exit 1 if any file is out of date (for CI)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "write nothing; print what would change")
	fl.BoolVar(&opts.Force, "force", false, "overwrite files bn did not generate")
	fl.BoolVar(&opts.Prune, "prune", false, "remove generated files of agents that no longer exist")
	fl.StringVar(&opts.Prefix, "prefix", "", "prefix every agent id with `P` (for example bn-)")
	fl.StringArrayVar(&opts.Agents, "agent", nil, "export only agent `NAME` (repeatable)")
	fl.BoolVar(&opts.AllLayers, "all-layers", false, "include the system and session layers")
	cmd.MarkFlagRequired("target")
	return cmd
}

type agentLoss struct {
	Agent string `json:"agent"`
	emit.Loss
}

type exportOutput struct {
	Target    string             `json:"target"`
	Dir       string             `json:"dir"`
	Written   bool               `json:"written"`
	OutOfDate int                `json:"out_of_date"`
	Files     []emit.PlannedFile `json:"files"`
	Losses    []agentLoss        `json:"losses"`
}

func exportRun(opts *ExportOptions) error {
	target, _ := emit.LookupTarget(opts.Target)
	p, err := opts.F.Paths()
	if err != nil {
		return err
	}
	scope := resolver.Committed
	if opts.AllLayers {
		scope = resolver.AllLayers
	}
	set, err := opts.F.Agents(scope)
	if err != nil {
		return err
	}
	dir := opts.Out
	if dir == "" {
		dir = filepath.Join(p.RepoRoot, filepath.FromSlash(target.Dir))
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(opts.F.Cwd, dir)
	}
	names := opts.Agents
	if len(names) == 0 {
		names = set.Names()
	}
	out := exportOutput{Target: target.Name, Dir: displayPath(p.RepoRoot, dir), Files: []emit.PlannedFile{}, Losses: []agentLoss{}}
	regenerate := "bn config agents export --target " + target.Name
	var wants []emit.Want
	var problems []string
	for _, name := range names {
		a, err := set.Lookup(name)
		if err == nil {
			err = target.CheckID(opts.Prefix + name)
		}
		var prompt string
		if err == nil {
			prompt, err = a.Prompt()
		}
		if err != nil {
			problems = append(problems, fmt.Sprintf("agent %q: %v", name, err))
			continue
		}
		def := a.Definition
		def.Prompt = prompt
		content, losses, err := target.Render(opts.Prefix+name, def, regenerate)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		for _, l := range losses {
			out.Losses = append(out.Losses, agentLoss{Agent: name, Loss: l})
		}
		wants = append(wants, emit.Want{Path: filepath.Join(dir, opts.Prefix+name+target.Ext), Agent: name, Content: content})
	}
	if len(problems) > 0 {
		return fmt.Errorf("nothing exported to %s:\n%s", target.Name, strings.Join(problems, "\n"))
	}
	plan, err := emit.PlanFiles(dir, target.Ext, regenerate, wants, opts.Force, opts.Prune)
	if err != nil {
		return err
	}
	out.OutOfDate = plan.OutOfDate()
	if !opts.Check && !opts.DryRun {
		if err := plan.Apply(); err != nil {
			return err
		}
		out.Written = true
	}
	for _, f := range plan.Files {
		f.Path = displayPath(p.RepoRoot, f.Path)
		out.Files = append(out.Files, f)
	}
	if err := printExport(opts, out); err != nil {
		return err
	}
	if opts.Check && out.OutOfDate > 0 {
		return exitError{1}
	}
	return nil
}

func printExport(opts *ExportOptions, out exportOutput) error {
	if !opts.F.Human {
		return writeJSON(opts.F.IO.Out, out)
	}
	for _, f := range out.Files {
		fmt.Fprintf(opts.F.IO.Out, "%-9s %s\n", f.Action, f.Path)
	}
	switch {
	case opts.Check && out.OutOfDate > 0:
		fmt.Fprintf(opts.F.IO.Out, "%d file(s) out of date; run bn config agents export --target %s\n", out.OutOfDate, out.Target)
	case opts.Check:
		fmt.Fprintln(opts.F.IO.Out, "up to date")
	case opts.DryRun:
		fmt.Fprintln(opts.F.IO.Out, "dry run: nothing written")
	}
	for _, l := range out.Losses {
		fmt.Fprintf(opts.F.IO.ErrOut, "%s: %s: %s\n", l.Agent, l.Field, l.Detail)
	}
	return nil
}

// displayPath shows paths inside the repo relative to it.
func displayPath(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return path
}
