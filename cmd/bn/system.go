package main

import (
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/scripts"
	"github.com/spf13/cobra"
)

// NewCmdSystem groups machine-level commands.
func NewCmdSystem(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "system", Short: "Machine-level set-up and generated helpers"}
	cmd.AddCommand(NewCmdSystemEmit(f, nil))
	return cmd
}

type SystemEmitOptions struct {
	F        *Factory
	Template string
}

// emitTemplates are what `bn system emit` prints.
var emitTemplates = map[string]func() []byte{
	"bn-agent": scripts.Launcher,
}

func NewCmdSystemEmit(f *Factory, runF func(*SystemEmitOptions) error) *cobra.Command {
	opts := &SystemEmitOptions{F: f}
	names := slices.Sorted(func(yield func(string) bool) {
		for k := range emitTemplates {
			if !yield(k) {
				return
			}
		}
	})
	return &cobra.Command{
		Use:   "emit TEMPLATE",
		Short: "Print a generated helper: " + strings.Join(names, ", "),
		Args:  exactArgs("TEMPLATE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Template = args[0]
			if _, ok := emitTemplates[opts.Template]; !ok {
				return usagef("unknown template %q; use one of %s", opts.Template, strings.Join(names, ", "))
			}
			if runF != nil {
				return runF(opts)
			}
			return systemEmitRun(opts)
		},
	}
}

func systemEmitRun(opts *SystemEmitOptions) error {
	return printContent(opts.F, string(emitTemplates[opts.Template]()))
}
