package dialect

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"unicode"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/frontmatter"
	"github.com/goccy/go-yaml"
	"github.com/pelletier/go-toml/v2"
)

// vibe is Mistral Vibe: agent profiles, TOML files named after the agent
// in .vibe/agents of the directory it starts in (a trusted folder), then
// ~/.vibe/agents ($VIBE_HOME), a project file winning; one named after a
// built-in agent replaces it. A profile is a layer of Vibe's config laid
// over the session's: display_name, description, safety and agent_type
// (agent, picked with --agent; subagent, started by the task tool) are
// its own, any other key a config key. The prompt is a file of its own,
// named by system_prompt_id: .vibe/prompts/<id>.md of the project, then
// ~/.vibe/prompts, then Vibe's own prompts (cli when none is named).
// enabled_tools, when not empty, is the only list read (globs and re:
// patterns, without case); else disabled_tools is a deny list. Per its
// sources (vibe/core/agents/models.py and manager.py, vibe/core/prompts,
// vibe/core/tools/manager.py, README "Custom Agent Configurations",
// mistralai/mistral-vibe v2.18.4); not verified by a client, which no
// registry here has.
type vibe struct{}

var vibeInfo = &Info{
	Name: "vibe", Title: "Mistral Vibe", Dir: ".vibe/agents", Ext: ".toml", ReadExts: []string{".toml"},
	Marks:       []string{".vibe/agents/"},
	Signature:   []string{"system_prompt_id", "agent_type", "enabled_tools", "disabled_tools", "safety"},
	NamedByFile: true,
	Doc: "`.vibe/agents/*.toml` of the directory it starts in (a trusted folder), then `~/.vibe/agents`; known by the file's name; " +
		"the prompt is `.vibe/prompts/<system_prompt_id>.md`, then `~/.vibe/prompts`; a project agent wins, and a file named after a built-in replaces it",
	Dirs: func(env Env) []SourceDir {
		return []SourceDir{{Path: filepath.Join(env.Cwd, ".vibe", "agents"), Location: ProjectLocation, Format: "vibe"},
			userDir(filepath.Join(env.Home, ".vibe", "agents"), "vibe")}
	},
	Companion: &Companion{Dir: "prompts", Ext: ".md", What: "prompt"},
	BuiltIns: []BuiltIn{{"default", Replaces}, {"plan", Replaces}, {"accept-edits", Replaces}, {"auto-approve", Replaces},
		{"explore", Replaces}, {"lean", Replaces}},
	MapID:  vibeID,
	IDRule: "no '.' (Vibe drops what follows one from the name of the prompt file), and not cli, tests or minimal (Vibe's own prompts, which other agents use)",
	// The built-in tools (vibe/core/tools/builtins), by the names
	// get_name gives their classes.
	Vocabulary: []Word{
		{Name: "read", Kinds: []agents.Kind{agents.KindRead}, Write: true},
		{Name: "grep", Kinds: []agents.Kind{agents.KindGrep}, Write: true},
		{Name: "edit", Kinds: []agents.Kind{agents.KindEdit}, Write: true},
		{Name: "write_file", Kinds: []agents.Kind{agents.KindCreate}, Write: true},
		{Name: "bash", Kinds: []agents.Kind{agents.KindShell}, Write: true},
		{Name: "web_fetch", Kinds: []agents.Kind{agents.KindWebFetch}, Write: true},
		{Name: "web_search", Kinds: []agents.Kind{agents.KindWebSearch}, Write: true},
		{Name: "task", Kinds: []agents.Kind{agents.KindAgent}, Write: true},
		{Name: "todo", Kinds: []agents.Kind{agents.KindTodo}, Write: true},
		{Name: "skill", Kinds: []agents.Kind{agents.KindSkill}, Write: true},
		{Name: "ask_user_question", Kinds: []agents.Kind{agents.KindAsk}, Write: true},
		{Name: "exit_plan_mode", Kinds: []agents.Kind{agents.KindPlan}, Write: true},
	},
	Fields: []FieldSpec{
		{Key: "enabled_tools", Hint: true, Check: checkStrings}, {Key: "disabled_tools", Hint: true, Check: checkStrings},
		{Key: "active_model", Hint: true, Check: checkString},
		{Key: "display_name", Doc: "the name Vibe shows (the file's name, title-cased, when left out)", Naming: true, Check: checkString},
		{Key: "safety", Doc: "safe, neutral, destructive or yolo: how Vibe marks the agent when it is picked", Check: checkEnum("safe", "neutral", "destructive", "yolo")},
		{Key: "tools", Doc: "each tool's settings: permission (always, ask or never), allowlist and denylist patterns, and the tool's own options", Check: checkMap},
		{Key: "bypass_tool_permissions", Doc: "every tool call runs without asking", Check: checkBool},
		{Key: "mcp_servers", Doc: "MCP servers added for the agent", Check: checkList, Runs: true},
		{Key: "tool_paths", Doc: "further directories or files of custom tools, loaded for the agent", Check: checkList, Runs: true},
	},
	// The other keys of Vibe's config (vibe/core/config/vibe_schema.py)
	// an agent file may set, kept as written.
	OtherKeys: []string{"models", "providers", "compaction_model", "compaction_prompt_id", "include_commit_signature",
		"include_model_info", "include_project_context", "include_prompt_detail", "enable_connectors", "connectors",
		"enabled_skills", "disabled_skills", "skill_paths", "project_context", "api_timeout"},
	Partial:    "widen",
	PartialWhy: "Mistral Vibe's tool lists hold tool names only: a name grants the whole tool",
	Setup:      "Mistral Vibe reads a project's .vibe/agents and .vibe/prompts only in a folder it trusts (it asks, or `vibe --trust`)",
	Exports:    true,
}

