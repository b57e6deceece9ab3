package dialect

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/enforce"
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
	// Ask answers that the tool asks the user before the call (an ask
	// rule), in the tool's protocol, and returns the exit status that
	// carries it. nil: the tool's hook cannot ask, so bn refuses such a
	// call (fail closed) and export reports each ask as widened.
	Ask func(stdout, stderr io.Writer, reason string) int
	// AskUnattended is what the probes saw come of a call the hook
	// answers ask for in a run no one answers (the tool's -p, its own
	// permission checks bypassed), the agent the session's own: "refused"
	// or "ran"; "" for a tool that runs an agent's hooks only while the
	// agent is a sub-agent. AskUnattendedSubAgent is the same with the
	// agent started by the main session as a sub-agent
	// (probe.TestEnforcementAsk, enforcement-ask-CLIENT.json).
	AskUnattended, AskUnattendedSubAgent string
	// Setup says what, besides the file, the tool needs before it runs
	// the hooks of a project's agents; Trust makes those edits (export
	// --trust), given the repository root and the home directory.
	Setup string
	Trust func(root, home string) []FileEdit
	// WindowsShell is the shell the tool runs command lines in on
	// Windows, where bn cannot tell bash from cmd or PowerShell by
	// itself: bn decides lines for it (refusing, under a limit, those it
	// cannot parse).
	WindowsShell enforce.Shell
	// SubAgent: the probes saw the hook in an agent's file hold when
	// another agent (the main session) starts the agent as its sub-agent
	// (probe.TestEnforcementSubAgent, or a probe that only runs agents
	// so). Where they did not, export reports every limit the hook
	// enforces as advisory: the tool may run the agent that way without it.
	SubAgent bool
	// ProjectDir is the environment variable the tool sets, for every
	// hook it runs, to the directory of the project the session started
	// in. The hook runs in the session's working directory, which the
	// agent's own cd moves (into a submodule, or a directory it made
	// with its own .git and forged rules); the project directory it does
	// not move, so the hook takes the repository root, and the rules, from
	// it.
	ProjectDir string
	// Guard are the tool's files and settings that carry or govern its
	// hooks (and what else it runs): relative to the repository root, or
	// from "~/" in the home directory. An agent under the hook may not
	// change them (package hookrules).
	Guard []string
}

// RepoHook is a tool's hook that no agent file carries: the repository's
// own configuration, run before every call of the session, whichever agent
// makes it. bn writes none: until the hook can tell one agent from
// another, it cannot hold an agent to its rules.
type RepoHook struct {
	// Path is where a configuration goes, relative to the repository root.
	Path string
	// Config is a configuration that runs command before each tool call,
	// with Claude Code's hook input (hook_event_name, tool_name,
	// tool_input) on stdin; exit status 2 refuses the call.
	Config func(command string) string
	// TrustFlag runs a session with the working directory's configuration
	// trusted: without it (or the folder's recorded trust) the hooks are
	// not run.
	TrustFlag string
	// NamesAgent: the hook's input says which custom agent makes the
	// call. Where it does not, only an environment variable the launcher
	// sets could, and then not for a sub-agent the session starts.
	NamesAgent bool
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
	// NotTheAgents: the tool runs an agent's hooks for calls of others
	// too, and says this one is not the agent's (Qwen Code, for the main
	// session's calls while a sub-agent runs); bn leaves it to the tool.
	NotTheAgents bool
	// Dir is the working directory the tool says the call runs in; a
	// relative path or a shell line starts there.
	Dir string
}

// HookCommand is the command a hook runs for agent name, deciding from
// the rules export compiled beside its file (rules, RulesPath). A bn that
// is missing or fails refuses too: the tool reads any failure of the
// command as a refusal only through the exit status the wrapper gives.
func HookCommand(tool, name, rules string) string {
	return "bn config agents check " + shellQuote(name) + " --hook " + tool + " --rules " + shellQuote(rules) + " || exit 2"
}

// RulesExt ends the name of the rules export compiles for an agent file
// that carries bn's hook, beside it: <id>.md and <id>.rules.
const RulesExt = ".rules"

// RulesPath is where export writes the compiled rules of agent id for
// the tool, as the hook names them: relative to the repository root (or,
// for a file exported to the tool's directory in the home directory,
// relative to that), with forward slashes.
func RulesPath(info *Info, id string) string {
	return info.Dir + "/" + id + RulesExt
}

