package main

import (
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/spf13/cobra"
)

// completeAgents completes the first argument with agent names.
func completeAgents(f *Factory) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return agentNames(f, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

func agentNames(f *Factory, prefix string) []cobra.Completion {
	set, err := f.Agents(resolver.AllLayers)
	if err != nil {
		return nil
	}
	var out []cobra.Completion
	for _, n := range set.Names() {
		if strings.HasPrefix(n, prefix) {
			a, _ := set.Agent(n)
			out = append(out, cobra.CompletionWithDesc(n, a.Description))
		}
	}
	return out
}

// completeAgentFlag completes a flag whose value is an agent name.
func completeAgentFlag(f *Factory) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return agentNames(f, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// fixedCompletion completes a flag from a fixed list of values.
func fixedCompletion(values ...string) cobra.CompletionFunc {
	return cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp)
}

// listCompletion completes a comma-separated list of values.
func listCompletion(values ...string) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		done := ""
		if i := strings.LastIndex(toComplete, ","); i >= 0 {
			done = toComplete[:i+1]
		}
		var out []cobra.Completion
		for _, v := range values {
			if strings.HasPrefix(done+v, toComplete) && !strings.Contains(","+done, ","+v+",") {
				out = append(out, done+v)
			}
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}

// completeSetKeys completes --set with the agent's {placeholder} keys.
func completeSetKeys(f *Factory) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		if len(args) == 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		_, prompt, err := f.AgentWithPrompt(args[0])
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var out []cobra.Completion
		for _, k := range agents.Placeholders(prompt) {
			out = append(out, k+"=")
		}
		return out, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	}
}

// suggest formats a did-you-mean for a flag value, or "".
func suggest(value string, options []string) string {
	if hint := agents.DidYouMean(value, options); hint != "" {
		return " (" + hint + ")"
	}
	return ""
}
