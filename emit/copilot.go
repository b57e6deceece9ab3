package emit

import (
	"fmt"

	"github.com/binnacle-dev/bn/agents"
)

// Loss is one thing a target format cannot express, so the written file
// differs from the definition in that respect.
type Loss struct {
	Field  string `json:"field"`
	Detail string `json:"detail"`
}

// CopilotID is the file stem and agent id bn gives an agent in the
// Copilot files it writes for binnacle (.github/agents, ~/.copilot/agents).
func CopilotID(name string) string { return "binnacle-" + name }

// CopilotAgentFile renders def (whose Prompt must be filled) as the Copilot
// agent file bn writes for binnacle, owned by the command regenerate.
func CopilotAgentFile(def agents.Definition, regenerate string) ([]byte, []Loss, error) {
	t, _ := LookupTarget("copilot")
	return t.Render(CopilotID(def.Name), def, regenerate)
}

// copilotAliases maps capabilities to Copilot's documented tool aliases.
var copilotAliases = map[capability]string{
	capEdit: "edit", capRead: "read", capGrep: "search", capGlob: "search", capLSP: "search",
	capShell: "execute", capWeb: "web", capAgent: "agent", capTodo: "todo",
}

func copilotAlias(r toolRule) string {
	if r.cap != capMCP {
		return copilotAliases[r.cap]
	}
	if r.p.HasArg {
		return r.p.Kind + "/" + r.p.Arg // one tool of an MCP server
	}
	return r.p.Kind + "/*" // an MCP server: every tool it has
}

// CopilotTools maps allow patterns to Copilot tool aliases in first-seen
// order. Copilot agent files have no deny list and no argument patterns, so
// narrowing that cannot be carried is reported: an alias is dropped when a
// deny pattern covers the whole kind, and a narrowed shell becomes execute.
func CopilotTools(t agents.Tools) ([]string, []Loss) {
	var out []string
	var losses []Loss
	denyRules := toolRules(t.Deny)
	for _, r := range toolRules(t.Allow) {
		alias := copilotAlias(r)
		if deniedWhole(denyRules, r) {
			losses = append(losses, Loss{Field: "tools", Detail: fmt.Sprintf("allow %q dropped: a deny rule covers every %s tool", r.text, alias)})
			continue
		}
		if r.p.HasArg && r.cap == capShell {
			losses = append(losses, Loss{Field: "tools", Detail: fmt.Sprintf("allow %q widened to execute: agent files cannot limit shell commands", r.text)})
		}
		out = appendNew(out, alias)
	}
	for _, r := range denyRules {
		if r.p.HasArg {
			losses = append(losses, Loss{Field: "tools", Detail: fmt.Sprintf("deny %q not expressible: agent files have no deny list", r.text)})
		}
	}
	return out, losses
}
