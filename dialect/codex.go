package dialect

import (
	"bytes"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/binnacle-dev/bn/agents"
	"github.com/pelletier/go-toml/v2"
)

// codex is the Codex CLI: one TOML file per agent in .codex/agents (in a
// trusted project) and ~/.codex/agents, found recursively, known by its
// name key; the prompt is developer_instructions. An agent file is a
// config layer laid over the parent session's when the main agent spawns
// it; it has no tool list, and Codex then puts back the parent's sandbox
// and approval policy and offers the parent's tools (codex-rs
// child_config.rs; probed: a read-only or web_search "disabled" agent
// ran commands and was offered web search), so sandbox_mode and
// web_search limit nothing. Unknown keys make Codex ignore the file. Per
// developers.openai.com/codex (subagents, config reference), 2026.
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
	PartialWhy: "Codex agent files cannot limit tools: a spawned agent gets every tool, in its parent session's sandbox and " +
		"approval policy (the probes saw an agent with `sandbox_mode = \"read-only\"` write a file); bn still writes `sandbox_mode = \"read-only\"` for an agent that may neither change files nor run commands, and `web_search = \"disabled\"` for one that may not search, " +
		"and reports every tool the agent gets beyond its definition",
	Fields: []FieldSpec{
		{Key: "sandbox_mode", Hint: true, Check: checkEnum("read-only", "workspace-write", "danger-full-access")},
		{Key: "web_search", Hint: true, Check: checkEnum("disabled", "cached", "live")},
		{Key: "model", Hint: true, Check: checkString},
		{Key: "approval_policy", Doc: "untrusted, on-failure, on-request or never; a spawned agent gets its parent session's instead", Check: checkEnum("untrusted", "on-failure", "on-request", "never")},
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
	OtherKeys: codexConfigKeys,
	Trust:     codexTrust,
	// The tools Codex offers a spawned agent (exec_command and
	// write_stdin are its shell; apply_patch edits and creates files).
	Runtime: []Word{
		{Name: "exec_command", Kinds: []agents.Kind{agents.KindShell}}, {Name: "write_stdin", Kinds: []agents.Kind{agents.KindShell}},
		{Name: "apply_patch", Kinds: []agents.Kind{agents.KindEdit, agents.KindCreate}},
		{Name: "view_image", Kinds: []agents.Kind{agents.KindRead}},
		{Name: "web_search", Kinds: []agents.Kind{agents.KindWebSearch}},
		{Name: "request_user_input", Kinds: []agents.Kind{agents.KindAsk}},
	},
	Exports:  true,
	AgentEnv: []string{"CODEX_THREAD_ID", "CODEX_SANDBOX"},
	Client:   "@openai/codex@0.169.0",
}

func (codex) Info() *Info { return codexInfo }

var codexEfforts = []string{"none", "minimal", "low", "medium", "high", "xhigh"}

func (c codex) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	im := &Imported{Format: codexInfo.Name, File: src.Path}
	m, err := readTOML(src.Data)
	if err != nil {
		return nil, err
	}
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
	// Codex ignores a whole agent file with a key or value it does not
	// take ("Ignoring malformed agent role definition"); so does bn.
	for _, k := range m.Keys {
		v, _ := m.Get(k)
		if spec, ok := codexInfo.field(k); ok && spec.Check != nil {
			if err := spec.Check(v); err != nil {
				return nil, fmt.Errorf("%s: %v; Codex ignores an agent file with a value it does not take", k, err)
			}
		} else if !ok && !slices.Contains(codexInfo.OtherKeys, k) && k != "mcp_servers" && k != "model_reasoning_effort" {
			msg := fmt.Sprintf("%s is not a key of a Codex agent file; Codex ignores the whole file (unknown field); remove it or fix its spelling", k)
			if hint := agents.DidYouMean(k, append(codexInfo.fieldKeys(), codexInfo.OtherKeys...)); hint != "" {
				msg += " (" + hint + ")"
			}
			return nil, errors.New(msg)
		}
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
	const ignored = "Codex does not apply it: a spawned agent runs in its parent session's sandbox, with every tool"
	switch sandbox {
	case "read-only":
		im.Narrowed = append(im.Narrowed, agents.KindShell, agents.KindEdit, agents.KindCreate, agents.KindNotebook)
		im.note("sandbox_mode \"read-only\": bn denies shell, edit, create and notebook, as the file asks, though %s", ignored)
	case "workspace-write", "danger-full-access":
		im.note("sandbox_mode %q has no effect: %s", sandbox, ignored)
	}
	if web == "disabled" {
		im.Narrowed = append(im.Narrowed, agents.KindWebSearch)
		im.note("web_search \"disabled\": bn denies websearch, as the file asks, though Codex offers a spawned agent its parent session's web search")
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
		keep(k) // a field bn documents, or another config.toml key: kept as written
	}
	return im, nil
}

