package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/resolver"
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
		Args:  exactArgs(),
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

type listEntry struct {
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Execution   string   `json:"execution"`
	Lifecycle   string   `json:"lifecycle"`
	Source      string   `json:"source"`
	Layer       string   `json:"layer"`
	Tags        []string `json:"tags"`
	Hidden      bool     `json:"hidden,omitempty"`
}

type listError struct {
	Agent string `json:"agent"`
	Error string `json:"error"`
}

type listOutput struct {
	Agents []listEntry `json:"agents"`
	Count  int         `json:"count"`
	Errors []listError `json:"errors,omitempty"`
}

func listRun(opts *ListOptions) error {
	set, err := opts.F.Agents(resolver.AllLayers)
	if err != nil {
		return err
	}
	out := listData(set, opts.Tag, opts.All)
	w := opts.F.IO.Out
	if !opts.F.Human {
		return writeJSON(w, out)
	}
	width := 8
	for _, e := range out.Agents {
		width = max(width, len(e.Name))
	}
	lines := []string{fmt.Sprintf("%d agent definitions:\n", out.Count)}
	for _, e := range out.Agents {
		lines = append(lines,
			fmt.Sprintf("  %-*s [%s, %s]  %s", width, e.Name, e.Execution, e.Lifecycle, e.Description),
			fmt.Sprintf("  %s Source: %s\n", strings.Repeat(" ", width), e.Source))
	}
	fmt.Fprintln(w, strings.Join(lines, "\n"))
	for _, e := range out.Errors {
		fmt.Fprintf(opts.F.IO.ErrOut, "Error: %s\n", e.Error)
	}
	return nil
}

// listData is what list reports: agents in definition order, filtered.
func listData(set *resolver.Set, tag string, all bool) listOutput {
	out := listOutput{Agents: []listEntry{}}
	for _, name := range set.Names() {
		a, _ := set.Agent(name)
		if err := a.Err(); err != nil {
			out.Errors = append(out.Errors, listError{Agent: name, Error: err.Error()})
			continue
		}
		if (a.Hidden && !all) || (tag != "" && !slices.Contains(a.Tags, tag)) {
			continue
		}
		out.Agents = append(out.Agents, listEntry{
			Name: a.Name, Description: a.Description, Execution: string(a.Execution), Lifecycle: string(a.Lifecycle),
			Source: a.Source, Layer: string(a.Layer), Tags: nonNil(a.Tags), Hidden: a.Hidden,
		})
	}
	out.Count = len(out.Agents)
	return out
}

func nonNil(ss []string) []string {
	if ss == nil {
		return []string{}
	}
	return ss
}