// CarriesHook says whether an agent file written for tool holds the hook
// bn writes there, which makes the agent's limits enforced.
func CarriesHook(tool string, content []byte) bool {
	for line := range bytes.Lines(content) {
		if ownHookCommand(string(line), tool) {
			return true
		}
	}
	return false
}

// ownHookCommand says whether s holds the command of HookCommand for tool.
func ownHookCommand(s, tool string) bool {
	i := strings.Index(s, "bn config agents check ")
	return i >= 0 && strings.Contains(s[i:], " --hook "+tool+" ")
}

// hookRulesOf is the rules path named by cmd when cmd is exactly the
// command HookCommand writes for tool (any agent name, any rules path),
// and false for any other, though it mention bn: only bn's own hook is
// taken out of a file on import.
func hookRulesOf(cmd, tool string) (string, bool) {
	rest, ok := strings.CutPrefix(cmd, "bn config agents check ")
	if !ok {
		return "", false
	}
	rest, ok = strings.CutSuffix(rest, " || exit 2")
	if !ok {
		return "", false
	}
	name, rules, ok := strings.Cut(rest, " --hook "+tool+" --rules ")
	if !ok {
		return "", false
	}
	name, rules = shellUnquote(name), shellUnquote(rules)
	if HookCommand(tool, name, rules) != cmd {
		return "", false
	}
	return rules, true
}

// shellUnquote undoes shellQuote (what it did not write is checked by
// the caller, which quotes the result again and compares).
func shellUnquote(s string) string {
	if len(s) >= 2 && s[0] == '\'' && s[len(s)-1] == '\'' {
		return strings.ReplaceAll(s[1:len(s)-1], `'\''`, "'")
	}
	return s
}

// shellQuote quotes s for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r == '.' || r == '/' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Request turns a hook call into the bn tool use it asks for: the kind,
// limited to the argument (a path as the tool gave it; package enforce
// resolves it).
func (h *Hook) Request(c HookCall) (agents.ToolPattern, error) {
	i := slices.IndexFunc(h.Tools, func(t HookTool) bool { return t.Name == c.Tool })
	if i < 0 {
		return agents.ToolPattern{}, fmt.Errorf("the hook was called for %q, a tool bn does not decide", c.Tool)
	}
	t := h.Tools[i]
	arg, _ := c.Input[t.Field].(string)
	if strings.TrimSpace(arg) == "" {
		return agents.ToolPattern{}, fmt.Errorf("the %s call names no %s", c.Tool, t.Field)
	}
	return agents.ToolPattern{Kind: string(t.Kind), Arg: arg, HasArg: true}, nil
}

// Unattended says what the probes saw come of a call the hook asks
// about in a run no one answers, for each way the tool runs an agent's
// hooks: "refused, at top level and as a sub-agent", "refused as a
// sub-agent (the only way Qwen Code runs an agent's hooks)".
func (h *Hook) Unattended(title string) string {
	switch top, sub := h.AskUnattended, h.AskUnattendedSubAgent; {
	case top == "":
		return sub + " as a sub-agent (the only way " + title + " runs an agent's hooks)"
	case top == sub:
		return top + ", at top level and as a sub-agent"
	default:
		return top + " at top level, " + sub + " as a sub-agent"
	}
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
// (no allow for all of them), or a deny of some uses — and, where the
// hook can answer ask, those an ask rule names.
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
		asked := h.Ask != nil && slices.ContainsFunc(parseRules(t.Ask), func(r rule) bool {
			return r.native == "" && slices.Contains(r.kinds, k)
		})
		if partDenied || partAllowed && !whole || asked {
			out = append(out, k)
		}
	}
	return out
}

// preToolUse is the hook input Claude Code and Qwen Code give a
// PreToolUse hook, as far as bn reads it (readPreToolUse): its keys
// hook_event_name, tool_name, tool_input, agent_id and cwd.
type preToolUse struct {
	Event string
	Tool  string
	Input map[string]any
	// Agent is Qwen Code's agent_id, present only inside a sub-agent.
	Agent json.RawMessage
	Cwd   string
}

