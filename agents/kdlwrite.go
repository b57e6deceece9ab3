package agents

import (
	"fmt"
	"strings"
)

// QuoteKDL writes s as a KDL 1.0 string: a quoted string, or a raw string
// when s spans lines (raw strings keep new lines as written).
func QuoteKDL(s string) string {
	if strings.ContainsAny(s, "\n") && !strings.ContainsFunc(s, isRawUnsafe) {
		hashes := "#"
		for strings.Contains(s, "\""+hashes) {
			hashes += "#"
		}
		return "r" + hashes + "\"" + s + "\"" + hashes
	}
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u{%x}`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// isRawUnsafe marks characters a raw string would carry invisibly or that a
// reader may normalise (control characters other than new line and tab).
func isRawUnsafe(r rune) bool {
	return (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f
}

// KDLAgent is what WriteKDLAgent writes for one agent.
type KDLAgent struct {
	Definition
	Extends string
	// ResetTools writes `reset` first in the tools block, so the block is
	// the whole list rather than an addition to inherited ones.
	ResetTools bool
	// PromptFile, if set, is written as prompt-file instead of the prompt.
	PromptFile string
	// NoRuntimeFlags leaves out show-reasoning and render-markdown, for
	// agents whose source never set them.
	NoRuntimeFlags bool
}

// WriteKDLAgent appends an agent node in the config.kdl format.
func WriteKDLAgent(b *strings.Builder, a KDLAgent) {
	fmt.Fprintf(b, "agent %s {\n", QuoteKDL(a.Name))
	line := func(node string, vals ...string) {
		fmt.Fprintf(b, "    %s", node)
		for _, v := range vals {
			b.WriteString(" " + v)
		}
		b.WriteString("\n")
	}
	str := func(node, v string) {
		if v != "" {
			line(node, QuoteKDL(v))
		}
	}
	str("extends", a.Extends)
	str("description", a.Description)
	str("execution", string(a.Execution))
	str("lifecycle", string(a.Lifecycle))
	str("model", a.Model)
	str("reasoning-effort", a.ReasoningEffort)
	if !a.NoRuntimeFlags {
		line("show-reasoning", fmt.Sprint(a.ShowReasoning))
		line("render-markdown", fmt.Sprint(a.RenderMarkdown))
	}
	if len(a.Tags) > 0 {
		line("tags", quoteAllKDL(a.Tags)...)
	}
	if a.Hidden {
		line("hidden", "true")
	}
	if a.ResetTools || len(a.Tools.Allow)+len(a.Tools.Deny) > 0 {
		b.WriteString("    tools {\n")
		if a.ResetTools {
			b.WriteString("        reset\n")
		}
		for _, p := range a.Tools.Allow {
			fmt.Fprintf(b, "        allow %s\n", QuoteKDL(p))
		}
		for _, p := range a.Tools.Deny {
			fmt.Fprintf(b, "        deny %s\n", QuoteKDL(p))
		}
		b.WriteString("    }\n")
	}
	if a.PromptFile != "" {
		str("prompt-file", a.PromptFile)
	} else {
		str("prompt", a.Prompt)
	}
	b.WriteString("}\n")
}

func quoteAllKDL(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = QuoteKDL(s)
	}
	return out
}
