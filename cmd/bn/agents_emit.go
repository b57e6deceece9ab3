package main

import (
	"fmt"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/views"
	"github.com/spf13/cobra"
)

type EmitOptions struct {
	F    *Factory
	Name string
	Set  []string // key=value pairs for {key} placeholders
}

func NewCmdEmit(f *Factory, runF func(*EmitOptions) error) *cobra.Command {
	opts := &EmitOptions{F: f}
	cmd := &cobra.Command{
		Use:   "emit NAME",
		Short: "Print an agent's resolved prompt",
		Long: "Print an agent's resolved prompt: {\"name\", \"prompt\"} as JSON, or the raw text with -H.\n" +
			"--set key=value fills {key} placeholders (for example {description} in the do agent).",
		Example:           "  bn config agents emit ask -H\n  bn config agents emit do -H --set description=\"fix the flaky login test\"",
		Args:              exactArgs("NAME"),
		ValidArgsFunction: completeAgents(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if runF != nil {
				return runF(opts)
			}
			return emitRun(opts)
		},
	}
	cmd.Flags().StringArrayVar(&opts.Set, "set", nil, "fill the {`KEY`} placeholder with a value: --set key=value (repeatable)")
	cmd.RegisterFlagCompletionFunc("set", completeSetKeys(f))
	return cmd
}

func parseSets(sets []string) (map[string]string, error) {
	values := map[string]string{}
	for _, kv := range sets {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !agents.PlaceholderKey(k) {
			return nil, usagef("--set %q: write key=value, where key is lower-case letters, digits, '-' or '_'", kv)
		}
		values[k] = v
	}
	return values, nil
}

func emitRun(opts *EmitOptions) error {
	values, err := parseSets(opts.Set)
	if err != nil {
		return err
	}
	a, prompt, err := opts.F.AgentWithPrompt(opts.Name)
	if err != nil {
		return err
	}
	out, err := views.EmitData(a.Name, prompt, values)
	if err != nil {
		return err
	}
	keys := agents.Placeholders(prompt)
	for _, k := range out.Unused {
		msg := fmt.Sprintf("warning: --set %s: the prompt of %q has no {%s} placeholder; value not used", k, a.Name, k)
		if hint := agents.DidYouMean(k, keys); hint != "" {
			msg += " (" + hint + ")"
		} else if len(keys) > 0 {
			msg += " (its placeholders: " + strings.Join(keys, ", ") + ")"
		}
		fmt.Fprintln(opts.F.IO.ErrOut, msg)
	}
	if opts.F.Human {
		_, err := fmt.Fprintln(opts.F.IO.Out, out.Prompt)
		return err
	}
	return writeJSON(opts.F.IO.Out, out)
}