// inMainSession says, for Qwen Code, that a call is the main session's:
// it gives no agent_id at all. One given as null, empty or not a string
// is not Qwen Code's, and fails: taken for the main session's, it would
// let any call through.
func (in preToolUse) inMainSession(title string) (bool, error) {
	if in.Agent == nil {
		return true, nil
	}
	var id string
	if err := json.Unmarshal(in.Agent, &id); err != nil || strings.TrimSpace(id) == "" || string(in.Agent) == "null" {
		return false, fmt.Errorf("the hook input's agent_id is %s: %s gives a sub-agent's call a non-empty string, and leaves it out for the main session's", in.Agent, title)
	}
	return false, nil
}

// readPreToolUse reads a PreToolUse hook input of the tool called title.
// Keys are matched exactly, as the tools read them: encoding/json's
// struct fields would also take "Tool_Input", the last of them winning,
// so an input could name one command to the tool and another to bn.
func readPreToolUse(title string, input []byte) (preToolUse, error) {
	var in preToolUse
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(input, &raw); err != nil {
		return in, fmt.Errorf("the hook input is not %s's JSON: %v", title, err)
	}
	for _, f := range []struct {
		key  string
		into any
	}{{"hook_event_name", &in.Event}, {"tool_name", &in.Tool}, {"tool_input", &in.Input}, {"cwd", &in.Cwd}} {
		if v, ok := raw[f.key]; ok {
			if err := json.Unmarshal(v, f.into); err != nil {
				return in, fmt.Errorf("the hook input's %s is not %s's: %v", f.key, title, err)
			}
		}
	}
	in.Agent = raw["agent_id"]
	if in.Event != "PreToolUse" || in.Tool == "" {
		return in, fmt.Errorf("the hook input is not a %s PreToolUse call (hook_event_name %q, tool_name %q)", title, in.Event, in.Tool)
	}
	return in, nil
}

// refuseExit2 refuses as Claude Code's and Qwen Code's hooks do: exit
// status 2, with the reason on stderr, which the model reads.
func refuseExit2(_, stderr io.Writer, reason string) int {
	fmt.Fprintln(stderr, reason)
	return 2
}

// askExit0 answers ask as Claude Code's and Qwen Code's PreToolUse hooks
// do: exit status 0 with hookSpecificOutput.permissionDecision "ask" on
// stdout, whose reason the tool shows the user. What comes of it where no
// one can answer (-p) is the tool's (Hook.AskUnattended).
func askExit0(stdout, _ io.Writer, reason string) int {
	out := map[string]any{"hookSpecificOutput": map[string]string{
		"hookEventName": "PreToolUse", "permissionDecision": "ask", "permissionDecisionReason": reason}}
	if err := json.NewEncoder(stdout).Encode(out); err != nil {
		return 1
	}
	return 0
}

// hookedKinds are the kinds the tool's hook must decide for def, as its
// file is written: none when the tool has no hook or the agent asks for
// narrowing there (partial "narrow").
func hookedKinds(info *Info, def *agents.Definition) []agents.Kind {
	if info.Hook == nil || def.TargetOf(info.Name).Partial == "narrow" {
		return nil
	}
	return info.Hook.Limited(def.Tools)
}

// guardedKinds are the kinds through which an agent could edit what
// defines or enforces it (its layers, its own file, its tool's settings,
// its compiled rules) and so widen itself.
var guardedKinds = []agents.Kind{agents.KindEdit, agents.KindCreate, agents.KindNotebook, agents.KindShell}

