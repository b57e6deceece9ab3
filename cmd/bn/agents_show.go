package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/export"
	"github.com/binnacle-dev/bn/kdl"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/binnacle-dev/bn/views"
	"github.com/spf13/cobra"
)

type ShowOptions struct {
	F          *Factory
	Name       string
	Format     string
	Explain    bool
	KDLVersion int
}

var showFormats = []string{"json", "agent-file", "kdl"}

func NewCmdShow(f *Factory, runF func(*ShowOptions) error) *cobra.Command {
	opts := &ShowOptions{F: f}
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "Show one resolved agent",
		Long: "Show one resolved agent: binnacle's JSON keys (tools_allow, tools_deny, copilot{…}) and bn's\n" +
			"(tools_access, tags, sources, …). --explain says which layer and file set each field.\n" +
			"--format agent-file prints the Copilot agent file bn writes for it; --format kdl a config.kdl node.",
		Example: "  bn config agents show worker\n  bn config agents show ask -H --explain\n" +
			"  bn config agents show do --format kdl -H >> .binnacle/agents/config.kdl",
		Args:              exactArgs("NAME"),
		ValidArgsFunction: completeAgents(f),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if !slices.Contains(showFormats, opts.Format) {
				return usagef("--format %q: use json, agent-file or kdl%s", opts.Format, suggest(opts.Format, showFormats))
			}
			if opts.KDLVersion != 1 && opts.KDLVersion != 2 {
				return usagef("--kdl-version %d: use 1 or 2", opts.KDLVersion)
			}
			if runF != nil {
				return runF(opts)
			}
			return showRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", "json", "`FORMAT`: json, agent-file (Copilot .agent.md) or kdl (a config.kdl node)")
	cmd.Flags().BoolVar(&opts.Explain, "explain", false, "say which layer and file set each field")
	cmd.Flags().IntVar(&opts.KDLVersion, "kdl-version", 2, "KDL `VERSION` of --format kdl: 1 or 2")
	cmd.RegisterFlagCompletionFunc("format", fixedCompletion(showFormats...))
	cmd.RegisterFlagCompletionFunc("kdl-version", fixedCompletion("2", "1"))
	return cmd
}

func showRun(opts *ShowOptions) error {
	a, set, err := opts.F.agentInSet(opts.Name)
	if err != nil {
		return err
	}
	prompt, err := a.Prompt()
	if err != nil {
		return err
	}
	switch opts.Format {
	case "agent-file":
		d, _ := opts.F.Registry().Lookup(dialect.BinnacleTool)
		content, _, _, err := export.One(set, a, d, "", export.Command(dialect.BinnacleTool, "", "", false))
		if err != nil {
			return err
		}
		return printContent(opts.F, string(content))
	case "kdl":
		def := a.Definition
		def.Prompt = prompt
		node := config.AgentNode(def, config.NodeOptions{ResetTools: true, Runtime: true})
		return printContent(opts.F, kdl.FormatNode(node, kdl.Version(opts.KDLVersion), 0))
	}
	out := views.ShowData(a, prompt, opts.Explain, set.Catalog())
	if !opts.F.Human {
		return writeJSON(opts.F.IO.Out, out)
	}
	printShowHuman(opts.F, a, out, opts.Explain)
	return nil
}

// printContent prints generated file content: raw with -H, else as
// {"content": …} like binnacle.
func printContent(f *Factory, content string) error {
	if f.Human {
		_, err := fmt.Fprint(f.IO.Out, content)
		return err
	}
	return writeJSON(f.IO.Out, map[string]string{"content": content})
}

