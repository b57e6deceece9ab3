package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/enforce"
	"github.com/binnacle-dev/bn/hookrules"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/binnacle-dev/bn/views"
	"github.com/spf13/cobra"
	"golang.org/x/term"
)

type CheckOptions struct {
	F    *Factory
	Name string
	Tool string
	// Hook is the tool whose hook input (on stdin) names the tool use,
	// answered in that tool's protocol; Rules are the agent's rules export
	// compiled for that hook, which decide.
	Hook  string
	Rules string
}

// maxHookInput bounds a hook's input: a Write call carries the file.
const maxHookInput = 64 << 20

func NewCmdCheck(f *Factory, runF func(*CheckOptions) error) *cobra.Command {
	opts := &CheckOptions{F: f}
	cmd := &cobra.Command{
		Use:   "check NAME TOOL | check NAME --hook TOOL",
		Short: "Say whether an agent may use a tool, and which rule decides",
		Long: "Say whether agent NAME may use TOOL, for example \"shell(git push)\", \"edit\" or \"binnacle/task_create\".\n" +
			"Deny rules win over allow rules; a tool no rule allows is not allowed, unless the agent is\n" +
			"unrestricted (every tool). A shell line is decided as bash and zsh would run it: every\n" +
			"command in it must be allowed, and under patterns nothing may run another way (substitutions,\n" +
			"eval, assignments before a command, writes the rules do not allow); see docs/enforcement.md.\n" +
			"A rule the agent can walk around with another tool it has is said to be advisory.\n" +
			"An ask rule allows a use once the user agrees: the decision is ask.\n" +
			"Exit status: 0 when allowed, 3 when allowed once the user agrees, 1 when not.\n\n" +
			"With --hook TOOL, the tool use is read from TOOL's hook input on stdin (the hook export\n" +
			"writes where an agent file cannot say a limit, such as Claude Code's Bash(git diff:*)),\n" +
			"decided from the rules export compiled beside the agent's file (--rules), and a refusal or\n" +
			"an ask is answered in TOOL's protocol. Any failure refuses: input that is not the tool's, a tool bn\n" +
			"does not decide, compiled rules that are missing, damaged, or no longer what the\n" +
			"definitions give (run export), an edit of what defines or enforces the agent.",
		Example: "  bn config agents check ask \"shell(git push origin main)\" -H\n" +
			"  bn config agents check worker edit && echo may edit\n" +
			"  echo '{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"git diff\"}}' | bn config agents check reviewer --hook claude",
		ValidArgsFunction: completeAgents(f),
		Args: func(cmd *cobra.Command, args []string) error {
			if cmd.Flags().Changed("rules") && !cmd.Flags().Changed("hook") {
				return usagef("--rules goes with --hook: it names the rules a hook decides from")
			}
			if cmd.Flags().Changed("hook") {
				return exactArgs("NAME")(cmd, args)
			}
			return exactArgs("NAME", "TOOL")(cmd, args)
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if len(args) > 1 {
				opts.Tool = args[1]
			}
			if runF != nil {
				return runF(opts)
			}
			if opts.Hook != "" {
				return checkHook(opts)
			}
			return checkRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Rules, "rules", "", "with --hook, the agent's compiled rules `FILE` that export wrote beside its file")
	cmd.Flags().StringVar(&opts.Hook, "hook", "", "read the tool use from `TOOL`'s hook input on stdin, and answer in its protocol ("+strings.Join(hookTools(f.Registry()), ", ")+")")
	return cmd
}

// hookTools are the tools whose hooks check answers.
func hookTools(reg dialect.Registry) []string {
	var out []string
	for _, d := range reg {
		if d.Info().Hook != nil {
			out = append(out, d.Info().Name)
		}
	}
	return out
}

func checkRun(opts *CheckOptions) error {
	req, err := agents.ParseToolPattern(opts.Tool)
	if err != nil {
		return usagef("TOOL: %v", err)
	}
	a, err := opts.F.Agent(opts.Name)
	if err != nil {
		return err
	}
	p, err := opts.F.Paths()
	if err != nil {
		return err
	}
	home := opts.F.Getenv("HOME")
	g := hookrules.AnyToolGuard(p, home)
	out := views.CheckData(a, opts.Tool, req, enforce.Context{Root: p.RepoRoot, Home: home}, &g)
	if opts.F.Human {
		fmt.Fprintf(opts.F.IO.Out, "%s: %s %s — %s\n", out.Decision, a.Name, opts.Tool, out.Reason)
		if out.RuleAdvisory != "" {
			fmt.Fprintf(opts.F.IO.Out, "advisory: %s\n", out.RuleAdvisory)
		}
	} else if err := writeJSON(opts.F.IO.Out, out); err != nil {
		return err
	}
	switch {
	case !out.Allowed:
		return exitError{1}
	case out.Decision == "ask":
		// Allowed once the user agrees: a script that runs what check
		// allows must not take it for allowed outright.
		return exitError{3}
	}
	return nil
}

// checkHook answers a tool's hook: nothing when the use is allowed (the
// tool's own permissions still apply), ask in the tool's protocol when an
// ask rule covers it, a refusal otherwise, and a refusal for every
// failure on the way (fail closed).
func checkHook(opts *CheckOptions) error {
	d, ok := opts.F.Registry().Lookup(opts.Hook)
	if !ok || d.Info().Hook == nil {
		return usagef("--hook %q: bn answers the hooks of %s", opts.Hook, strings.Join(hookTools(opts.F.Registry()), ", "))
	}
	h := d.Info().Hook
	refuse := func(format string, args ...any) error {
		return exitError{h.Refuse(opts.F.IO.Out, opts.F.IO.ErrOut, "bn refused: "+fmt.Sprintf(format, args...))}
	}
	if f, ok := opts.F.IO.In.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		// A hook's input comes from its tool; by hand, check NAME TOOL asks.
		return refuse("--hook reads %s's hook input on stdin, not a terminal; to ask by hand, run bn config agents check %s TOOL", d.Info().Title, opts.Name)
	}
	input, err := io.ReadAll(io.LimitReader(opts.F.IO.In, maxHookInput+1))
	switch {
	case err != nil:
		return refuse("could not read the hook input: %v", err)
	case len(input) > maxHookInput:
		return refuse("the hook input is over %d MiB", maxHookInput>>20)
	}
	call, err := h.Call(input)
	if err != nil {
		return refuse("%v", err)
	}
	if call.NotTheAgents {
		return nil
	}
	// Every layer the hook loads is found from the project the tool
	// names (hookrules.Paths).
	p, start, err := hookrules.Paths(d.Info(), opts.F.pathInputs())
	if err != nil {
		return refuse("%v", err)
	}
	opts.F.paths = &p
	home, _ := opts.F.homeDir()
	self, _ := os.Executable()
	v := hookrules.Decide(hookrules.Call{
		Place: hookrules.Place{Paths: p, Home: home, Tool: d.Info(), Self: self, PATH: opts.F.Getenv("PATH"), PATHEXT: opts.F.Getenv("PATHEXT"), Start: start},
		Name:  opts.Name, Rules: opts.Rules, Call: call,
		Load: func(scope resolver.Scope) (*resolver.Set, error) {
			dec := opts.F.Decoder()
			dec.Defer = true
			return opts.F.judged(opts.F.loadAgents(scope, dec))
		},
	})
	switch {
	case !v.Allowed:
		return refuse("%s", v.Reason)
	case v.Ask && h.Ask == nil:
		return refuse("%s; %s's hook cannot ask the user, so the call is refused", v.AskReason, d.Info().Title)
	case v.Ask:
		if code := h.Ask(opts.F.IO.Out, opts.F.IO.ErrOut, "bn: "+v.AskReason); code != 0 {
			return exitError{code}
		}
	}
	return nil
}
