package main

import (
	"path/filepath"

	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/spf13/cobra"
)

type HostInitOptions struct {
	F                  *Factory
	WriteCopilotAgents bool
	WriteMCPCopilot    bool
	Check              bool
	Force              bool
}

func NewCmdHostInit(f *Factory, runF func(*HostInitOptions) error) *cobra.Command {
	opts := &HostInitOptions{F: f}
	cmd := &cobra.Command{
		Use:   "host-init",
		Short: "Write this user's Copilot agent files and MCP config",
		Long: "Write files for this user's Copilot CLI, in $COPILOT_HOME (default ~/.copilot). Agents are\n" +
			"resolved from the built-in and system layers.",
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return hostInitRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.WriteCopilotAgents, "write-copilot-agents", false, "write agents/binnacle-{do,prd,buddy,ask}.md")
	fl.BoolVar(&opts.WriteMCPCopilot, "write-mcp-copilot", false, "add the binnacle server to mcp-config.json")
	fl.BoolVar(&opts.Check, "check", false, "write nothing; exit 1 if any file is out of date")
	fl.BoolVar(&opts.Force, "force", false, "overwrite agent files bn did not generate")
	return cmd
}

// copilotHome is $COPILOT_HOME, else ~/.copilot.
func (f *Factory) copilotHome() string {
	if h := f.Getenv("COPILOT_HOME"); h != "" {
		return h
	}
	return filepath.Join(f.Getenv("HOME"), ".copilot")
}

func hostInitRun(opts *HostInitOptions) error {
	home := opts.F.copilotHome()
	g := &generated{root: home, check: opts.Check}
	if opts.WriteCopilotAgents {
		if err := g.agentFiles(opts.F, resolver.User, filepath.Join(home, "agents"), ".md", regenerateCopilotAgents, opts.Force); err != nil {
			return err
		}
	}
	if opts.WriteMCPCopilot {
		c, _ := emit.LookupMCPConfig("mcp-copilot")
		if err := g.mcpConfig(filepath.Join(home, "mcp-config.json"), c, 0o600); err != nil {
			return err
		}
	}
	return g.report(opts.F, map[string]any{"copilot_home": home})
}
