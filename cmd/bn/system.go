package main

import (
	"maps"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/scripts"
	"github.com/spf13/cobra"
)

// NewCmdSystem groups machine-level commands.
func NewCmdSystem(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "system", Short: "Machine-level set-up and generated helpers"}
	cmd.AddCommand(NewCmdSystemEmit(f, nil), NewCmdHostInit(f, nil))
	return cmd
}

type SystemEmitOptions struct {
	F        *Factory
	Template string
}

// emitTemplates are what `bn system emit` prints.
func emitTemplates() map[string]func() []byte {
	t := map[string]func() []byte{"bn-agent": scripts.Launcher}
	for _, c := range emit.MCPConfigs {
		t[c.Name] = c.Document
	}
	return t
}

func NewCmdSystemEmit(f *Factory, runF func(*SystemEmitOptions) error) *cobra.Command {
	opts := &SystemEmitOptions{F: f}
	templates := emitTemplates()
	names := slices.Sorted(maps.Keys(templates))
	return &cobra.Command{
		Use:   "emit TEMPLATE",
		Short: "Print a generated helper: " + strings.Join(names, ", "),
		Example: `  bn system emit mcp-vscode
  mkdir -p ~/.local/bin && bn system emit bn-agent -H > ~/.local/bin/bn-agent && chmod +x ~/.local/bin/bn-agent`,
		Args: exactArgs("TEMPLATE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Template = args[0]
			if _, ok := templates[opts.Template]; !ok {
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
	return printContent(opts.F, string(emitTemplates()[opts.Template]()))
}