// readTOML reads a TOML agent file's keys, in order, or says where it
// is not TOML.
func readTOML(data []byte) (*agents.Map, error) {
	doc := map[string]any{}
	if err := toml.Unmarshal(data, &doc); err != nil {
		var de *toml.DecodeError
		if errors.As(err, &de) {
			line, col := de.Position()
			return nil, fmt.Errorf("invalid TOML at %d:%d: %s", line, col, de.Error())
		}
		return nil, fmt.Errorf("invalid TOML: %w", err)
	}
	m, err := agents.Data(doc)
	if err != nil {
		return nil, err
	}
	return m.(*agents.Map), nil
}

// codexConfigKeys are the config.toml keys an agent file (a config
// layer) may also hold, beyond the fields bn documents: kept as written
// and not interpreted (codex-rs config_toml.rs, ConfigToml).
var codexConfigKeys = []string{
	"review_model", "model_context_window", "model_auto_compact_token_limit", "model_auto_compact_token_limit_scope",
	"approvals_reviewer", "auto_review", "shell_environment_policy", "allow_login_shell", "sandbox_workspace_write",
	"default_permissions", "permissions", "notify", "instructions", "include_permissions_instructions",
	"include_apps_instructions", "include_collaboration_mode_instructions", "include_environment_context",
	"model_instructions_file", "compact_prompt", "forced_chatgpt_workspace_id", "forced_login_method",
	"cli_auth_credentials_store", "mcp_oauth_credentials_store", "mcp_oauth_callback_port", "mcp_oauth_callback_url",
	"model_providers", "project_doc_max_bytes", "project_doc_fallback_filenames", "tool_output_token_limit",
	"background_terminal_max_timeout", "profiles", "history", "sqlite_home", "sqlite", "log_dir", "debug", "file_opener",
	"tui", "hide_agent_reasoning", "show_raw_agent_reasoning", "plan_mode_reasoning_effort",
	"model_supports_reasoning_summaries", "model_catalog_json", "personality", "service_tier", "chatgpt_base_url",
	"openai_base_url", "projects", "tools", "tool_suggest", "agents", "memories", "hooks", "plugins", "marketplaces",
	"suppress_unstable_features_warning", "project_root_markers", "check_for_update_on_startup", "disable_paste_burst",
	"analytics", "feedback", "apps", "otel", "windows", "notice", "oss_provider",
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
	b.Grow(len(marker) + len(def.Description) + len(def.Prompt) + 512)
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
		if m, ok := v.(*agents.Map); ok && k == agents.UnreadKey {
			losses = append(losses, Loss{Field: "codex." + k, Kind: Dropped,
				Detail: fmt.Sprintf("%s not written: Codex ignores an agent file with a key it does not know", strings.Join(m.Keys, ", "))})
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
	b.WriteString("developer_instructions = ")
	b.Write(appendTOMLMultiline(b.AvailableBuffer(), strings.TrimSpace(def.Prompt)+"\n"))
	b.WriteByte('\n')
	all := map[string]any{}
	for _, k := range tables {
		all[k] = agents.Plain(t.Fields.Values[k])
	}
	if len(def.MCPServers) > 0 {
		m, l := mcpServerMap(&def, codexInfo)
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
// search, as the file's own statement of the agent's limits. Codex
// applies neither to a spawned agent, so every kind the definition does
// not grant whole is a widening, reported.
func (c codex) tools(def *agents.Definition) (sandbox, web string, losses []Loss) {
	t := def.TargetOf(codexInfo.Name).Fields
	sh, hasSandbox := t.Get("sandbox_mode")
	wh, hasWeb := t.Get("web_search")
	may := func(k agents.Kind) bool {
		return agents.Decide(def.Tools, agents.ToolPattern{Kind: string(k)}).Allowed
	}
	if (hasSandbox || hasWeb) && codexTools(sh, wh).Equal(def.Tools) {
		sandbox, _ = sh.(string)
		web, _ = wh.(string)
	} else {
		// A read-only sandbox would also keep the agent's shell from
		// changing files: written only for an agent without a shell, so
		// that the file never says less than the definition.
		if !may(agents.KindEdit) && !may(agents.KindCreate) && !def.Tools.Uses(agents.KindShell) {
			sandbox = "read-only"
		}
		if !may(agents.KindWebSearch) {
			web = "disabled"
		}
	}
	limited := kindSet{}
	for _, r := range parseRules(append(slices.Clone(def.Tools.Allow), def.Tools.Deny...)) {
		if !r.whole() {
			limited.add(r.kinds...)
		}
	}
	var widened []string
	for _, ki := range agents.Kinds {
		if k := ki.Kind; !may(k) || limited.has(k) {
			widened = append(widened, string(k))
		}
	}
	if len(widened) > 0 {
		losses = append(losses, Loss{Field: "tools", Kind: Widened,
			Detail: fmt.Sprintf("Codex agent files cannot limit tools: the agent gets %s, which its definition does not give it whole, "+
				"in its parent session's sandbox (sandbox_mode and web_search in an agent file have no effect)", strings.Join(widened, ", ")), Grants: widened})
	}
	for _, r := range parseRules(def.Tools.Deny) {
		switch {
		case r.native != "":
			losses = append(losses, foreignDeny(r, codexInfo))
		case r.mcp():
			losses = append(losses, Loss{Field: "tools", Kind: Widened,
				Detail: fmt.Sprintf("deny %q not carried: Codex agent files have no tool lists, so the MCP servers of the session stay allowed", r.text), Grants: []string{r.text}})
		}
	}
	return sandbox, web, losses
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

// appendTOMLMultiline appends s, which holds a newline, as go-toml writes
// a multi-line basic string, byte for byte (a test and a fuzzer hold them
// together). go-toml appends it byte by byte, a sixth of an export to
// Codex; here each run of bytes that need no escape is appended whole.
func appendTOMLMultiline(b []byte, s string) []byte {
	b = append(b, "\"\"\"\n"...)
	for i := 0; i < len(s); {
		j := i
		for j < len(s) {
			c := s[j]
			if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' || c == '\n' || c == '\t' {
				j++
				continue
			}
			if c < utf8.RuneSelf {
				break
			}
			r, size := utf8.DecodeRuneInString(s[j:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			j += size
		}
		b = append(b, s[i:j]...)
		if i = j; i == len(s) {
			break
		}
		switch c := s[i]; c {
		case '"':
			// A run of three or more quotes would end the string.
			for j < len(s) && s[j] == '"' {
				j++
			}
			if j-i < 3 {
				b = append(b, s[i:j]...)
			} else {
				for range j - i {
					b = append(b, '\\', '"')
				}
			}
			i = j
		case '\\', '\b', '\f', '\r':
			b = append(b, '\\', `\bfr`[strings.IndexByte("\\\b\f\r", c)])
			i++
		default: // a control byte, or one that is not UTF-8
			b = fmt.Appendf(b, "\\u%04X", c)
			i++
		}
	}
	return append(b, "\"\"\""...)
}
