package main

import (
	"fmt"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/spf13/cobra"
)

type CheckOptions struct {
	F    *Factory
	Name string
	Tool string
}

func NewCmdCheck(f *Factory, runF func(*CheckOptions) error) *cobra.Command {
	opts := &CheckOptions{F: f}
	return &cobra.Command{
		Use:   "check NAME TOOL",
		Short: "Say whether an agent may use a tool, and which rule decides",
		Long: "Say whether agent NAME may use TOOL, for example \"shell(git push)\", \"write\" or \"binnacle/task_create\".\n" +
			"Deny rules win over allow rules; a tool no rule allows is not allowed.\n" +
			"Exit status: 0 when allowed, 1 when not.",
		Args: exactArgs("NAME", "TOOL"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name, opts.Tool = args[0], args[1]
			if runF != nil {
				return runF(opts)
			}
			return checkRun(opts)
		},
	}
}

type checkOutput struct {
	Agent    string      `json:"agent"`
	Tool     string      `json:"tool"`
	Allowed  bool        `json:"allowed"`
	Decision string      `json:"decision"`
	Rule     *string     `json:"rule"`
	List     string      `json:"list,omitempty"`
	Origin   *originJSON `json:"origin,omitempty"`
	Reason   string      `json:"reason"`
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
	out := checkData(a, opts.Tool, req)
	if opts.F.Human {
		fmt.Fprintf(opts.F.IO.Out, "%s: %s %s — %s\n", out.Decision, a.Name, opts.Tool, out.Reason)
	} else if err := writeJSON(opts.F.IO.Out, out); err != nil {
		return err
	}
	if !out.Allowed {
		return exitError{1}
	}
	return nil
}

// checkData decides whether agent a may use the tool req (written as tool).
func checkData(a *resolver.Agent, tool string, req agents.ToolPattern) checkOutput {
	d := agents.Decide(a.Tools, req)
	out := checkOutput{Agent: a.Name, Tool: tool, Allowed: d.Allowed, Decision: "deny", List: d.List}
	if d.Allowed {
		out.Decision = "allow"
	}
	if d.Rule == "" {
		out.Reason = "no allow rule matches"
		return out
	}
	out.Rule = &d.Rule
	origins := a.Provenance().Deny
	if d.List == "allow" {
		origins = a.Provenance().Allow
	}
	o := originOf(origins[d.Rule])
	out.Origin = &o
	out.Reason = fmt.Sprintf("%s rule %q (%s)", d.List, d.Rule, describeOrigin(origins[d.Rule]))
	return out
}