func printShowHuman(f *Factory, a *resolver.Agent, out views.Show, explain bool) {
	w := f.IO.Out
	where := func(field string) string {
		if !explain {
			return ""
		}
		o, ok := a.Provenance().Fields[field]
		if !ok {
			return "  (default)"
		}
		return "  (" + views.DescribeOrigin(o) + ")"
	}
	goodbye := "(no goodbye)"
	if a.Lifecycle == agents.Stateful {
		goodbye = "(calls bn goodbye)"
	}
	fmt.Fprintf(w, "Agent: %s\n", a.Name)
	fmt.Fprintf(w, "Description: %s%s\n", a.Description, where("description"))
	fmt.Fprintf(w, "Execution: %s%s\n", a.Execution, where("execution"))
	fmt.Fprintf(w, "Lifecycle: %s %s%s\n", a.Lifecycle, goodbye, where("lifecycle"))
	fmt.Fprintf(w, "Source: %s\n", views.HumanSource(a.Source, a.ToolsMerged))
	if a.Extends != "" {
		fmt.Fprintf(w, "Extends: %s%s\n", a.Extends, where("extends"))
	}
	if len(a.Tags) > 0 {
		fmt.Fprintf(w, "Tags: %s%s\n", strings.Join(a.Tags, ", "), where("tags"))
	}
	fmt.Fprintf(w, "Model: %s%s\n", orNone(a.Model), where("model"))
	fmt.Fprintf(w, "Reasoning Effort: %s%s\n", orNone(a.ReasoningEffort), where("reasoning-effort"))
	fmt.Fprintf(w, "Show Reasoning: %v%s\n", a.ShowReasoning, where("show-reasoning"))
	fmt.Fprintf(w, "Render Markdown: %v%s\n", a.RenderMarkdown, where("render-markdown"))
	for _, k := range slices.Sorted(maps.Keys(out.Fields)) {
		fmt.Fprintf(w, "%s: %v%s\n", k, out.Fields[k], where(k))
	}
	access := map[string]string{"all": "all: every tool, less the denied ones", "list": "the allowed list",
		"none": "none: no tools"}[a.Tools.Access()]
	fmt.Fprintf(w, "Tool Access: %s%s\n", access, where("tools.all"))
	printTools := func(title string, list []string, origins func() map[string]resolver.Origin) {
		fmt.Fprintf(w, "\n%s:\n", title)
		if len(list) == 0 {
			fmt.Fprintln(w, "  (none)")
		}
		for _, p := range list {
			if explain {
				fmt.Fprintf(w, "  %s  (%s)\n", p, views.DescribeOrigin(origins()[p]))
			} else {
				fmt.Fprintf(w, "  %s\n", p)
			}
		}
	}
	printTools("Tools Allowed", a.Tools.Allow, func() map[string]resolver.Origin { return a.Provenance().Allow })
	printTools("Tools Denied", a.Tools.Deny, func() map[string]resolver.Origin { return a.Provenance().Deny })
	if len(a.Tools.Ask) > 0 {
		printTools("Tools Asked First (the tool asks the user before each use)", a.Tools.Ask, func() map[string]resolver.Origin { return a.Provenance().Ask })
	}
	for _, tool := range slices.Sorted(maps.Keys(a.Targets)) {
		t := a.Targets[tool]
		if t.ID == "" && t.Partial == "" && t.Fields.Len() == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s only:\n", tool)
		if t.ID != "" {
			fmt.Fprintf(w, "  id: %s%s\n", t.ID, where(tool+".id"))
		}
		for _, k := range t.Fields.Keys {
			fmt.Fprintf(w, "  %s: %v%s\n", k, agents.Plain(t.Fields.Values[k]), where(tool+"."+k))
		}
	}
	if explain {
		fmt.Fprintln(w, "\nLayers:")
		for _, s := range out.Sources {
			fmt.Fprintf(w, "  %-8s %s\n", s.Layer, s.File)
		}
		for _, k := range []string{"prompt", "prompt-prepend", "prompt-append"} {
			if o, ok := a.Provenance().Fields[k]; ok {
				fmt.Fprintf(w, "  %s from %s\n", k, views.DescribeOrigin(o))
			}
		}
	}
	shown := utf8.RuneCountInString(out.PromptPreview)
	fmt.Fprintf(w, "\nPrompt (%d bytes, first %d chars shown):\n", out.PromptLength, shown)
	fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(out.PromptPreview, "\n", "\n  "))
}

func orNone(s string) string {
	if s == "" {
		return "(not set)"
	}
	return s
}
