package main

import (
	"fmt"
	"path/filepath"

	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/export"
	"github.com/binnacle-dev/bn/files"
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

var hostInitFlags = [][2]string{
	{"--write-copilot-agents", "write $COPILOT_HOME/agents/binnacle-{do,prd,buddy,ask}.md"},
	{"--write-mcp-copilot", "add the binnacle server to $COPILOT_HOME/mcp-config.json"},
}

func NewCmdHostInit(f *Factory, runF func(*HostInitOptions) error) *cobra.Command {
	opts := &HostInitOptions{F: f}
	cmd := &cobra.Command{
		Use:   "host-init",
		Short: "Write this user's Copilot agent files and MCP config",
		Long: "Write files for this user's Copilot CLI, in $COPILOT_HOME (default ~/.copilot). Agents are\n" +
			"resolved from the built-in and system layers.",
		Example: "  bn system host-init --write-copilot-agents --write-mcp-copilot -H\n  bn system host-init --write-copilot-agents --check",
		Args:    exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return hostInitRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.BoolVar(&opts.WriteCopilotAgents, "write-copilot-agents", false, hostInitFlags[0][1])
	fl.BoolVar(&opts.WriteMCPCopilot, "write-mcp-copilot", false, hostInitFlags[1][1])
	fl.BoolVar(&opts.Check, "check", false, "write nothing; exit 1 if any file is out of date")
	fl.BoolVar(&opts.Force, "force", false, "overwrite agent files bn did not generate")
	return cmd
}

// copilotHome is $COPILOT_HOME, else ~/.copilot.
func (f *Factory) copilotHome() (string, error) {
	if h := f.Getenv("COPILOT_HOME"); h != "" {
		return h, nil
	}
	home, err := f.homeDir()
	return filepath.Join(home, ".copilot"), err
}

func hostInitRun(opts *HostInitOptions) error {
	home, err := opts.F.copilotHome()
	if err != nil {
		return err
	}
	g := &generated{root: home, check: opts.Check}
	if opts.WriteCopilotAgents {
		out, err := files.Inside(home, "agents")
		if err != nil {
			return fmt.Errorf("not written: %w", err)
		}
		eopts := export.Options{Out: out, Ext: ".md", Regenerate: export.HostInitCommand, Force: opts.Force}
		if err := g.agentFiles(opts.F, resolver.User, eopts); err != nil {
			return err
		}
	}
	if opts.WriteMCPCopilot {
		c, _ := emit.LookupMCPConfig("mcp-copilot")
		if err := g.mcpConfig("mcp-config.json", c, 0o600); err != nil {
			return err
		}
	}
	return g.report(opts.F, map[string]any{"copilot_home": home}, hostInitFlags)
}
