package main

import (
	"fmt"
	"strings"

	"github.com/binnacle-dev/bn/termsafe"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// Run executes bn with args and returns the exit status: 0 on success, 1 on
// errors, 2 on usage errors.
func Run(f *Factory, args []string) int {
	root := cmdRootFor(f, args)
	human, formatErr := f.formatHuman()
	f.Human = human
	// -H and --json speak for every error, even one in parsing the flags
	// before them.
	for _, a := range args {
		if a == "--" {
			break
		}
		switch a {
		case "-H", "--human":
			f.Human = true
		case "--json":
			f.Human = false
		}
	}
	// What people read never drives their terminal: stdout while it is
	// for people (JSON holds no raw control character but C1, which it
	// may spell \u009b), stderr always.
	f.IO.Out = &termsafe.Writer{W: f.IO.Out, On: func() bool { return f.Human || f.OutTerminal }}
	f.IO.ErrOut = &termsafe.Writer{W: f.IO.ErrOut}
	if formatErr != nil {
		return f.reportError(formatErr)
	}
	root.SetArgs(args)
	root.SetIn(f.IO.In)
	root.SetOut(f.IO.Out)
	root.SetErr(f.IO.ErrOut)
	if err := root.Execute(); err != nil {
		if msg := err.Error(); strings.HasPrefix(msg, "unknown command") || strings.HasPrefix(msg, "unknown flag") || strings.HasPrefix(msg, "required flag") {
			err = usageError{err}
		}
		return f.reportError(err)
	}
	return 0
}

// NewCmdRoot builds the whole bn command tree.
func NewCmdRoot(f *Factory) *cobra.Command {
	root, agents := newCmdRoot(f)
	for _, c := range agentsCommands {
		agents.AddCommand(c.build(f))
	}
	strictGroups(root)
	return root
}

// cmdRootFor builds the tree Run needs for args. Building all of `bn config
// agents`' commands costs every bn start about a quarter of a millisecond
// (a tenth of bn --version), so only the one args name is built: cobra
// finds it among bare names first, as it will among the real commands.
// What reaches the group itself (its help, an unknown name) or fails to
// resolve (bn help, completion) gets them all.
func cmdRootFor(f *Factory, args []string) *cobra.Command {
	root, agents := newCmdRoot(f)
	bare := make([]*cobra.Command, len(agentsCommands))
	for i, c := range agentsCommands {
		bare[i] = &cobra.Command{Use: c.name}
	}
	agents.AddCommand(bare...)
	found, _, err := root.Find(args)
	agents.RemoveCommand(bare...)
	for i, c := range agentsCommands {
		if err != nil || found == agents || found == agents.Parent() || found == bare[i] {
			agents.AddCommand(c.build(f))
		}
	}
	strictGroups(root)
	return root
}

// agentsCommands are `bn config agents`' commands, by name.
var agentsCommands = []struct {
	name  string
	build func(*Factory) *cobra.Command
}{
	{"list", func(f *Factory) *cobra.Command { return NewCmdList(f, nil) }},
	{"show", func(f *Factory) *cobra.Command { return NewCmdShow(f, nil) }},
	{"emit", func(f *Factory) *cobra.Command { return NewCmdEmit(f, nil) }},
	{"launch", func(f *Factory) *cobra.Command { return NewCmdLaunch(f, nil) }},
	{"copilot-config", func(f *Factory) *cobra.Command { return NewCmdCopilotConfig(f, nil) }},
	{"validate", func(f *Factory) *cobra.Command { return NewCmdValidate(f, nil) }},
	{"check", func(f *Factory) *cobra.Command { return NewCmdCheck(f, nil) }},
	{"init", func(f *Factory) *cobra.Command { return NewCmdInit(f, nil) }},
	{"export", func(f *Factory) *cobra.Command { return NewCmdExport(f, nil) }},
	{"import", func(f *Factory) *cobra.Command { return NewCmdImport(f, nil) }},
	{"diff", func(f *Factory) *cobra.Command { return NewCmdDiff(f, nil) }},
	{"sources", func(f *Factory) *cobra.Command { return NewCmdSources(f, nil) }},
	{"fetch", func(f *Factory) *cobra.Command { return NewCmdFetch(f, nil) }},
	{"verify", func(f *Factory) *cobra.Command { return NewCmdVerify(f, nil) }},
	{"doctor", func(f *Factory) *cobra.Command { return NewCmdDoctor(f, nil) }},
}

// newCmdRoot builds the bn command tree without `bn config agents`'
// commands, and returns the root and that group.
func newCmdRoot(f *Factory) (root, agents *cobra.Command) {
	var human, jsonOut, version bool
	root = &cobra.Command{
		Use:   "bn",
		Short: "One source of truth for AI agent definitions",
		Long:  "bn resolves agent definitions from layers (built-in, system, session, project) and emits what every agent tool reads.",
		// bn prints its version itself: cobra's version flag runs a
		// text/template, which costs --version more than a millisecond.
		RunE: func(cmd *cobra.Command, args []string) error {
			if version {
				_, err := fmt.Fprintln(cmd.OutOrStdout(), versionLine(f.Version))
				return err
			}
			return cmd.Help()
		},
		SilenceErrors: true,
		SilenceUsage:  true,
		PersistentPreRunE: func(cmd *cobra.Command, args []string) error {
			if human && jsonOut {
				return usagef("-H/--human and --json cannot be used together")
			}
			if human || jsonOut {
				f.Human = human
			}
			return nil
		},
	}
	root.Flags().BoolVarP(&version, "version", "v", false, "version for bn")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		// An unknown flag gets the nearest of the command's own.
		if name, ok := strings.CutPrefix(err.Error(), "unknown flag: --"); ok {
			var names []string
			c.Flags().VisitAll(func(fl *pflag.Flag) { names = append(names, fl.Name) })
			if hint := suggest(name, names); hint != "" {
				return usagef("unknown flag: --%s%s; see %s --help", name, hint, c.CommandPath())
			}
		}
		return usageError{err}
	})
	root.SetHelpCommand(helpCommand(root))
	pf := root.PersistentFlags()
	pf.BoolVarP(&human, "human", "H", false, "print text for people (the default on a terminal)")
	pf.BoolVar(&jsonOut, "json", false, "print JSON (the default when piped, or when BN_FORMAT=json or an agent tool runs bn)")
	pf.StringVarP(&f.Repo, "repo", "C", "", "use `PATH` as the repository root (default: $BN_REPO, else the git root of the working directory)")

	config := &cobra.Command{Use: "config", Short: "Inspect and change bn configuration"}
	agents = &cobra.Command{
		Use:   "agents",
		Short: "List, show, check and scaffold agent definitions",
	}
	config.AddCommand(agents)
	root.AddCommand(config, NewCmdSession(f), NewCmdSystem(f), NewCmdMCP(f))
	return root, agents
}