// vibeFile is how Vibe's lists read: an empty enabled_tools is none
// given, and a non-empty one makes disabled_tools ignored.
var vibeFile = &listFile{info: vibeInfo, tools: "enabled_tools", deny: "disabled_tools", emptyAll: true, allowWins: true}

// vibeOwnPrompts are Vibe's system prompts that agents other than one of
// the name use (cli is every built-in primary agent's): a prompt file of
// the name would replace them.
var vibeOwnPrompts = []string{"cli", "tests", "minimal"}

// vibeID keeps a name Vibe's prompt file can have: no '.', which its
// lookup reads as the start of the file's ending, and none of its own
// prompts' names, which would change other agents' prompts.
func vibeID(name string) string {
	id := strings.ReplaceAll(name, ".", "-")
	if slices.Contains(vibeOwnPrompts, strings.ToLower(id)) {
		id += "-agent"
	}
	return id
}

func (vibe) Info() *Info { return vibeInfo }

// vibeTitle is the name Vibe shows for an agent file without a
// display_name: its name with '-' a space, title-cased as Python's
// str.title does (a letter after one is lower case, any other upper).
func vibeTitle(name string) string {
	var b strings.Builder
	after := false
	for _, r := range strings.ReplaceAll(name, "-", " ") {
		if after {
			b.WriteRune(unicode.ToLower(r))
		} else {
			b.WriteRune(unicode.ToUpper(r))
		}
		after = unicode.IsLetter(r)
	}
	return b.String()
}

