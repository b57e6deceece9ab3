package dialect

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/pelletier/go-toml/v2"
)

// codex is the Codex CLI: one TOML file per agent in .codex/agents (in a
// trusted project) and ~/.codex/agents, found recursively, known by its
// name key; the prompt is developer_instructions. An agent file is a
// config layer: it has no tool list, only the sandbox and approval
// settings and per-agent MCP servers. Unknown keys are errors. Per
// developers.openai.com/codex (subagents, config reference) and
// codex-rs agent_roles.rs, 2026.
type codex struct{}

var codexInfo = &Info{
	Name: "codex", Title: "Codex", Dir: ".codex/agents", Ext: ".toml", ReadExts: []string{".toml"}, Recursive: true,
	MCPKeys: []MCPKey{{"command", "command"}, {"args", "args"}, {"env", "env"}, {"cwd", "cwd"}, {"url", "url"},
		{"headers", "http_headers"}, {"tools", "enabled_tools"}, {"exclude-tools", "disabled_tools"},
		{"env_vars", "env_vars"}, {"bearer_token_env_var", "bearer_token_env_var"},
		{"env_http_headers", "env_http_headers"}, {"startup_timeout_sec", "startup_timeout_sec"},
		{"tool_timeout_sec", "tool_timeout_sec"}, {"enabled", "enabled"}, {"required", "required"}},
	Marks: []string{".codex/agents/", ".toml"},
	Doc:   "`.codex/agents/**/*.toml` (trusted projects only), then `~/.codex/agents`; known by `name`; a project agent replaces a built-in",
	Dirs: func(env Env) []SourceDir {
		return append(nearestDirs(env, ".codex/agents", "codex"), userDir(filepath.Join(env.Home, ".codex", "agents"), "codex"))
	},
	BuiltIns: []BuiltIn{{"default", Replaces}, {"explorer", Replaces}, {"worker", Replaces}},
	Partial:  "widen",
	PartialWhy: "Codex agent files have no tool list: `sandbox_mode` (read-only unless the agent may edit) and `web_search` " +
		"are their only limits, and Codex asks before commands the sandbox does not allow",
	Fields: []FieldSpec{
		{Key: "sandbox_mode", Hint: true, Check: checkEnum("read-only", "workspace-write", "danger-full-access")},
		{Key: "web_search", Hint: true, Check: checkEnum("disabled", "cached", "live")},
		{Key: "model", Hint: true, Check: checkString},
		{Key: "approval_policy", Doc: "untrusted, on-failure, on-request or never", Check: checkEnum("untrusted", "on-failure", "on-request", "never")},
		{Key: "nickname_candidates", Doc: "display names for spawned copies", Check: checkList},
		{Key: "model_provider", Doc: "a provider defined in config.toml", Check: checkString},
		{Key: "profile", Doc: "a config.toml profile", Check: checkString},
		{Key: "model_verbosity", Doc: "low, medium or high", Check: checkString},
		{Key: "model_reasoning_summary", Doc: "auto, concise, detailed or none", Check: checkString},
		{Key: "features", Doc: "feature flags", Check: checkMap},
		{Key: "skills", Doc: "skills configuration", Check: checkMap},
	},
	Setup: "Codex reads a project's .codex/agents only when ~/.codex/config.toml marks the project trusted " +
		`([projects."<dir>"] trust_level = "trusted"); export --trust adds that entry`,
	Trust:   codexTrust,
	Exports: true,
}

func (codex) Info() *Info { return codexInfo }

var codexEfforts = []string{"none", "minimal", "low", "medium", "high", "xhigh"}