// strictGroups makes every command that only groups others refuse an
// unknown subcommand (exit 2, with the nearest name), where cobra would
// print help and exit 0: `bn config agents lst` must not pass in CI.
func strictGroups(cmd *cobra.Command) {
	for _, c := range cmd.Commands() {
		strictGroups(c)
		if !c.HasSubCommands() || c.Run != nil || c.RunE != nil {
			continue
		}
		c.Args = cobra.ArbitraryArgs
		if c.Example == "" {
			// A group's examples are its commands' first ones.
			var lines []string
			for _, sub := range c.Commands() {
				if first, _, _ := strings.Cut(sub.Example, "\n"); sub.IsAvailableCommand() && first != "" && len(lines) < 4 {
					lines = append(lines, first)
				}
			}
			c.Example = strings.Join(lines, "\n")
		}
		c.RunE = func(c *cobra.Command, args []string) error {
			if len(args) == 0 {
				return c.Help()
			}
			var names []string
			for _, sub := range c.Commands() {
				if sub.IsAvailableCommand() {
					names = append(names, sub.Name())
				}
			}
			return usagef("unknown command %q for %q; use one of %s%s", args[0], c.CommandPath(), strings.Join(names, ", "), suggest(args[0], names))
		}
	}
}

// exactArgs is cobra.ExactArgs with a usage error naming the arguments.
func exactArgs(names ...string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) != len(names) {
			return usagef("%s takes %d argument(s): %s (got %d); see bn %s --help",
				cmd.Name(), len(names), strings.Join(names, " "), len(args), cmd.CommandPath()[3:])
		}
		return nil
	}
}

// helpCommand is `bn help [COMMAND…]`, which also finds a command by its
// own name at any depth (bn help export).
func helpCommand(root *cobra.Command) *cobra.Command {
	return &cobra.Command{
		Use:     "help [COMMAND]",
		Short:   "Help about any command",
		Example: "  bn help export\n  bn help config agents list",
		RunE: func(c *cobra.Command, args []string) error {
			target, rest, err := root.Find(args)
			if err != nil || len(rest) > 0 || target == root && len(args) > 0 {
				target = nil
				if len(args) == 1 {
					target = findByName(root, args[0])
				}
			}
			if target == nil {
				var names []string
				walkCommands(root, func(sub *cobra.Command) { names = append(names, sub.Name()) })
				return usagef("no command %q%s; bn help lists them", strings.Join(args, " "), suggest(strings.Join(args, " "), names))
			}
			return target.Help()
		},
	}
}

// findByName finds the one available command named name, at any depth.
func findByName(root *cobra.Command, name string) *cobra.Command {
	var found *cobra.Command
	walkCommands(root, func(c *cobra.Command) {
		if c.Name() == name && found == nil {
			found = c
		}
	})
	return found
}

func walkCommands(c *cobra.Command, fn func(*cobra.Command)) {
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() {
			fn(sub)
			walkCommands(sub, fn)
		}
	}
}