func (vibe) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	im := &Imported{Format: vibeInfo.Name, File: src.Path}
	m, err := readTOML(src.Data)
	if err != nil {
		return nil, fmt.Errorf("%w; Vibe does not load the agent", err)
	}
	f := &fields{}
	for _, k := range m.Keys {
		f.entries = append(f.entries, frontmatter.Entry{Key: k, Value: m.Values[k]})
	}
	name := strings.TrimSuffix(filepath.Base(filepath.FromSlash(src.Rel)), vibeInfo.Ext)
	if v, ok := f.take("name"); ok {
		im.drop("name %v not imported: Vibe knows an agent by its file's name, %s", agents.Plain(v), name)
	}
	id := "cli"
	if v, ok := f.take("system_prompt_id"); ok {
		id, _ = v.(string)
		if err := files.CheckSegment(id); err != nil {
			return nil, fmt.Errorf("system_prompt_id %v is not a bare file name (it %v); name a prompt file of .vibe/prompts", agents.Plain(v), err)
		}
	}
	prompt, data, err := vibePrompt(src, name, id)
	if err != nil {
		return nil, err
	}
	if src.Companion == nil {
		c := vibeInfo.Companion
		im.Companion, im.CompanionData = filepath.Join(c.CompanionDir(filepath.Dir(src.Path)), id+c.Ext), data
	}
	description := f.description()
	if description == "" {
		// Vibe lists an agent without one; bn needs one to list it.
		shown, _ := f.peek("display_name")
		if description, _ = shown.(string); strings.TrimSpace(description) == "" {
			description = vibeTitle(name)
		}
		im.note("no description: Vibe lists the agent without one; bn takes the name it shows, %q", description)
	}
	if err := setIdentity(im, vibeInfo, name, description, prompt, errEmptyBody); err != nil {
		return nil, err
	}
	if id != name {
		im.note("the prompt is %s%s, not named after the agent: bn writes it as %s%s", id, vibeInfo.Companion.Ext, vibeID(name), vibeInfo.Companion.Ext)
	}
	tools, hasTools := f.keep(im, vibeInfo.Name, "enabled_tools")
	denied, hasDeny := f.keep(im, vibeInfo.Name, "disabled_tools")
	if im.Def.Tools, err = vibeFile.readTools(reader{vibeInfo, im}, tools, hasTools, denied, hasDeny); err != nil {
		return nil, err
	}
	table, _ := f.peek("tools")
	bypass, _ := f.peek("bypass_tool_permissions")
	for _, name := range vibeNever(table) {
		switch w, known := (reader{vibeInfo, im}).word(name, false); {
		case bypass == true:
			im.note("tools.%s permission \"never\" has no effect: bypass_tool_permissions runs every call", name)
		case known:
			im.Def.Tools.Deny = appendNew(im.Def.Tools.Deny, kindPatterns(w.Kinds, "")...)
			if m, _ := table.(*agents.Map); m != nil {
				if settings, _ := m.Values[name].(*agents.Map); settings != nil {
					if _, some := settings.Get("allowlist"); some {
						im.Narrowed = append(im.Narrowed, w.Kinds...)
						im.note("tools.%s permission \"never\" with an allowlist: bn denies %s, though Vibe runs the calls the allowlist matches", name, name)
					}
				}
			}
		}
	}
	if denied := vibeDenylist(table); len(denied) > 0 {
		// Vibe refuses a command that is, or starts with, an entry and a
		// space: what shell(ENTRY) covers.
		im.Def.Tools.Deny = appendNew(im.Def.Tools.Deny, denied...)
		im.note("tools.bash denylist: bn denies %s, as Vibe refuses those commands", strings.Join(denied, ", "))
	}
	if v, ok := f.take("active_model"); ok {
		readModel(im, vibeInfo.Name, "active_model", v, cat)
	}
	switch v, _ := f.take("agent_type"); v {
	case nil, "agent":
		im.Def.Mode = "primary"
	case "subagent":
		im.Def.Mode = "subagent"
	default:
		return nil, fmt.Errorf("agent_type %v is neither agent nor subagent; Vibe does not load the agent", agents.Plain(v))
	}
	for _, e := range f.entries {
		if spec, ok := vibeInfo.field(e.Key); ok && spec.Check != nil {
			if err := spec.Check(e.Value); err != nil {
				return nil, fmt.Errorf("%s: %v; Vibe does not load the agent", e.Key, err)
			}
		}
		if slices.Contains(vibeInfo.OtherKeys, e.Key) {
			im.Def.Target(vibeInfo.Name).Fields.Set(e.Key, e.Value)
		}
	}
	f.entries = slices.DeleteFunc(f.entries, func(e frontmatter.Entry) bool { return slices.Contains(vibeInfo.OtherKeys, e.Key) })
	f.rest(im, vibeInfo)
	return im, nil
}

// vibePrompt reads the prompt an agent file names, as Vibe finds it
// beside the agents directory, without the marker line bn once wrote
// there; and the file as it is.
func vibePrompt(src Source, name, id string) (string, []byte, error) {
	c := vibeInfo.Companion
	data, err := src.companion(c, id+c.Ext)
	switch {
	case errors.Is(err, fs.ErrNotExist) && slices.Contains([]string{"cli", "explore", "tests", "lean", "minimal"}, strings.ToLower(id)):
		return "", nil, fmt.Errorf("the prompt is Vibe's own %q, which bn cannot import; write the agent's prompt to .vibe/%s/%s%s and set system_prompt_id = %q", id, c.Dir, name, c.Ext, name)
	case errors.Is(err, fs.ErrNotExist):
		return "", nil, fmt.Errorf("system_prompt_id %q: no %s%s in .vibe/%s beside the agents directory; Vibe refuses to start the agent unless ~/.vibe/%s has it, and bn reads the prompt beside the agent file only: put the prompt there", id, id, c.Ext, c.Dir, c.Dir)
	case err != nil:
		return "", nil, fmt.Errorf("the prompt %s%s: %w", id, c.Ext, err)
	}
	prompt := data
	if emit.IsGenerated(prompt) {
		_, prompt, _ = bytes.Cut(prompt, []byte("\n"))
	}
	return strings.TrimSpace(string(prompt)), data, nil
}

