package main

import (
	"fmt"
	"os/exec"
	"runtime"
	"strings"

	"github.com/binnacle-dev/bn/launch"
	"github.com/spf13/cobra"
	"mvdan.cc/sh/v3/syntax"
)

type LaunchOptions struct {
	F      *Factory
	Name   string
	Task   string
	DryRun bool
	Host   bool
}

func NewCmdLaunch(f *Factory, runF func(*LaunchOptions) error) *cobra.Command {
	opts := &LaunchOptions{F: f}
	cmd := &cobra.Command{
		Use:   "launch NAME [TASK…]",
		Short: "Start a Copilot CLI session as an agent",
		Long: "Start the Copilot CLI (copilot, or $BN_COPILOT) as agent NAME: its prompt as the first message,\n" +
			"TASK filling the {description} placeholder (or appended as \"Task: …\"), its model as --model,\n" +
			"and flags that hold the CLI to its tools: --deny-tool for every deny rule, --allow-tool for\n" +
			"each allow rule the CLI can approve without approving more (it asks about the rest), and\n" +
			"--excluded-tools for the CLI's own tools the agent may not use. Notes on stderr name the\n" +
			"rules a flag cannot carry. An agent whose execution is container is refused unless --host.\n" +
			"--dry-run prints the command instead (JSON {\"program\", \"args\", \"notes\"}, or with -H a line\n" +
			"quoted for bash), and needs no Copilot CLI installed. Flags may stand anywhere; a task that\n" +
			"holds words starting with '-' goes after --.",
		Example: "  bn config agents launch do \"fix the flaky login test\"\n" +
			"  bn config agents launch ask --dry-run -H\n" +
			"  bn config agents launch do -- \"rename --verbose to --debug\"\n" +
			"  BN_COPILOT=~/bin/copilot bn config agents launch --host worker",
		ValidArgsFunction: completeAgents(f),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("launch takes an agent NAME and an optional TASK; see bn config agents launch --help")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name, opts.Task = args[0], strings.Join(args[1:], " ")
			if runF != nil {
				return runF(opts)
			}
			return launchRun(opts)
		},
	}
	// Flags stand anywhere, as in every command: `launch ask --dry-run -H`
	// is a dry run. A task with words that start with '-' goes after --.
	cmd.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return usagef("%v; flags may stand anywhere, so a task holding words that start with '-' goes after --: bn config agents launch NAME -- TASK", err)
	})
	cmd.Flags().BoolVar(&opts.DryRun, "dry-run", false, "print the command instead of running it")
	cmd.Flags().BoolVar(&opts.Host, "host", false, "run an agent whose execution is container on this machine anyway")
	return cmd
}

func launchRun(opts *LaunchOptions) error {
	f := opts.F
	program := f.Getenv("BN_COPILOT")
	if program == "" {
		program = "copilot"
	}
	path, err := exec.LookPath(program)
	if err != nil && !opts.DryRun {
		return fmt.Errorf("cannot find the Copilot CLI (%s); install it (npm install -g @github/copilot) or set BN_COPILOT", program)
	}
	a, set, err := f.agentInSet(opts.Name)
	if err != nil {
		return err
	}
	prompt, err := a.Prompt()
	if err != nil {
		return err
	}
	plan, err := launch.Copilot(launch.Request{Def: a.Definition, Prompt: prompt, Catalog: set.Catalog(),
		Task: opts.Task, Host: opts.Host, Program: program})
	if err != nil {
		return err
	}
	if opts.DryRun {
		if !f.Human {
			return writeJSON(f.IO.Out, plan)
		}
		line, err := shellLine(append([]string{plan.Program}, plan.Args...))
		if err != nil {
			return err
		}
		printNotes(f, plan.Notes)
		_, err = fmt.Fprintln(f.IO.Out, line)
		return err
	}
	if err := plan.Fits(runtime.GOOS); err != nil {
		return err
	}
	printNotes(f, plan.Notes)
	return handOff(f, path, append([]string{program}, plan.Args...))
}

func printNotes(f *Factory, notes []string) {
	for _, n := range notes {
		fmt.Fprintln(f.IO.ErrOut, "note: "+n)
	}
}

// shellLine quotes a command for bash (and zsh), one line whatever the
// prompt holds (launch.Copilot refuses the NUL byte no shell can quote).
func shellLine(words []string) (string, error) {
	quoted := make([]string, len(words))
	for i, w := range words {
		q, err := syntax.Quote(w, syntax.LangBash)
		if err != nil {
			return "", err
		}
		quoted[i] = q
	}
	return strings.Join(quoted, " "), nil
}
