package main

import (
	"github.com/spf13/cobra"
)

// NewCmdMCP groups the Model Context Protocol commands.
func NewCmdMCP(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "mcp", Short: "Serve agent definitions over the Model Context Protocol"}
	cmd.AddCommand(NewCmdMCPServe(f, nil))
	return cmd
}

type MCPServeOptions struct {
	F   *Factory
	Cwd string
}

// mcpBinary is the MCP server, a binary of its own so that the MCP SDK's
// start-up cost stays off every other bn command.
const mcpBinary = "bn-mcp"

func NewCmdMCPServe(f *Factory, runF func(*MCPServeOptions) error) *cobra.Command {
	opts := &MCPServeOptions{F: f}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run an MCP server on stdin/stdout with list_agents, show_agent, emit_prompt and check_tool",
		Long: "Run a Model Context Protocol server over stdio (the bn-mcp binary installed beside bn).\n" +
			"It keeps the layers loaded and re-reads a layer only when one of its files changed (checked\n" +
			"on every call), so edits show up without a restart; a layer that fails to load fails the\n" +
			"call with the same error the command line gives. When the client closes its input, every\n" +
			"request already received is answered before the server exits.",
		Example: "  bn mcp serve --cwd \"$PWD\"\n  bn system emit mcp-claude -H > .mcp.json",
		Args:    exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.Cwd != "" {
				if f.Repo != "" {
					return usagef("--cwd and -C/--repo name the same thing; give one")
				}
				f.Repo = opts.Cwd
			}
			if runF != nil {
				return runF(opts)
			}
			return mcpServeRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Cwd, "cwd", "", "use `DIR` as the repository root (as -C does; binnacle's spelling)")
	return cmd
}

// mcpServeRun replaces this process with the server, for the repository
// bn resolved.
func mcpServeRun(opts *MCPServeOptions) error {
	p, err := opts.F.Paths()
	if err != nil {
		return err
	}
	bin, err := findBeside(mcpBinary)
	if err != nil {
		return err
	}
	return handOff(opts.F, bin, []string{mcpBinary, "--repo", p.RepoRoot})
}
