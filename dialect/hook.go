package dialect

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// Hook is how a tool lets a command decide, before each call an agent
// makes, whether the call runs. Where an agent file cannot limit a tool
// to part of its uses (Claude Code's Bash(git diff:*) offers all of
// Bash), bn writes the tool whole and a hook that runs
// `bn config agents check NAME --hook TOOL`, which refuses every use the
// definition does not allow.
type Hook struct {
	// Tools are the tools a hook sees with the argument bn's patterns
	// limit.
	Tools []HookTool
	// Call reads the tool's hook input (JSON on stdin).
	Call func(input []byte) (HookCall, error)
	// Refuse answers with a refusal in the tool's protocol, on stdout or
	// stderr, and returns the exit status that carries it.
	Refuse func(stdout, stderr io.Writer, reason string) int
	// Setup says what, besides the file, the tool needs before it runs
	// the hooks of a project's agents; Trust makes those edits (export
	// --trust), given the repository root and the home directory.
	Setup string
	Trust func(root, home string) []FileEdit
}

// HookTool is one tool a hook sees: its name, bn's kind, and the input
// field that holds the argument a pattern limits.
type HookTool struct {
	Name  string
	Kind  agents.Kind
	Field string
}

// HookCall is one call a hook asks about.
type HookCall struct {
	Tool  string         // the tool's name for it
	Input map[string]any // its input
}

// HookCommand is the command a hook runs for agent name. A bn that is
// missing or fails refuses too: the tool reads any failure of the
// command as a refusal only through the exit status the wrapper gives.
func HookCommand(tool, name string) string {
	return "bn config agents check " + shellQuote(name) + " --hook " + tool + " || exit 2"
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Request turns a hook call into the bn tool use it asks for: the kind,
// limited to the argument (a path inside root made relative to it, with
// forward slashes, as bn's patterns are written).
func (h *Hook) Request(c HookCall, root string) (agents.ToolPattern, error) {
	i := slices.IndexFunc(h.Tools, func(t HookTool) bool { return t.Name == c.Tool })
	if i < 0 {
		return agents.ToolPattern{}, fmt.Errorf("the hook was called for %q, a tool bn does not decide", c.Tool)
	}
	t := h.Tools[i]
	arg, _ := c.Input[t.Field].(string)
	if strings.TrimSpace(arg) == "" {
		return agents.ToolPattern{}, fmt.Errorf("the %s call names no %s", c.Tool, t.Field)
	}
	if t.Kind != agents.KindShell && t.Kind != agents.KindWebFetch && filepath.IsAbs(arg) && root != "" {
		if rel, err := filepath.Rel(root, arg); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			arg = filepath.ToSlash(rel)
		}
	}
	return agents.ToolPattern{Kind: string(t.Kind), Arg: arg, HasArg: true}, nil
}

// Kinds are the kinds a hook can decide.
func (h *Hook) Kinds() []agents.Kind {
	var out []agents.Kind
	for _, t := range h.Tools {
		if !slices.Contains(out, t.Kind) {
			out = append(out, t.Kind)
		}
	}
	return out
}

// Limited are the kinds of t a hook must decide: those the agent uses
// that a rule limits to part of their uses — an allow for some uses only
// (no allow for all of them), or a deny of some uses.
func (h *Hook) Limited(t agents.Tools) []agents.Kind {
	var out []agents.Kind
	for _, k := range h.Kinds() {
		if !t.Uses(k) {
			continue
		}
		whole := t.All
		var partAllowed, partDenied bool
		for _, r := range parseRules(t.Allow) {
			if r.native == "" && slices.Contains(r.kinds, k) {
				whole = whole || r.whole()
				partAllowed = partAllowed || !r.whole()
			}
		}
		for _, r := range parseRules(t.Deny) {
			if r.native == "" && !r.whole() && slices.Contains(r.kinds, k) {
				partDenied = true
			}
		}
		if partDenied || partAllowed && !whole {
			out = append(out, k)
		}
	}
	return out
}
