package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/spf13/cobra"
)

type ExportOptions struct {
	F         *Factory
	Targets   []string
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
			targets, err := expandTargets(opts.Targets)
			if err != nil {
				return err
			}
			opts.Targets = targets
			if opts.Out != "" && len(targets) > 1 {
				return usagef("--out takes one --target; each tool has its own directory")
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
	fl.StringSliceVar(&opts.Targets, "target", nil, "`TARGET` tool: "+strings.Join(emit.TargetNames(), ", ")+", or all (repeatable, or comma-separated)")
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

// expandTargets checks --target values; "all" means every target.
func expandTargets(values []string) ([]string, error) {
	var out []string
	for _, v := range values {
		names := []string{v}
		if v == "all" {
			names = emit.TargetNames()
		} else if _, ok := emit.LookupTarget(v); !ok {
			return nil, usagef("--target %q: use one of %s, or all", v, strings.Join(emit.TargetNames(), ", "))
		}
		for _, n := range names {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out, nil
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
	names := opts.Agents
	if len(names) == 0 {
		names = set.Names()
	}
	// Resolve every agent and read its prompt once, for all targets.
	defs := make([]agents.Definition, 0, len(names))
	var problems []string
	for _, name := range names {
		a, err := set.Lookup(name)
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
		defs = append(defs, def)
	}
	if len(problems) > 0 {
		return fmt.Errorf("nothing exported:\n%s", strings.Join(problems, "\n"))
	}
	// Plan every target before writing anything, so a refusal in one
	// leaves all of them untouched.
	var outs []exportOutput
	var plans []emit.Plan
	for _, name := range opts.Targets {
		target, _ := emit.LookupTarget(name)
		out, plan, err := planExport(opts, p.RepoRoot, target, defs)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		outs, plans = append(outs, out), append(plans, plan)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%s", strings.Join(problems, "\n"))
	}
	outOfDate := 0
	for i, plan := range plans {
		if !opts.Check && !opts.DryRun {
			if err := plan.Apply(); err != nil {
				return err
			}
			outs[i].Written = true
		}
		outOfDate += outs[i].OutOfDate
	}
	if err := printExport(opts, outs); err != nil {
		return err
	}
	if opts.Check && outOfDate > 0 {
		return exitError{1}
	}
	return nil
}

// planExport renders the agents for one target and plans the writes.
func planExport(opts *ExportOptions, root string, target emit.Target, defs []agents.Definition) (exportOutput, emit.Plan, error) {
	dir := opts.Out
	if dir == "" {
		dir = filepath.Join(root, filepath.FromSlash(target.Dir))
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(opts.F.Cwd, dir)
	}
	out := exportOutput{Target: target.Name, Dir: displayPath(root, dir), Files: []emit.PlannedFile{}, Losses: []agentLoss{}}
	regenerate := "bn config agents export --target " + target.Name
	var wants []emit.Want
	var problems []string
	for _, def := range defs {
		id := opts.Prefix + def.Name
		if err := target.CheckID(id); err != nil {
			problems = append(problems, fmt.Sprintf("agent %q: %v", def.Name, err))
			continue
		}
		content, losses, err := target.Render(id, def, regenerate)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		for _, l := range losses {
			out.Losses = append(out.Losses, agentLoss{Agent: def.Name, Loss: l})
		}
		wants = append(wants, emit.Want{Path: filepath.Join(dir, id+target.Ext), Agent: def.Name, Content: content})
	}
	if len(problems) > 0 {
		return out, emit.Plan{}, fmt.Errorf("nothing exported to %s:\n%s", target.Name, strings.Join(problems, "\n"))
	}
	plan, err := emit.PlanFiles(dir, target.Ext, regenerate, wants, opts.Force, opts.Prune)
	if err != nil {
		return out, emit.Plan{}, err
	}
	out.OutOfDate = plan.OutOfDate()
	for _, f := range plan.Files {
		f.Path = displayPath(root, f.Path)
		out.Files = append(out.Files, f)
	}
	return out, plan, nil
}

// printExport prints one target's report as before, or several as
// {"exports": [...]}.
func printExport(opts *ExportOptions, outs []exportOutput) error {
	if !opts.F.Human {
		if len(outs) == 1 {
			return writeJSON(opts.F.IO.Out, outs[0])
		}
		return writeJSON(opts.F.IO.Out, map[string][]exportOutput{"exports": outs})
	}
	for _, out := range outs {
		for _, f := range out.Files {
			fmt.Fprintf(opts.F.IO.Out, "%-9s %s\n", f.Action, f.Path)
		}
		switch {
		case opts.Check && out.OutOfDate > 0:
			fmt.Fprintf(opts.F.IO.Out, "%d file(s) out of date; run bn config agents export --target %s\n", out.OutOfDate, out.Target)
		case opts.Check:
			fmt.Fprintf(opts.F.IO.Out, "%s: up to date\n", out.Target)
		case opts.DryRun:
			fmt.Fprintf(opts.F.IO.Out, "%s: dry run, nothing written\n", out.Target)
		}
		prefix := ""
		if len(outs) > 1 {
			prefix = out.Target + ": "
		}
		for _, l := range out.Losses {
			fmt.Fprintf(opts.F.IO.ErrOut, "%s%s: %s: %s\n", prefix, l.Agent, l.Field, l.Detail)
		}
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