func (c codex) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	im := &Imported{Format: codexInfo.Name, File: src.Path}
	doc := map[string]any{}
	if err := toml.Unmarshal(src.Data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, fmt.Errorf("invalid TOML at %d:%d: %s", line, col, de.Error())
		}
		return nil, fmt.Errorf("invalid TOML: %w", err)
	}
	data, err := agents.Data(doc)
	if err != nil {
		return nil, err
	}
	m := data.(*agents.Map)
	str := func(key string) string {
		v, _ := m.Get(key)
		m.Delete(key)
		s, _ := v.(string)
		return strings.TrimSpace(s)
	}
	if err := setIdentity(im, codexInfo, str("name"), str("description"), str("developer_instructions"),
		errors.New("no developer_instructions: Codex agents need them, and they are the prompt")); err != nil {
		return nil, err
	}
	keep := func(key string) (any, bool) {
		v, ok := m.Get(key)
		if ok {
			im.Def.Target(codexInfo.Name).Fields.Set(key, v)
			m.Delete(key)
		}
		return v, ok
	}
	sandbox, _ := keep("sandbox_mode")
	web, _ := keep("web_search")
	im.Def.Tools = codexTools(sandbox, web)
	switch sandbox {
	case "read-only":
		im.note("sandbox_mode \"read-only\": Codex runs its commands where they cannot change anything; other tools have no read-only shell, so bn denies shell, edit, create and notebook (Codex gets its read-only sandbox back)")
	case "workspace-write":
		im.note("sandbox_mode \"workspace-write\": Codex runs its commands where they can change only the workspace, without network; other tools run them with neither limit")
	}
	if v, ok := m.Get("model"); ok {
		m.Delete("model")
		readModel(im, codexInfo.Name, "model", v, cat)
	}
	readEffort(im, codexInfo.Name, "model_reasoning_effort", str("model_reasoning_effort"))
	if v, ok := m.Get("mcp_servers"); ok {
		m.Delete("mcp_servers")
		readMCPServers(im, codexInfo, v)
	}
	for _, k := range slices.Clone(m.Keys) {
		if slices.ContainsFunc(codexInfo.Fields, func(f FieldSpec) bool { return f.Key == k && !f.Hint }) {
			keep(k)
			continue
		}
		im.drop("%s is not a Codex agent field; not imported", k)
	}
	return im, nil
}

// codexTools reads what the sandbox and web search settings allow: every
// tool (an agent inherits the session's), without file changes and
// without shell in a read-only sandbox (whose commands change nothing: a
// shell of another tool would), without web search when it is disabled.
func codexTools(sandbox, web any) agents.Tools {
	t := agents.Tools{All: true}
	if sandbox == "read-only" {
		t.Deny = append(t.Deny, "write", string(agents.KindNotebook), string(agents.KindShell))
	}
	if web == "disabled" {
		t.Deny = append(t.Deny, string(agents.KindWebSearch))
	}
	return t
}

type codexHead struct {
	Name                 string `toml:"name"`
	Description          string `toml:"description"`
	Model                string `toml:"model,omitempty"`
	ModelReasoningEffort string `toml:"model_reasoning_effort,omitempty"`
	SandboxMode          string `toml:"sandbox_mode,omitempty"`
	WebSearch            string `toml:"web_search,omitempty"`
}

type codexBody struct {
	DeveloperInstructions string `toml:"developer_instructions,multiline"`
}

func (c codex) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	var losses []Loss
	head := codexHead{Name: id, Description: def.Description}
	model, ml := writeModel(&def, codexInfo, "model", cat)
	losses = append(losses, ml...)
	if s, ok := model.(string); ok {
		head.Model = s
	}
	effort, el := writeEffort(def.ReasoningEffort, codexEfforts, "model_reasoning_effort", codexInfo)
	losses = append(losses, el...)
	head.ModelReasoningEffort = effort
	sandbox, web, tl := c.tools(&def)
	losses = append(losses, tl...)
	head.SandboxMode, head.WebSearch = sandbox, web
	var b bytes.Buffer
	b.WriteString(marker)
	enc := toml.NewEncoder(&b)
	if err := enc.Encode(head); err != nil {
		return Rendered{}, fmt.Errorf("agent %q: cannot write Codex TOML: %w", def.Name, err)
	}
	t := def.TargetOf(codexInfo.Name)
	var tables []string
	for _, k := range t.Fields.Keys {
		v := t.Fields.Values[k]
		if codexInfo.IsHint(k) {
			continue
		}
		if _, isTable := v.(*agents.Map); isTable {
			tables = append(tables, k)
			continue
		}
		if err := enc.Encode(map[string]any{k: agents.Plain(v)}); err != nil {
			return Rendered{}, fmt.Errorf("agent %q: cannot write Codex TOML: %w", def.Name, err)
		}
	}
	if err := enc.Encode(codexBody{strings.TrimSpace(def.Prompt) + "\n"}); err != nil {
		return Rendered{}, fmt.Errorf("agent %q: cannot write Codex TOML: %w", def.Name, err)
	}
	all := map[string]any{}
	for _, k := range tables {
		all[k] = agents.Plain(t.Fields.Values[k])
	}
	if len(def.MCPServers) > 0 {
		m, l := mcpServerMap(def.MCPServers, codexInfo)
		losses = append(losses, l...)
		if m.Len() > 0 {
			all["mcp_servers"] = agents.Plain(m)
		}
	}
	if len(all) > 0 {
		if err := enc.Encode(all); err != nil {
			return Rendered{}, fmt.Errorf("agent %q: cannot write Codex TOML: %w", def.Name, err)
		}
	}
	losses = append(losses, otherLosses(&def, codexInfo, carried{"reasoning-effort": true, agents.NodeMCPServer: true, "mode": true, "hidden": true})...)
	if def.Hidden {
		losses = append(losses, Loss{Field: "hidden", Kind: Dropped, Detail: "Codex has no hidden agents"})
	}
	if def.Mode == "primary" {
		losses = append(losses, Loss{Field: "mode", Kind: Changed, Detail: "Codex starts agent files only as sub-agents"})
	}
	return Rendered{Content: b.Bytes(), Losses: losses}, nil
}

