package main

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/spf13/cobra"
)

type ShowOptions struct {
	F       *Factory
	Name    string
	Format  string
	Explain bool
}

var showFormats = []string{"json", "agent-file", "kdl"}

func NewCmdShow(f *Factory, runF func(*ShowOptions) error) *cobra.Command {
	opts := &ShowOptions{F: f}
	cmd := &cobra.Command{
		Use:   "show NAME",
		Short: "Show one resolved agent",
		Args:  exactArgs("NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Name = args[0]
			if !slices.Contains(showFormats, opts.Format) {
				return usagef("--format %q: use json, agent-file or kdl", opts.Format)
			}
			if runF != nil {
				return runF(opts)
			}
			return showRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Format, "format", "json", "`FORMAT`: json, agent-file (Copilot .agent.md) or kdl (a config.kdl node)")
	cmd.Flags().BoolVar(&opts.Explain, "explain", false, "say which layer and file set each field")
	return cmd
}

// copilotSettings are the Copilot runtime settings binnacle reports.
type copilotSettings struct {
	Model           *string `json:"model"`
	ReasoningEffort *string `json:"reasoning_effort"`
	ShowReasoning   bool    `json:"show_reasoning"`
	RenderMarkdown  bool    `json:"render_markdown"`
}

func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func copilotOf(a *resolver.Agent) copilotSettings {
	return copilotSettings{Model: optional(a.Model), ReasoningEffort: optional(a.ReasoningEffort),
		ShowReasoning: a.ShowReasoning, RenderMarkdown: a.RenderMarkdown}
}

type originJSON struct {
	Layer  string `json:"layer"`
	File   string `json:"file"`
	Line   int    `json:"line,omitempty"`
	Column int    `json:"column,omitempty"`
	Via    string `json:"inherited_from,omitempty"`
}

func originOf(o resolver.Origin) originJSON {
	return originJSON{Layer: string(o.Layer), File: o.Pos.File, Line: o.Pos.Line, Column: o.Pos.Col, Via: o.Via}
}

type provenanceJSON struct {
	Fields     map[string]originJSON `json:"fields"`
	ToolsAllow map[string]originJSON `json:"tools_allow"`
	ToolsDeny  map[string]originJSON `json:"tools_deny"`
}

type sourceJSON struct {
	Layer string `json:"layer"`
	File  string `json:"file"`
}

// showOutput keeps binnacle's keys and order first; the rest are bn's.
type showOutput struct {
	Name          string          `json:"name"`
	Description   string          `json:"description"`
	Execution     string          `json:"execution"`
	Lifecycle     string          `json:"lifecycle"`
	Source        string          `json:"source"`
	ToolsMerged   bool            `json:"tools_merged"`
	ToolsAllow    []string        `json:"tools_allow"`
	ToolsDeny     []string        `json:"tools_deny"`
	Copilot       copilotSettings `json:"copilot"`
	PromptPreview string          `json:"prompt_preview"`
	PromptLength  int             `json:"prompt_length"`
	Layer         string          `json:"layer"`
	Tags          []string        `json:"tags"`
	Hidden        bool            `json:"hidden"`
	Extends       string          `json:"extends,omitempty"`
	PromptFile    string          `json:"prompt_file,omitempty"`
	Sources       []sourceJSON    `json:"sources"`
	Provenance    *provenanceJSON `json:"provenance,omitempty"`
}

const previewChars = 500

func showRun(opts *ShowOptions) error {
	a, prompt, err := opts.F.AgentWithPrompt(opts.Name)
	if err != nil {
		return err
	}
	def := a.Definition
	def.Prompt = prompt
	switch opts.Format {
	case "agent-file":
		content, _, err := emit.CopilotAgentFile(def, regenerateCopilotPrompts)
		if err != nil {
			return err
		}
		return printContent(opts.F, string(content))
	case "kdl":
		var b strings.Builder
		agents.WriteKDLAgent(&b, agents.KDLAgent{Definition: def, ResetTools: true})
		return printContent(opts.F, b.String())
	}
	out := showData(a, prompt, opts.Explain)
	if !opts.F.Human {
		return writeJSON(opts.F.IO.Out, out)
	}
	printShowHuman(opts.F, a, out, opts.Explain)
	return nil
}

// showData is what show reports about agent a, whose prompt is given.
func showData(a *resolver.Agent, prompt string, explain bool) showOutput {
	out := showOutput{
		Name: a.Name, Description: a.Description, Execution: string(a.Execution), Lifecycle: string(a.Lifecycle),
		Source: a.Source, ToolsMerged: a.ToolsMerged, ToolsAllow: nonNil(a.Tools.Allow), ToolsDeny: nonNil(a.Tools.Deny),
		Copilot: copilotOf(a), PromptPreview: preview(prompt), PromptLength: len(prompt),
		Layer: string(a.Layer), Tags: nonNil(a.Tags), Hidden: a.Hidden, Extends: a.Extends, PromptFile: a.PromptFile(),
		Sources: []sourceJSON{},
	}
	for _, s := range a.Sources {
		out.Sources = append(out.Sources, sourceJSON{Layer: string(s.Layer), File: s.File})
	}
	if explain {
		out.Provenance = &provenanceJSON{Fields: map[string]originJSON{}, ToolsAllow: map[string]originJSON{}, ToolsDeny: map[string]originJSON{}}
		prov := a.Provenance()
		for k, o := range prov.Fields {
			out.Provenance.Fields[k] = originOf(o)
		}
		for k, o := range prov.Allow {
			out.Provenance.ToolsAllow[k] = originOf(o)
		}
		for k, o := range prov.Deny {
			out.Provenance.ToolsDeny[k] = originOf(o)
		}
	}
	return out
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

func preview(s string) string {
	if utf8.RuneCountInString(s) <= previewChars {
		return s
	}
	return string([]rune(s)[:previewChars])
}

func printShowHuman(f *Factory, a *resolver.Agent, out showOutput, explain bool) {
	w := f.IO.Out
	where := func(field string) string {
		if !explain {
			return ""
		}
		o, ok := a.Provenance().Fields[field]
		if !ok {
			return "  (default)"
		}
		return "  (" + describeOrigin(o) + ")"
	}
	goodbye := "(no goodbye)"
	if a.Lifecycle == agents.Stateful {
		goodbye = "(calls bn goodbye)"
	}
	fmt.Fprintf(w, "Agent: %s\n", a.Name)
	fmt.Fprintf(w, "Description: %s%s\n", a.Description, where("description"))
	fmt.Fprintf(w, "Execution: %s%s\n", a.Execution, where("execution"))
	fmt.Fprintf(w, "Lifecycle: %s %s%s\n", a.Lifecycle, goodbye, where("lifecycle"))
	fmt.Fprintf(w, "Source: %s\n", a.Source)
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
	printTools := func(title string, list []string, origins func() map[string]resolver.Origin) {
		fmt.Fprintf(w, "\n%s:\n", title)
		if len(list) == 0 {
			fmt.Fprintln(w, "  (none)")
		}
		for _, p := range list {
			if explain {
				fmt.Fprintf(w, "  %s  (%s)\n", p, describeOrigin(origins()[p]))
			} else {
				fmt.Fprintf(w, "  %s\n", p)
			}
		}
	}
	printTools("Tools Allowed", a.Tools.Allow, func() map[string]resolver.Origin { return a.Provenance().Allow })
	printTools("Tools Denied", a.Tools.Deny, func() map[string]resolver.Origin { return a.Provenance().Deny })
	if explain {
		fmt.Fprintln(w, "\nLayers:")
		for _, s := range out.Sources {
			fmt.Fprintf(w, "  %-8s %s\n", s.Layer, s.File)
		}
		for _, k := range []string{"prompt", "prompt-prepend", "prompt-append"} {
			if o, ok := a.Provenance().Fields[k]; ok {
				fmt.Fprintf(w, "  %s from %s\n", k, describeOrigin(o))
			}
		}
	}
	shown := utf8.RuneCountInString(out.PromptPreview)
	fmt.Fprintf(w, "\nPrompt (%d bytes, first %d chars shown):\n", out.PromptLength, shown)
	fmt.Fprintf(w, "  %s\n", strings.ReplaceAll(out.PromptPreview, "\n", "\n  "))
}

func describeOrigin(o resolver.Origin) string {
	s := o.Pos.String()
	if o.Layer != resolver.Embedded {
		s = fmt.Sprintf("%s layer, %s", o.Layer, s)
	}
	if o.Via != "" {
		s += ", inherited from " + o.Via
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return "(not set)"
	}
	return s
}
