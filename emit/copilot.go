package emit

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/goccy/go-yaml"
)

// Loss is one thing a target format cannot express, so the written file
// differs from the definition in that respect.
type Loss struct {
	Field  string
	Detail string
}

// copilotFrontmatter is the agent profile header, in the key order Copilot
// documents. Fields bn leaves empty are omitted.
type copilotFrontmatter struct {
	Name        string   `yaml:"name"`
	Description string   `yaml:"description"`
	Tools       []string `yaml:"tools"`
	Model       string   `yaml:"model,omitempty"`
}

// CopilotID is the file stem and agent id bn writes for an agent.
func CopilotID(name string) string { return "binnacle-" + name }

// CopilotAgentFile renders def (whose Prompt must be filled) as a Copilot
// .agent.md file, and lists what the format could not carry.
func CopilotAgentFile(def agents.Definition) ([]byte, []Loss, error) {
	tools, losses := CopilotTools(def.Tools)
	fm := copilotFrontmatter{Name: CopilotID(def.Name), Description: def.Description, Tools: tools, Model: def.Model}
	head, err := yaml.MarshalWithOptions(fm, yaml.Flow(false), yaml.UseLiteralStyleIfMultiline(true))
	if err != nil {
		return nil, nil, fmt.Errorf("agent %q: cannot write frontmatter: %w", def.Name, err)
	}
	var b bytes.Buffer
	b.WriteString("---\n")
	b.Write(head)
	b.WriteString("---\n")
	b.WriteString(strings.TrimSpace(def.Prompt))
	b.WriteString("\n")
	return b.Bytes(), losses, nil
}

// copilotAliases maps bn's tool kinds to Copilot's documented aliases.
var copilotAliases = map[string]string{
	"write": "edit", "edit": "edit", "create": "edit",
	"view": "read", "read": "read",
	"grep": "search", "glob": "search", "lsp": "search", "search": "search",
	"shell": "execute", "bash": "execute", "execute": "execute",
	"task": "agent", "agent": "agent",
	"web_fetch": "web", "web": "web", "url": "web",
}

// CopilotTools maps allow patterns to Copilot tool aliases in first-seen
// order. Copilot agent files have no deny list and no argument patterns, so
// narrowing that cannot be carried is reported: an alias is dropped when a
// deny pattern covers the whole kind, and a narrowed shell becomes execute.
func CopilotTools(t agents.Tools) ([]string, []Loss) {
	var out []string
	var losses []Loss
	seen := map[string]bool{}
	deniedKind := map[string]bool{}
	for _, d := range t.Deny {
		if p, err := agents.ParseToolPattern(d); err == nil && !p.HasArg {
			deniedKind[copilotAlias(p)] = true
		}
	}
	for _, a := range t.Allow {
		p, err := agents.ParseToolPattern(a)
		if err != nil {
			continue // rejected when the definition was loaded
		}
		alias := copilotAlias(p)
		if deniedKind[alias] {
			losses = append(losses, Loss{Field: "tools", Detail: fmt.Sprintf("allow %q dropped: a deny rule covers every %s tool", a, alias)})
			continue
		}
		if p.HasArg && alias == "execute" {
			losses = append(losses, Loss{Field: "tools", Detail: fmt.Sprintf("allow %q widened to execute: agent files cannot limit shell commands", a)})
		}
		if !seen[alias] {
			seen[alias] = true
			out = append(out, alias)
		}
	}
	for _, d := range t.Deny {
		if p, err := agents.ParseToolPattern(d); err == nil && p.HasArg {
			losses = append(losses, Loss{Field: "tools", Detail: fmt.Sprintf("deny %q not expressible: agent files have no deny list", d)})
		}
	}
	return out, losses
}

func copilotAlias(p agents.ToolPattern) string {
	if alias, ok := copilotAliases[strings.ToLower(p.Kind)]; ok {
		return alias
	}
	if p.HasArg {
		return p.Kind + "/" + p.Arg // one tool of an MCP server
	}
	return p.Kind + "/*" // an MCP server: every tool it has
}