// tools chooses the sandbox and web search settings: a read-only sandbox
// when the agent may not change files, web search off when it may not
// search. Everything else Codex cannot limit per agent; what the agent
// gets beyond its definition is reported.
func (c codex) tools(def *agents.Definition) (sandbox, web string, losses []Loss) {
	t := def.TargetOf(codexInfo.Name).Fields
	sh, hasSandbox := t.Get("sandbox_mode")
	wh, hasWeb := t.Get("web_search")
	if (hasSandbox || hasWeb) && codexTools(sh, wh).Equal(def.Tools) {
		s, _ := sh.(string)
		w, _ := wh.(string)
		return s, w, nil
	}
	may := func(k agents.Kind) bool {
		return agents.Decide(def.Tools, agents.ToolPattern{Kind: string(k)}).Allowed
	}
	if !may(agents.KindEdit) && !may(agents.KindCreate) {
		sandbox = "read-only"
	}
	if !may(agents.KindWebSearch) {
		web = "disabled"
	}
	// Codex gives every agent every tool but what the sandbox and web
	// search settings take away; a kind the definition does not grant
	// whole (or limits by pattern) is a widening.
	limited := kindSet{}
	for _, r := range parseRules(append(slices.Clone(def.Tools.Allow), def.Tools.Deny...)) {
		if !r.whole() {
			limited.add(r.kinds...)
		}
	}
	var widened []string
	for _, ki := range agents.Kinds {
		k := ki.Kind
		if k == agents.KindEdit || k == agents.KindCreate || k == agents.KindWebSearch || k == agents.KindNotebook {
			continue // the sandbox and web search settings carry these
		}
		if !may(k) || limited.has(k) {
			widened = append(widened, string(k))
		}
	}
	if len(widened) > 0 {
		losses = append(losses, Loss{Field: "tools", Kind: Widened,
			Detail: fmt.Sprintf("Codex agent files have no tool lists: the agent gets %s, which its definition does not give it whole; sandbox_mode %q is the only limit", strings.Join(widened, ", "), orDefault(sandbox, "of the session"))})
	}
	for _, r := range parseRules(def.Tools.Deny) {
		switch {
		case r.native != "":
			losses = append(losses, foreignDeny(r, codexInfo))
		case r.mcp():
			losses = append(losses, Loss{Field: "tools", Kind: Widened,
				Detail: fmt.Sprintf("deny %q not carried: Codex agent files have no tool lists, so the MCP servers of the session stay allowed", r.text)})
		}
	}
	return sandbox, web, losses
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

// codexTrust marks the project trusted in ~/.codex/config.toml, after
// what the file already holds; a project it gives another trust level is
// an error, not overridden.
func codexTrust(root, home string, _ []Written) []FileEdit {
	return []FileEdit{{Path: filepath.Join(home, ".codex", "config.toml"), Edit: func(old []byte) ([]byte, error) {
		var cfg struct {
			Projects map[string]struct {
				TrustLevel string `toml:"trust_level"`
			} `toml:"projects"`
		}
		if err := toml.Unmarshal(old, &cfg); err != nil {
			return nil, err
		}
		if p, ok := cfg.Projects[root]; ok {
			if p.TrustLevel == "trusted" {
				return old, nil
			}
			return nil, fmt.Errorf("it gives %s trust_level %q; set it to \"trusted\" for Codex to load the project's agents", root, p.TrustLevel)
		}
		text := string(old)
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		if text != "" {
			text += "\n"
		}
		key, err := toml.Marshal(map[string]string{"k": root}) // a quoted TOML key
		if err != nil {
			return nil, err
		}
		quoted := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(string(key)), "k ="))
		return []byte(text + "[projects." + quoted + "]\ntrust_level = \"trusted\"\n"), nil
	}}}
}
