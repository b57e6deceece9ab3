package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/export"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/spf13/cobra"
)

// NewCmdSession groups per-repository set-up.
func NewCmdSession(f *Factory) *cobra.Command {
	cmd := &cobra.Command{Use: "session", Short: "Per-repository set-up"}
	cmd.AddCommand(NewCmdSessionInit(f, nil))
	return cmd
}

type SessionInitOptions struct {
	F                   *Factory
	WriteCopilotPrompts bool
	WriteMCPVSCode      bool
	WriteMCPJSON        bool
	Check               bool
	Force               bool
}

var sessionFlags = [][2]string{
	{"--write-copilot-prompts", "write .github/agents/binnacle-{do,prd,buddy,ask}.agent.md"},
	{"--write-mcp-vscode", "add the binnacle server to .vscode/mcp.json"},
	{"--write-mcp-json", "add the binnacle server to .mcp.json (Claude Code, Copilot CLI)"},
}

func NewCmdSessionInit(f *Factory, runF func(*SessionInitOptions) error) *cobra.Command {
	opts := &SessionInitOptions{F: f}
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create the session layer and write the repository's generated files",
		Long: "Create this repository's session layer directory, and on request write files that are\n" +
			"committed with the repository. They are resolved from the built-in and project layers\n" +
			"only, so one user's private layers never leak into the repository. The Copilot agent files\n" +
			"are the ones `bn config agents export --target copilot` writes for the same agents.",
		Example: "  bn session init -H\n  bn session init --write-copilot-prompts --write-mcp-vscode -H\n" +
			"  bn session init --write-copilot-prompts --check    # in CI or a pre-commit hook",
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return sessionInitRun(opts)
		},
	}
	fl := cmd.Flags()
	for i, p := range []*bool{&opts.WriteCopilotPrompts, &opts.WriteMCPVSCode, &opts.WriteMCPJSON} {
		fl.BoolVar(p, sessionFlags[i][0][2:], false, sessionFlags[i][1])
	}
	fl.BoolVar(&opts.Check, "check", false, "write nothing; exit 1 if any file is out of date (for CI and pre-commit hooks)")
	fl.BoolVar(&opts.Force, "force", false, "overwrite agent files bn did not generate")
	return cmd
}

func sessionInitRun(opts *SessionInitOptions) error {
	p, err := opts.F.Paths()
	if err != nil {
		return err
	}
	if opts.WriteCopilotPrompts {
		// Refused before anything is made.
		if err := binnacleAgentsAsked(opts.F); err != nil {
			return err
		}
	}
	g := &generated{root: p.RepoRoot, check: opts.Check}
	if !opts.Check {
		unlock, err := opts.F.lock(p.RepoRoot)
		if err != nil {
			return err
		}
		defer unlock()
		if _, err := os.Stat(p.SessionDir); err != nil {
			if err := os.MkdirAll(p.SessionDir, 0o755); err != nil {
				return fmt.Errorf("cannot create the session layer directory: %w", err)
			}
			g.done = append(g.done, "created the session layer "+p.SessionDir)
		} else {
			g.done = append(g.done, "session layer "+p.SessionDir+" (exists)")
		}
	}
	if opts.WriteCopilotPrompts {
		if err := g.agentFiles(opts.F, resolver.Committed, export.Options{Root: p.RepoRoot, Force: opts.Force}); err != nil {
			return err
		}
	}
	if opts.WriteMCPVSCode {
		c, _ := emit.LookupMCPConfig("mcp-vscode")
		if err := g.mcpConfig(".vscode/mcp.json", c, 0o644); err != nil {
			return err
		}
	}
	if opts.WriteMCPJSON {
		c, _ := emit.LookupMCPConfig("mcp-claude")
		if err := g.mcpConfig(".mcp.json", c, 0o644); err != nil {
			return err
		}
	}
	return g.report(opts.F, map[string]any{"session_dir": p.SessionDir}, sessionFlags)
}

// binnacleAgentsAsked refuses to write binnacle's chat agents into a
// repository binnacle does not track, unless the config asks for them or
// changes them: their prompts run binnacle's commands.
func binnacleAgentsAsked(f *Factory) error {
	set, err := f.Agents(resolver.Committed)
	if err != nil {
		return err
	}
	var refused []string
	for _, n := range copilotChatAgents {
		if a, ok := set.Agent(n); ok && !set.Exported(a) {
			refused = append(refused, n)
		}
	}
	if len(refused) > 0 {
		why := "binnacle does not track this repository; run binnacle's `bn init` here first, or add export { built-in-agents #true } to .binnacle/agents/config.kdl"
		if !set.BuiltInsUnsaid() {
			why = "the config's export { built-in-agents #false } keeps them out; remove it, or leave out --write-copilot-prompts"
		}
		return fmt.Errorf("--write-copilot-prompts writes binnacle's agents %s, whose prompts run binnacle's commands, but %s",
			strings.Join(refused, ", "), why)
	}
	return nil
}
