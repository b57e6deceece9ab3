package main

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

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
		Args: exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if runF != nil {
				return runF(opts)
			}
			return emitRun(opts)
		},
	}
	cmd.Flags().StringArrayVar(&opts.Set, "set", nil, "fill the {`KEY`} placeholder with a value: --set key=value (repeatable)")
	return cmd
}

var placeholderPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{([a-z][a-z0-9_-]*)\}`) })

// fillPlaceholders replaces {key} with its value in one pass, so values are
// inserted literally and never expanded again.
func fillPlaceholders(prompt string, values map[string]string) string {
	return placeholderPattern().ReplaceAllStringFunc(prompt, func(m string) string {
		if v, ok := values[m[1:len(m)-1]]; ok {
			return v
		}
		return m
	})
}

type emitOutput struct {
	Name   string   `json:"name"`
	Prompt string   `json:"prompt"`
	Unused []string `json:"unused,omitempty"`
}

// emitData fills the prompt's placeholders and names the values no
// placeholder used.
func emitData(name, prompt string, values map[string]string) emitOutput {
	out := emitOutput{Name: name, Prompt: fillPlaceholders(prompt, values)}
	for _, k := range slices.Sorted(maps.Keys(values)) {
		if !strings.Contains(prompt, "{"+k+"}") {
			out.Unused = append(out.Unused, k)
		}
	}
	return out
}

func parseSets(sets []string) (map[string]string, error) {
	values := map[string]string{}
	for _, kv := range sets {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || !placeholderPattern().MatchString("{"+k+"}") {
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
	out := emitData(a.Name, prompt, values)
	for _, k := range out.Unused {
		fmt.Fprintf(opts.F.IO.ErrOut, "warning: --set %s: the prompt of %q has no {%s} placeholder; value not used\n", k, a.Name, k)
	}
	if opts.F.Human {
		_, err := fmt.Fprintln(opts.F.IO.Out, out.Prompt)
		return err
	}
	return writeJSON(opts.F.IO.Out, out)
}
