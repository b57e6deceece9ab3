package importer

import (
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// Format is an agent-file dialect.
type Format string

const (
	Claude   Format = "claude"
	Copilot  Format = "copilot"
	OpenCode Format = "opencode"
	Gemini   Format = "gemini"
	Codex    Format = "codex"
	OMP      Format = "omp"
)

// Formats lists the dialects bn reads.
var Formats = []Format{Claude, Copilot, OpenCode, Gemini, Codex, OMP}

// FormatChoices are the values a --from flag takes: auto, then each format.
func FormatChoices() []string {
	out := []string{"auto"}
	for _, f := range Formats {
		out = append(out, string(f))
	}
	return out
}

// Agent is one imported definition, in bn's terms.
type Agent struct {
	Name            string
	Description     string
	Model           string
	ReasoningEffort string
	Hidden          bool
	Tags            []string
	Allow, Deny     []string // bn tool patterns
	Prompt          string
	File            string
	Format          Format
	// Notes says what was read leniently, renamed, or not carried.
	Notes []string
	// Dropped lists what the source had that bn does not carry.
	Dropped []string
}

// Detect guesses the dialect of an agent file from where it lives and how
// it is named: .claude/agents, .github/agents or *.agent.md, .opencode/agent(s),
// .gemini/agents. Anything else is read as Claude Code's format.
func Detect(path string) Format {
	p := filepath.ToSlash(path)
	switch {
	case strings.HasSuffix(p, ".agent.md") || strings.Contains(p, ".github/agents/") || strings.Contains(p, ".copilot/agents/"):
		return Copilot
	case strings.Contains(p, "opencode/agent/") || strings.Contains(p, "opencode/agents/"):
		return OpenCode
	case strings.Contains(p, ".gemini/agents/"):
		return Gemini
	case strings.HasSuffix(p, ".toml"):
		return Codex
	case strings.Contains(p, ".omp/agents/") || strings.Contains(p, ".omp/agent/agents/"):
		return OMP
	}
	return Claude
}

// Read decodes one agent file. rel is the path under the directory it was
// found in (OpenCode names agents by it). An error means the owning tool
// would reject the file too.
func Read(path, rel string, src []byte, format Format) (*Agent, error) {
	var fields map[string]any
	var body string
	var notes []string
	var err error
	if format == Codex {
		fields, body, err = readCodex(src)
	} else {
		fields, body, notes, err = readFrontmatter(src)
	}
	if err != nil {
		return nil, err
	}
	a := &Agent{File: path, Format: format, Notes: notes, Prompt: strings.TrimSpace(body)}
	str := func(key string) string {
		v, _ := fields[key].(string)
		delete(fields, key)
		return strings.TrimSpace(v)
	}
	name := str("name")
	switch format {
	case Copilot: // the id is the file stem; name is only a display name
		a.Name = strings.TrimSuffix(strings.TrimSuffix(filepath.Base(path), ".md"), ".agent")
		if name != "" && name != a.Name {
			a.drop("display name %q not kept: Copilot agents are known by their file name", name)
		}
	case OpenCode: // the path under agent(s)/, unless the frontmatter names it
		a.Name = name
		if a.Name == "" {
			a.Name = strings.TrimSuffix(filepath.ToSlash(rel), ".md")
		}
	default:
		a.Name = name
	}
	if a.Name == "" {
		return nil, fmt.Errorf("no name: %s agents need a name field", format)
	}
	if clean := flatName(a.Name); clean != a.Name {
		a.Notes = append(a.Notes, fmt.Sprintf("renamed %q to %q: bn names hold letters, digits, '-', '_' and '.'", a.Name, clean))
		a.Name = clean
	}
	if err := agents.CheckName(a.Name); err != nil {
		return nil, err
	}
	a.Description = str("description")
	if a.Description == "" {
		return nil, fmt.Errorf("no description: %s agents need one", format)
	}
	if models := stringList(fields["model"]); format == OMP && len(models) > 1 {
		a.drop("model fallbacks %s not modeled by bn; kept %q", strings.Join(models[1:], ", "), models[0])
		fields["model"] = models[0]
	}
	a.Model = str("model")
	if a.Model == "inherit" {
		a.Model = ""
	}
	if a.Prompt == "" {
		return nil, fmt.Errorf("empty body: the body is the agent's prompt")
	}
	for _, tag := range stringList(fields["tags"]) {
		if strings.ContainsAny(tag, " \t") {
			a.drop("tag %q not imported: bn tags are single words", tag)
			continue
		}
		a.Tags = append(a.Tags, tag)
	}
	delete(fields, "tags")
	switch format {
	case Claude:
		a.Allow = a.mapTools(stringList(fields["tools"]), claudeTool)
		a.Deny = a.mapTools(stringList(fields["disallowedTools"]), claudeTool)
		delete(fields, "tools")
		delete(fields, "disallowedTools")
		if effort := str("effort"); effort != "" {
			a.setEffort(effort)
		}
	case Copilot:
		a.Allow = a.mapTools(stringList(fields["tools"]), copilotTool)
		delete(fields, "tools")
		if v, ok := fields["user-invocable"].(bool); ok {
			a.Hidden = !v
			delete(fields, "user-invocable")
		}
	case Gemini:
		a.Allow = a.mapTools(stringList(fields["tools"]), geminiTool)
		delete(fields, "tools")
	case Codex:
		if effort := str("model_reasoning_effort"); effort != "" {
			a.setEffort(effort)
		}
		switch sandbox := str("sandbox_mode"); sandbox {
		case "read-only": // the nearest bn has: no file edits
			a.Deny = []string{"write", "edit"}
		case "", "workspace-write":
		default:
			a.drop("sandbox_mode %q not modeled by bn", sandbox)
		}
	case OMP:
		a.Allow = a.mapTools(stringList(fields["tools"]), ompTool)
		delete(fields, "tools")
		if level := str("thinkingLevel"); level != "" {
			a.setEffort(level)
		}
	case OpenCode:
		if v, ok := fields["hidden"].(bool); ok {
			a.Hidden = v
			delete(fields, "hidden")
		}
		if perm, ok := fields["permission"].(map[string]any); ok {
			a.Allow, a.Deny = a.openCodePermissions(perm)
			delete(fields, "permission")
		}
		if mode := str("mode"); mode != "" && mode != "all" {
			a.drop("mode %q not modeled by bn", mode)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(fields)) {
		a.drop("%s not modeled by bn; not imported", key)
	}
	return a, nil
}

// drop records something the source had that bn does not carry.
func (a *Agent) drop(format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	a.Notes = append(a.Notes, msg)
	a.Dropped = append(a.Dropped, msg)
}

func (a *Agent) setEffort(e string) {
	if v, err := agents.ParseEnum(e, agents.ReasoningEfforts); err == nil {
		a.ReasoningEffort = v
	} else {
		a.drop("effort %q not imported: %v", e, err)
	}
}

var nameUnsafe = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// flatName makes a name bn can use: OpenCode's nested review/security
// becomes review-security.
func flatName(n string) string {
	return strings.Trim(strings.ReplaceAll(nameUnsafe.ReplaceAllString(n, "-"), "..", "."), "-._")
}

// mapTools turns a tool list in the source's vocabulary into bn patterns.
func (a *Agent) mapTools(tools []string, mapOne func(string) (string, bool)) []string {
	var out []string
	for _, t := range tools {
		p, known := mapOne(t)
		if _, err := agents.ParseToolPattern(p); err != nil {
			a.drop("tool %q not imported: %v", t, err)
			continue
		}
		if !known {
			a.Notes = append(a.Notes, fmt.Sprintf("tool %q is not one bn knows; kept as %q", t, p))
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

var claudeTools = map[string]string{
	"Read": "view", "NotebookRead": "view", "LS": "view", "Write": "write", "Edit": "edit", "MultiEdit": "edit",
	"NotebookEdit": "edit", "Bash": "shell", "Grep": "grep", "Glob": "glob", "WebFetch": "web_fetch",
	"WebSearch": "web_search", "Task": "task", "Agent": "task", "TodoWrite": "todo",
}

var claudePattern = regexp.MustCompile(`^([A-Za-z]+)\((.*)\)$`)

func claudeTool(t string) (string, bool) {
	if rest, ok := strings.CutPrefix(t, "mcp__"); ok {
		server, tool, hasTool := strings.Cut(rest, "__")
		if hasTool && tool != "*" {
			return server + "(" + tool + ")", true
		}
		return strings.TrimSuffix(server, "*"), true
	}
	if m := claudePattern.FindStringSubmatch(t); m != nil {
		if kind, ok := claudeTools[m[1]]; ok {
			return kind + "(" + m[2] + ")", true
		}
	}
	if kind, ok := claudeTools[t]; ok {
		return kind, true
	}
	return t, false
}

var copilotTools = map[string]string{
	"read": "view", "edit": "edit", "search": "grep", "execute": "shell", "shell": "shell", "agent": "task",
	"web": "web", "todo": "todo",
}

func copilotTool(t string) (string, bool) {
	if server, tool, ok := strings.Cut(t, "/"); ok {
		if tool == "*" {
			return server, true
		}
		return server + "(" + tool + ")", true
	}
	if kind, ok := copilotTools[strings.ToLower(t)]; ok {
		return kind, true
	}
	return claudeTool(t) // Copilot also accepts Claude's names
}

var geminiTools = map[string]string{
	"read_file": "view", "read_many_files": "view", "list_directory": "view", "write_file": "write", "replace": "edit",
	"grep_search": "grep", "search_file_content": "grep", "glob": "glob", "run_shell_command": "shell",
	"web_fetch": "web_fetch", "google_web_search": "web_search", "write_todos": "todo",
}

func geminiTool(t string) (string, bool) {
	if rest, ok := strings.CutPrefix(t, "mcp_"); ok {
		if server, tool, ok := strings.Cut(rest, "_"); ok && tool != "*" {
			return server + "(" + tool + ")", true
		}
		return strings.TrimSuffix(rest, "_*"), true
	}
	if kind, ok := geminiTools[t]; ok {
		return kind, true
	}
	return t, false
}

var ompTools = map[string]string{
	"read": "view", "ls": "view", "edit": "edit", "write": "write", "bash": "shell", "grep": "grep", "find": "glob",
	"web_fetch": "web_fetch", "web_search": "web_search", "task": "task", "todo_write": "todo",
}

func ompTool(t string) (string, bool) {
	if kind, ok := ompTools[strings.ToLower(t)]; ok {
		return kind, true
	}
	return t, false
}

var openCodeKinds = map[string]string{
	"edit": "edit", "read": "view", "list": "view", "grep": "grep", "glob": "glob", "lsp": "lsp", "bash": "shell",
	"task": "task", "webfetch": "web_fetch", "websearch": "web_search", "todowrite": "todo",
}

// openCodePermissions reads a permission map: key: allow|deny|ask, or
// bash: {glob: action}. "ask" is neither allowed nor denied in bn.
func (a *Agent) openCodePermissions(perm map[string]any) (allow, deny []string) {
	add := func(pattern, action string) {
		switch action {
		case "allow":
			allow = append(allow, pattern)
		case "deny":
			deny = append(deny, pattern)
		}
	}
	for _, key := range slices.Sorted(maps.Keys(perm)) {
		kind, ok := openCodeKinds[key]
		if !ok {
			a.drop("permission %q not modeled by bn; not imported", key)
			continue
		}
		switch v := perm[key].(type) {
		case string:
			add(kind, v)
		case map[string]any:
			for _, glob := range slices.Sorted(maps.Keys(v)) {
				action, _ := v[glob].(string)
				if kind != "shell" {
					a.drop("permission %s pattern %q not modeled by bn", key, glob)
					continue
				}
				cmd := strings.TrimSpace(strings.TrimSuffix(glob, "*"))
				switch {
				case glob == "*" && action == "deny":
					// OpenCode's catch-all; in bn anything not allowed is not allowed,
					// and a deny here would override the allowed patterns.
				case glob == "*":
					add("shell", action)
				case strings.HasSuffix(glob, " *"):
					add("shell("+cmd+":*)", action)
				default:
					add("shell("+glob+")", action)
				}
			}
		}
	}
	return allow, deny
}
