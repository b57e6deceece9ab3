package main

import (
	"fmt"
	"strings"

	"github.com/binnacle-dev/bn/resolver"
	"github.com/binnacle-dev/bn/views"
	"github.com/spf13/cobra"
)

type ListOptions struct {
	F   *Factory
	Tag string
	All bool
}

func NewCmdList(f *Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{F: f}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the resolved agents",
		Long: "List every agent the layers define, in definition order. An agent that fails to resolve\n" +
			"is listed under errors with its located problem, and the exit status is then 1.",
		Example: "  bn config agents list -H\n  bn config agents list --tag read-only\n  bn config agents list --all --json | jq -r '.agents[].name'",
		Args:    exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return listRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Tag, "tag", "", "only agents with this `TAG`")
	cmd.Flags().BoolVar(&opts.All, "all", false, "include hidden agents")
	return cmd
}

func listRun(opts *ListOptions) error {
	set, err := opts.F.Agents(resolver.AllLayers)
	if err != nil {
		return err
	}
	w := opts.F.IO.Out
	if !opts.F.Human {
		failed, err := views.WriteListJSON(w, set, opts.Tag, opts.All)
		if err != nil {
			return err
		}
		if len(failed) > 0 {
			return exitError{1}
		}
		return nil
	}
	out := views.ListData(set, opts.Tag, opts.All)
	width := 8
	for _, e := range out.Agents {
		width = max(width, len(e.Name))
	}
	lines := []string{fmt.Sprintf("%d agent definitions:\n", out.Count)}
	for _, e := range out.Agents {
		lines = append(lines,
			fmt.Sprintf("  %-*s [%s, %s]  %s", width, e.Name, e.Execution, e.Lifecycle, e.Description),
			fmt.Sprintf("  %s Source: %s\n", strings.Repeat(" ", width), views.HumanSource(e.Source, e.ToolsMerged)))
	}
	fmt.Fprintln(w, strings.Join(lines, "\n"))
	for _, e := range out.Errors {
		fmt.Fprintf(w, "  %-*s [broken]  %s\n\n", width, e.Agent, strings.ReplaceAll(e.Error, "\n", "\n           "))
	}
	if len(out.Errors) > 0 {
		fmt.Fprintf(opts.F.IO.ErrOut, "Error: %d agent(s) failed to resolve; bn config agents validate lists every problem\n", len(out.Errors))
		return exitError{1}
	}
	return nil
}
