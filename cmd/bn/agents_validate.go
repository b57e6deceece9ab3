package main

import (
	"fmt"
	"slices"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/spf13/cobra"
)

type ValidateOptions struct {
	F      *Factory
	Strict bool
}

func NewCmdValidate(f *Factory, runF func(*ValidateOptions) error) *cobra.Command {
	opts := &ValidateOptions{F: f}
	cmd := &cobra.Command{
		Use:   "validate",
		Short: "Check every layer file and prompt; exit 1 on any error",
		Example: `  bn config agents validate -H
  bn config agents validate --strict    # warnings fail too (CI)`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return validateRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Strict, "strict", false, "treat warnings as errors")
	return cmd
}

type diagJSON struct {
	Severity string `json:"severity"`
	File     string `json:"file"`
	Line     int32  `json:"line,omitempty"`
	Column   int32  `json:"column,omitempty"`
	Agent    string `json:"agent,omitempty"`
	Field    string `json:"field,omitempty"`
	Message  string `json:"message"`
	Hint     string `json:"hint,omitempty"`
}

type layerJSON struct {
	Name string `json:"name"`
	Dir  string `json:"dir"`
}

type validateOutput struct {
	Valid       bool        `json:"valid"`
	Errors      int         `json:"errors"`
	Warnings    int         `json:"warnings"`
	Agents      int         `json:"agents"`
	Layers      []layerJSON `json:"layers"`
	Diagnostics []diagJSON  `json:"diagnostics"`
}

func validateRun(opts *ValidateOptions) error {
	set, err := opts.F.LoadAgents(resolver.AllLayers)
	if err != nil {
		return err
	}
	diags := slices.Concat(set.Diagnostics(), set.CheckPrompts(), set.CheckModels())
	out := validateOutput{Agents: len(set.Names()), Layers: []layerJSON{}, Diagnostics: []diagJSON{}}
	for _, l := range set.Layers {
		dir := l.Dir
		if l.Name == resolver.Embedded {
			dir = "embedded"
		}
		out.Layers = append(out.Layers, layerJSON{Name: string(l.Name), Dir: dir})
	}
	for _, d := range diags {
		if d.Severity == agents.Error {
			out.Errors++
		} else {
			out.Warnings++
		}
		out.Diagnostics = append(out.Diagnostics, diagJSON{Severity: d.Severity.String(), File: d.Pos.File, Line: d.Pos.Line,
			Column: d.Pos.Col, Agent: d.Agent, Field: d.Field, Message: d.Message, Hint: d.Hint})
	}
	out.Valid = out.Errors == 0 && (!opts.Strict || out.Warnings == 0)
	if opts.F.Human {
		for _, d := range diags {
			fmt.Fprintf(opts.F.IO.Out, "%s: %s\n", d.Severity, d.Error())
		}
		fmt.Fprintf(opts.F.IO.Out, "%s, %s, %s\n", plural(out.Agents, "agent"), plural(out.Errors, "error"), plural(out.Warnings, "warning"))
	} else if err := writeJSON(opts.F.IO.Out, out); err != nil {
		return err
	}
	if !out.Valid {
		return exitError{1}
	}
	return nil
}

// plural writes a count and its noun: "1 warning", "2 warnings".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
