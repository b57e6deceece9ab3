package main

import (
	"fmt"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/views"
	"github.com/spf13/cobra"
)

type CheckOptions struct {
	F    *Factory
	Name string
	Tool string
}

func NewCmdCheck(f *Factory, runF func(*CheckOptions) error) *cobra.Command {
	opts := &CheckOptions{F: f}
	return &cobra.Command{
		Use:   "check NAME TOOL",
		Short: "Say whether an agent may use a tool, and which rule decides",
		Long: "Say whether agent NAME may use TOOL, for example \"shell(git push)\", \"edit\" or \"binnacle/task_create\".\n" +
			"Deny rules win over allow rules; a tool no rule allows is not allowed, unless the agent is\n" +
			"unrestricted (every tool). Exit status: 0 when allowed, 1 when not.",
		Example: "  bn config agents check ask \"shell(git push origin main)\" -H\n" +
			"  bn config agents check worker edit && echo may edit",
		Args:              exactArgs("NAME", "TOOL"),
		ValidArgsFunction: completeAgents(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name, opts.Tool = args[0], args[1]
			if runF != nil {
				return runF(opts)
			}
			return checkRun(opts)
		},
	}
}

func checkRun(opts *CheckOptions) error {
	req, err := agents.ParseToolPattern(opts.Tool)
	if err != nil {
		return usagef("TOOL: %v", err)
	}
	a, err := opts.F.Agent(opts.Name)
	if err != nil {
		return err
	}
	out := views.CheckData(a, opts.Tool, req)
	if opts.F.Human {
		fmt.Fprintf(opts.F.IO.Out, "%s: %s %s — %s\n", out.Decision, a.Name, opts.Tool, out.Reason)
	} else if err := writeJSON(opts.F.IO.Out, out); err != nil {
		return err
	}
	if !out.Allowed {
		return exitError{1}
	}
	return nil
}
