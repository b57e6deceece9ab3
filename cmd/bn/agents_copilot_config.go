package main

import (
	"github.com/binnacle-dev/bn/dialect"
	"github.com/spf13/cobra"
)

type CopilotConfigOptions struct {
	F    *Factory
	Name string
}

func NewCmdCopilotConfig(f *Factory, runF func(*CopilotConfigOptions) error) *cobra.Command {
	opts := &CopilotConfigOptions{F: f}
	return &cobra.Command{
		Use:   "copilot-config NAME",
		Short: "Print the Copilot runtime settings (~/.copilot/config.json) for an agent",
		Example: `  bn config agents copilot-config worker
  bn config agents copilot-config do -H`,
		Args: exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if runF != nil {
				return runF(opts)
			}
			return copilotConfigRun(opts)
		},
	}
}

func copilotConfigRun(opts *CopilotConfigOptions) error {
	a, set, err := opts.F.agentInSet(opts.Name)
	if err != nil {
		return err
	}
	// Copilot reads the model as it spells it; one it cannot run is left
	// out (it runs its default), and the note says why.
	model, notes := dialect.CopilotModel(a.Definition, set.Catalog())
	printNotes(opts.F, notes)
	// The same JSON in both modes: it is a config file's content, so
	// settings the agent leaves unset are left out for Copilot's defaults.
	return writeJSON(opts.F.IO.Out, struct {
		Staff           bool   `json:"staff"`
		Model           string `json:"model,omitempty"`
		ReasoningEffort string `json:"reasoning_effort,omitempty"`
		ShowReasoning   bool   `json:"show_reasoning"`
		RenderMarkdown  bool   `json:"render_markdown"`
	}{true, model, a.ReasoningEffort, a.ShowReasoning, a.RenderMarkdown})
}