// HookKinds are every kind the tool's hook sees for def: those it
// enforces (hookedKinds), and, where there are any, the edit-like kinds
// and the shell the file grants, limited or not: under the hook the
// agent may not change what defines or enforces it (package hookrules), so
// the hook sees every call that could.
func HookKinds(info *Info, def *agents.Definition) []agents.Kind {
	kinds := hookedKinds(info, def)
	if len(kinds) == 0 {
		return nil
	}
	for _, k := range guardedKinds {
		if def.Tools.Uses(k) && slices.Contains(info.Hook.Kinds(), k) && !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	return kinds
}

// withHook is the hooks field of def's file, in the shape Claude Code
// and Qwen Code share (event: [{matcher, hooks: [{type, command}]}]):
// the agent's own hooks, with bn's PreToolUse entry for the kinds the
// hook sees (HookKinds) added; nil when there are none.
func withHook(info *Info, def *agents.Definition, id string) any {
	own, _ := def.TargetOf(info.Name).Fields.Get("hooks")
	kinds := HookKinds(info, def)
	if len(kinds) == 0 {
		return own
	}
	var matchers []string
	for _, t := range info.Hook.Tools {
		if slices.Contains(kinds, t.Kind) {
			matchers = append(matchers, t.Name)
		}
	}
	handler := &agents.Map{}
	handler.Set("type", "command")
	handler.Set("command", HookCommand(info.Name, def.Name, RulesPath(info, id)))
	entry := &agents.Map{}
	entry.Set("matcher", strings.Join(matchers, "|"))
	entry.Set("hooks", []any{handler})
	out := &agents.Map{}
	if m, ok := own.(*agents.Map); ok {
		for _, k := range m.Keys {
			out.Set(k, m.Values[k])
		}
	}
	pre, _ := out.Get("PreToolUse")
	list, _ := pre.([]any)
	out.Set("PreToolUse", append(slices.Clone(list), entry))
	return out
}

// ownFields writes the tool's own fields of def and, where the tool has a
// hook, its hooks field with bn's entry (withHook) for the file of id.
func ownFields(d *frontmatterDoc, def *agents.Definition, info *Info, id string) []Loss {
	if info.Hook == nil {
		return sectionFields(d, def, info)
	}
	losses := sectionFields(d, def, info, "hooks")
	if hooks := withHook(info, def, id); hooks != nil {
		d.set("hooks", hooks)
	}
	return losses
}

// takeOwnHook takes the PreToolUse entry bn wrote out of a file's hooks
// on import, records the rules file export wrote beside the file for it
// (Imported.HookRules), and keeps the agent's own hooks in the tool's
// section.
func takeOwnHook(f *fields, im *Imported, info *Info, src Source) {
	v, ok := f.peek("hooks")
	if !ok {
		return
	}
	rules, own, rest := withoutOwnHook(v, info.Name)
	if !own {
		return
	}
	f.take("hooks")
	im.HookRules, im.HookRulesWrong = hookRulesFile(rules, info, src)
	if rest != nil {
		im.Def.Target(info.Name).Fields.Set("hooks", rest)
	}
}

// hookRulesFile is where the rules the hook names (--rules, relative to
// the repository or home directory) are read from: a file of the tool's
// directory (info.Dir) by that name, in the directory of the agent file
// read; anything else is not read, and the second result says why.
func hookRulesFile(rules string, info *Info, src Source) (string, string) {
	base, ok := strings.CutPrefix(rules, info.Dir+"/")
	if !ok || base == "" || strings.ContainsAny(base, `/\`) || base == "." || base == ".." || !strings.HasSuffix(base, RulesExt) {
		return rules, fmt.Sprintf("the hook names its rules at %s, not a %s file in the tool's directory %s, so bn does not read them", rules, RulesExt, info.Dir)
	}
	return filepath.Join(filepath.Dir(src.Path), base), ""
}

// withoutOwnHook says whether hooks holds bn's PreToolUse entry for
// tool (the exact command HookCommand writes), returns the rules path
// that command names, and the hooks without it (nil when nothing is
// left).
func withoutOwnHook(hooks any, tool string) (string, bool, any) {
	m, ok := hooks.(*agents.Map)
	if !ok {
		return "", false, hooks
	}
	rules := ""
	pre, _ := m.Get("PreToolUse")
	list, _ := pre.([]any)
	kept := slices.DeleteFunc(slices.Clone(list), func(e any) bool {
		entry, _ := e.(*agents.Map)
		if entry == nil {
			return false
		}
		hs, _ := entry.Get("hooks")
		hl, _ := hs.([]any)
		for _, h := range hl {
			hm, _ := h.(*agents.Map)
			if hm == nil {
				continue
			}
			cmd, _ := hm.Get("command")
			s, _ := cmd.(string)
			if r, ok := hookRulesOf(s, tool); ok {
				if rules == "" {
					rules = r
				}
				return true
			}
		}
		return false
	})
	if len(kept) == len(list) {
		return "", false, hooks
	}
	out := &agents.Map{}
	for _, k := range m.Keys {
		if k == "PreToolUse" {
			if len(kept) > 0 {
				out.Set(k, kept)
			}
			continue
		}
		out.Set(k, m.Values[k])
	}
	if out.Len() == 0 {
		return rules, true, nil
	}
	return rules, true, out
}
