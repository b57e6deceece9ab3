package emit

import (
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// capability groups bn's tool kinds (Copilot CLI's vocabulary) into what
// every target can name in its own words.
type capability int

const (
	capMCP capability = iota // a tool kind bn does not know: an MCP server
	capEdit
	capRead
	capGrep
	capGlob
	capLSP
	capShell
	capWeb
	capAgent
	capTodo
)

var capabilities = map[string]capability{
	"write": capEdit, "edit": capEdit, "create": capEdit, "apply_patch": capEdit,
	"view": capRead, "read": capRead,
	"grep": capGrep, "rg": capGrep, "search": capGrep,
	"glob":  capGlob,
	"lsp":   capLSP,
	"shell": capShell, "bash": capShell, "execute": capShell, "powershell": capShell,
	"url": capWeb, "web": capWeb, "web_fetch": capWeb, "web_search": capWeb,
	"task": capAgent, "agent": capAgent,
	"todo": capTodo,
}

// toolRule is one parsed allow or deny pattern.
type toolRule struct {
	text string
	p    agents.ToolPattern
	cap  capability
}

// toolRules parses the resolved lists. Patterns were validated when the
// definition was loaded, so a pattern that does not parse cannot occur.
func toolRules(list []string) []toolRule {
	out := make([]toolRule, 0, len(list))
	for _, s := range list {
		p, err := agents.ParseToolPattern(s)
		if err != nil {
			continue
		}
		c, ok := capabilities[strings.ToLower(p.Kind)]
		if !ok {
			c = capMCP
		}
		out = append(out, toolRule{text: s, p: p, cap: c})
	}
	return out
}

// deniedWhole reports whether a deny rule without an argument covers every
// use of the capability (for MCP, of the server).
func deniedWhole(deny []toolRule, r toolRule) bool {
	for _, d := range deny {
		if d.cap == r.cap && !d.p.HasArg && (r.cap != capMCP || strings.EqualFold(d.p.Kind, r.p.Kind)) {
			return true
		}
	}
	return false
}

// shellCommand turns a shell pattern argument into the command it covers
// and whether it also covers longer commands ("git" and "git …").
func shellCommand(arg string) string {
	return strings.Join(strings.Fields(strings.TrimSuffix(arg, ":*")), " ")
}