func (vibe) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	if id != vibeID(id) {
		return Rendered{}, fmt.Errorf("%q is not a name Vibe's prompt file can have (%s); give it another name there: %s { id \"…\" }", id, vibeInfo.IDRule, vibeInfo.Name)
	}
	d := &frontmatterDoc{}
	d.set("description", def.Description)
	d.set("system_prompt_id", id)
	losses := vibePromptLosses(def.Prompt)
	switch def.Mode {
	case "subagent", "":
		d.set("agent_type", "subagent")
	case "primary":
		d.set("agent_type", "agent")
	default:
		d.set("agent_type", "subagent")
		losses = append(losses, Loss{Field: "mode", Kind: Changed, Detail: "a Vibe agent is either picked with --agent or started by the task tool, not both: written as a subagent"})
	}
	tools, deny, _, _, tl := vibeFile.writeTools(&def, nil)
	// A shell deny the kept tools table's denylist holds is carried.
	table, _ := def.TargetOf(vibeInfo.Name).Fields.Get("tools")
	kept := vibeDenylist(table)
	losses = append(losses, slices.DeleteFunc(tl, func(l Loss) bool {
		return l.Kind == Widened && len(l.Grants) == 1 && slices.Contains(kept, l.Grants[0])
	})...)
	if tools != nil {
		d.set("enabled_tools", tools)
	}
	if deny != nil {
		d.set("disabled_tools", deny)
	}
	model, ml := writeModel(&def, vibeInfo, "active_model", cat)
	losses = append(losses, ml...)
	if model != nil {
		d.set("active_model", model)
	}
	for _, name := range vibeNever(table) {
		if w, ok := (reader{info: vibeInfo}).word(name, false); ok && slices.ContainsFunc(w.Kinds, func(k agents.Kind) bool {
			return agents.Decide(def.Tools, agents.ToolPattern{Kind: string(k)}).Allowed
		}) {
			losses = append(losses, Loss{Field: "vibe.tools", Kind: Changed, Detail: fmt.Sprintf("tools.%s permission \"never\" kept from the file: Vibe refuses %s, which the definition allows", name, name)})
		}
	}
	losses = append(losses, sectionFields(d, &def, vibeInfo)...)
	losses = append(losses, otherLosses(&def, vibeInfo, carried{"mode": true})...)
	content, err := d.toml(marker)
	if err != nil {
		return Rendered{}, fmt.Errorf("agent %q: cannot write Vibe's TOML: %w", def.Name, err)
	}
	// The prompt as the agent has it: Vibe reads the file whole, so a
	// marker there would be the model's too. The agent file's record of
	// it makes it bn's (emit.WithCompanion).
	prompt := strings.TrimSpace(def.Prompt) + "\n"
	return Rendered{Content: content, Companion: []byte(prompt), Losses: losses}, nil
}

// vibeNever lists the tools a profile's tools table sets to permission
// "never": Vibe refuses every call to them (but those a tool's allowlist
// matches).
func vibeNever(table any) []string {
	m, _ := table.(*agents.Map)
	if m == nil {
		return nil
	}
	var out []string
	for _, name := range m.Keys {
		if settings, _ := m.Values[name].(*agents.Map); settings != nil {
			if p, _ := settings.Get("permission"); p == "never" {
				out = append(out, name)
			}
		}
	}
	return out
}

// vibeDenylist lists, as shell patterns, the commands a profile's
// tools.bash denylist refuses.
func vibeDenylist(table any) []string {
	m, _ := table.(*agents.Map)
	v, _ := m.Get("bash")
	bash, _ := v.(*agents.Map)
	list, _ := bash.Get("denylist")
	entries, _ := list.([]any)
	var out []string
	for _, e := range entries {
		if c, ok := e.(string); ok && strings.TrimSpace(c) != "" {
			out = appendNew(out, "shell("+strings.TrimSpace(c)+")")
		}
	}
	return out
}

// vibePromptLosses says what Vibe makes of a prompt: it fills
// $current_date and turns $$ into $ (Python's string.Template).
func vibePromptLosses(prompt string) []Loss {
	var out []Loss
	for _, s := range []string{"$current_date", "${current_date}", "$$"} {
		if strings.Contains(prompt, s) {
			out = append(out, Loss{Field: "prompt", Kind: Changed, Detail: fmt.Sprintf("%s in the prompt: Vibe fills $current_date with the date and turns $$ into $", s)})
			break
		}
	}
	return out
}

// toml writes the document as TOML after the marker: plain keys first,
// then tables, as TOML needs.
func (d *frontmatterDoc) toml(marker string) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(marker)
	enc := toml.NewEncoder(&b)
	tables := map[string]any{}
	for _, it := range d.items {
		k, _ := it.Key.(string)
		v := plainYAML(it.Value)
		if _, isTable := v.(map[string]any); isTable {
			tables[k] = v
			continue
		}
		if err := enc.Encode(map[string]any{k: v}); err != nil {
			return nil, err
		}
	}
	if len(tables) > 0 {
		b.WriteByte('\n')
		if err := enc.Encode(tables); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

// plainYAML turns a document's value (yamlValue's) into plain Go data
// for the TOML encoder.
func plainYAML(v any) any {
	switch x := v.(type) {
	case yaml.MapSlice:
		out := make(map[string]any, len(x))
		for _, it := range x {
			out[fmt.Sprint(it.Key)] = plainYAML(it.Value)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = plainYAML(e)
		}
		return out
	}
	return v
}
