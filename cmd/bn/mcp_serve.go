package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
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

func NewCmdMCPServe(f *Factory, runF func(*MCPServeOptions) error) *cobra.Command {
	opts := &MCPServeOptions{F: f}
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run an MCP server on stdin/stdout with list_agents, show_agent, emit_prompt and check_tool",
		Long: "Run a Model Context Protocol server over stdio. Every call reads the layers afresh, so\n" +
			"edits to the definitions show up without a restart; a layer that fails to load fails\n" +
			"the call with the same error the command line gives.",
		Args: exactArgs(),
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
			return mcpServeRun(cmd.Context(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Cwd, "cwd", "", "use `DIR` as the repository root (as -C does; binnacle's spelling)")
	return cmd
}

type listAgentsIn struct {
	Tag string `json:"tag,omitempty" jsonschema:"only agents with this tag"`
	All bool   `json:"all,omitempty" jsonschema:"include hidden agents"`
}

type agentIn struct {
	Name    string `json:"name" jsonschema:"the agent's name"`
	Explain bool   `json:"explain,omitempty" jsonschema:"say which layer and file set each field"`
}

type emitIn struct {
	Name        string            `json:"name" jsonschema:"the agent's name"`
	Description string            `json:"description,omitempty" jsonschema:"fills the {description} placeholder (the task)"`
	Set         map[string]string `json:"set,omitempty" jsonschema:"values for other {key} placeholders"`
}

type checkIn struct {
	Name string `json:"name" jsonschema:"the agent's name"`
	Tool string `json:"tool" jsonschema:"the tool use, for example shell(git push) or binnacle/task_create"`
}

// newMCPServer builds the server; load returns the current definitions.
func newMCPServer(version string, load func() (*resolver.Set, error)) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "bn", Version: version}, nil)
	lookup := func(name string) (*resolver.Agent, error) {
		set, err := load()
		if err != nil {
			return nil, err
		}
		return set.Lookup(name)
	}
	mcp.AddTool(s, &mcp.Tool{Name: "list_agents", Description: "List the resolved agent definitions."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in listAgentsIn) (*mcp.CallToolResult, listOutput, error) {
			set, err := load()
			if err != nil {
				return nil, listOutput{}, err
			}
			return nil, listData(set, in.Tag, in.All), nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "show_agent", Description: "Show one resolved agent: tools, model settings, prompt preview, sources."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in agentIn) (*mcp.CallToolResult, showOutput, error) {
			a, err := lookup(in.Name)
			if err != nil {
				return nil, showOutput{}, err
			}
			prompt, err := a.Prompt()
			if err != nil {
				return nil, showOutput{}, err
			}
			return nil, showData(a, prompt, in.Explain), nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "emit_prompt", Description: "Return an agent's resolved prompt, with its {placeholders} filled."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in emitIn) (*mcp.CallToolResult, emitOutput, error) {
			a, err := lookup(in.Name)
			if err != nil {
				return nil, emitOutput{}, err
			}
			prompt, err := a.Prompt()
			if err != nil {
				return nil, emitOutput{}, err
			}
			values := map[string]string{}
			for k, v := range in.Set {
				values[k] = v
			}
			if in.Description != "" {
				values["description"] = in.Description
			}
			return nil, emitData(a.Name, prompt, values), nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "check_tool", Description: "Say whether an agent may use a tool, and which rule decides (deny wins)."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in checkIn) (*mcp.CallToolResult, checkOutput, error) {
			req, err := agents.ParseToolPattern(in.Tool)
			if err != nil {
				return nil, checkOutput{}, fmt.Errorf("tool: %w", err)
			}
			a, err := lookup(in.Name)
			if err != nil {
				return nil, checkOutput{}, err
			}
			return nil, checkData(a, in.Tool, req), nil
		})
	return s
}

func mcpServeRun(ctx context.Context, opts *MCPServeOptions) error {
	p, err := opts.F.Paths()
	if err != nil {
		return err
	}
	load := func() (*resolver.Set, error) {
		set := resolver.Load(p.Layers(resolver.AllLayers))
		if err := set.Fatal(); err != nil {
			return nil, layerError{err}
		}
		return set, nil
	}
	err = newMCPServer(opts.F.Version, load).Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(opts.F.IO.In), Writer: nopWriteCloser{opts.F.IO.Out}})
	if errors.Is(err, io.EOF) || errors.Is(err, mcp.ErrConnectionClosed) {
		return nil // the client hung up: a normal end
	}
	return err
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
