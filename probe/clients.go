package probe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/hookrules"
	"github.com/binnacle-dev/bn/kdl"
	"github.com/binnacle-dev/bn/resolver"
	"mvdan.cc/sh/v3/syntax"
)

// Observation is what a client did with one agent file.
type Observation struct {
	// Offered are the tools the client offered the agent, by its own
	// names, sorted; empty when it offered none.
	Offered []string `json:"offered"`
	// Call is the shell call the stand-in asked for, when the agent was
	// offered a shell, and what came of it.
	Call *Result `json:"call,omitempty"`
	// More are the results of the run's further uses (Run.Uses), in
	// order.
	More []*Result `json:"more,omitempty"`
	// Rejected is the client's reason for refusing to load the file.
	Rejected string `json:"rejected,omitempty"`
	// SubAgent: the client's main session started the agent as a
	// sub-agent, which is where the calls were made.
	SubAgent bool `json:"sub_agent,omitempty"`
}

// ShellProbe is the command the stand-in asks an agent with a shell to
// run: one no pattern of the fixtures allows.
const ShellProbe = "expr 4000 + 242"

// clientTimeout bounds every client run.
const clientTimeout = 120 * time.Second

// run starts a client in dir with env, under clientTimeout, and returns
// its combined output.
func run(ctx context.Context, dir string, env []string, bin string, args ...string) (string, error) {
	return runFor(ctx, clientTimeout, dir, env, bin, args...)
}

// runFor is run under another timeout (a run of many agents). The client
// runs in a process group of its own, killed whole on the timeout or when
// ctx is done: a client is often a launcher (node, a shell script) whose
// children would outlive it.
func runFor(ctx context.Context, timeout time.Duration, dir string, env []string, bin string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir, cmd.Env = dir, env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := start(cmd)
	if err == nil {
		err = cmd.Wait()
	}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return out.String(), fmt.Errorf("%s timed out after %s", filepath.Base(bin), timeout)
	case ctx.Err() != nil:
		return out.String(), fmt.Errorf("%s stopped: %w", filepath.Base(bin), context.Cause(ctx))
	}
	return out.String(), err
}

// start starts cmd, made by exec.CommandContext, in a process group of
// its own, killed whole when its context is done.
func start(cmd *exec.Cmd) error {
	setProcessGroup(cmd)
	cmd.Cancel = func() error { killProcessGroup(cmd); return nil }
	// A child that left the group may hold the output open: Wait gives up
	// on it a while after the kill.
	cmd.WaitDelay = 5 * time.Second
	return cmd.Start()
}

// sandbox makes a temporary home and a project holding the run's agent
// file where the tool's export writes it, trusted as export --trust
// leaves it (so that the client loads the file and runs its hooks), and
// returns the environment every client gets: nothing of the user's, no
// network but 127.0.0.1.
func sandbox(tool string, r Run) (home, proj string, env []string, err error) {
	root, err := os.MkdirTemp("", "bn-probe-")
	if err != nil {
		return "", "", nil, err
	}
	home, proj = filepath.Join(root, "home"), filepath.Join(root, "proj")
	d, _ := dialect.All().Lookup(tool)
	info := d.Info()
	file := filepath.Join(proj, filepath.FromSlash(info.Dir), r.Name+info.Ext)
	if err := os.MkdirAll(filepath.Join(proj, ".git"), 0o755); err != nil {
		return "", "", nil, err
	}
	if err := writeFile(file, r.File); err != nil {
		return "", "", nil, err
	}
	for rel, content := range r.Files {
		if err := writeFile(filepath.Join(proj, filepath.FromSlash(rel)), content); err != nil {
			return "", "", nil, err
		}
	}
	if err := hooked(info, proj, r); err != nil {
		return "", "", nil, err
	}
	if err := trust(info, proj, home, file, r.File); err != nil {
		return "", "", nil, err
	}
	env = baseEnv(home)
	return home, proj, append(env, r.Env...), nil
}

// baseEnv is the environment every client gets: nothing of the user's,
// no network but 127.0.0.1.
func baseEnv(home string) []string {
	return []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TMPDIR=" + os.TempDir(), "NO_PROXY=127.0.0.1", "no_proxy=127.0.0.1",
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"), "XDG_STATE_HOME=" + filepath.Join(home, ".local", "state")}
}

// hooked writes, for an agent file that carries bn's hook, what the hook
// decides from: the rules export compiles beside the file, and a project
// layer whose config.kdl gives them (the definition, its tools reset).
func hooked(info *dialect.Info, proj string, r Run) error {
	if r.Def == nil || len(dialect.HookKinds(info, r.Def)) == 0 {
		return nil
	}
	rules := hookrules.Encode(hookrules.New(r.Def, info.Name, resolver.Committed), emit.Marker("bn config agents export --target "+info.Name))
	if err := writeFile(filepath.Join(proj, filepath.FromSlash(dialect.RulesPath(info, r.Name))), string(rules)); err != nil {
		return err
	}
	layer := filepath.Join(proj, ".binnacle", "agents", "config.kdl")
	doc, err := config.Decoder{Sections: dialect.All()}.Edit(layer, kdl.V2)
	if err != nil {
		return err
	}
	if err := doc.SetAgent(r.Def.Name, config.AgentNode(*r.Def, config.NodeOptions{ResetTools: true})); err != nil {
		return err
	}
	return writeFile(layer, string(doc.Bytes()))
}

// cleanup removes a sandbox.
func cleanup(proj string) { os.RemoveAll(filepath.Dir(proj)) }

// session makes the run's sandbox and starts the stand-in the client will
// talk to; done stops the one and removes the other.
func session(tool string, r Run, s *Standin) (home, proj string, env []string, done func(), err error) {
	home, proj, env, err = sandbox(tool, r)
	if err != nil {
		return "", "", nil, nil, err
	}
	if err := s.Start(); err != nil {
		cleanup(proj)
		return "", "", nil, nil, err
	}
	return home, proj, env, func() { s.Close(); cleanup(proj) }, nil
}

// Claude runs Claude Code as the agent (claude --agent NAME -p), with
// permissions bypassed, so that only the agent's own limits and hooks
// stand between a call and its running.
func Claude(r Run) (Observation, error) {
	s := &Standin{}
	_, proj, env, done, err := session("claude", r, s)
	if err != nil {
		return Observation{}, err
	}
	defer done()
	r.ask(s, proj, claudeSpelling)
	env = append(env, claudeEnv(s.URL)...)
	out, err := run(r.ctx(), proj, env, r.Bin, claudeArgs(r.Name, "run the command you are asked to run")...)
	return observed(s, "claude", out, err, r)
}

// claudeArgs run Claude Code as agent (the main session when ""), once,
// with permissions bypassed, so that only the agent's own limits and
// hooks stand between a call and its running.
func claudeArgs(agent, prompt string) []string {
	args := []string{"-p", promptWord + ": " + prompt, "--dangerously-skip-permissions", "--model", "claude-sonnet-4-5"}
	if agent == "" {
		return args
	}
	return append([]string{"--agent", agent}, args...)
}

// claudeSpelling is how Claude Code runs a command and writes a file.
var claudeSpelling = spelling{
	shell: func(c string) *Call {
		return &Call{Tool: "Bash", Input: map[string]any{"command": c, "description": "probe"}}
	},
	write: func(p string) *Call {
		return &Call{Tool: "Write", Input: map[string]any{"file_path": p, "content": "bn probe\n"}}
	},
}

// claudeEnv points Claude Code at a stand-in, with permissions
// bypassable (as root, too) and nothing else reaching out.
func claudeEnv(url string) []string {
	return []string{"ANTHROPIC_BASE_URL=" + url, "ANTHROPIC_API_KEY=probe", "IS_SANDBOX=1", "DISABLE_AUTOUPDATER=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1"}
}

// ClaudePlugin installs the run's agent file as a Claude Code plugin, as
// export writes one (its manifest, and a marketplace in the project that
// lists it), from that local marketplace (claude plugin marketplace add,
// claude plugin install), and runs Claude Code as the plugin's agent
// (claude --agent PLUGIN:NAME -p), with permissions bypassed.
func ClaudePlugin(r Run) (Observation, error) {
	s := &Standin{}
	_, proj, env, name, done, err := pluginSession(r, s)
	if err != nil {
		return Observation{}, err
	}
	defer done()
	r.ask(s, proj, claudeSpelling)
	env = append(env, claudeEnv(s.URL)...)
	if err := r.install(proj, env, marketplace(proj, name)...); err != nil {
		return Observation{}, err
	}
	out, err := run(r.ctx(), proj, env, r.Bin, claudeArgs(name+":"+r.Name, "run the command you are asked to run")...)
	return observed(s, "claude-plugin", out, err, r)
}

// pluginSession is the run's session with its agent file in a Claude Code
// plugin as export writes one: the plugin's manifest, and a marketplace
// in the project that lists it, both named after the project (name).
func pluginSession(r Run, s *Standin) (home, proj string, env []string, name string, done func(), err error) {
	home, proj, env, done, err = session("claude-plugin", r, s)
	if err != nil {
		return "", "", nil, "", nil, err
	}
	d, _ := dialect.All().Lookup("claude-plugin")
	info := d.Info()
	for _, w := range info.Package(proj, filepath.Join(proj, filepath.FromSlash(info.Dir)), "") {
		if err := writeFile(w.Path, string(w.Content)); err != nil {
			done()
			return "", "", nil, "", nil, err
		}
	}
	return home, proj, env, filepath.Base(proj), done, nil
}

// install runs the client's install commands, one after another.
func (r Run) install(proj string, env []string, commands ...[]string) error {
	for _, args := range commands {
		if out, err := run(r.ctx(), proj, env, r.Bin, args...); err != nil {
			return fmt.Errorf("%s %s: %v\n%s", filepath.Base(r.Bin), strings.Join(args, " "), err, out)
		}
	}
	return nil
}

// marketplace are the commands that install the plugin name from the
// marketplace proj (Claude Code's, Droid's).
func marketplace(proj, name string) [][]string {
	return [][]string{{"plugin", "marketplace", "add", proj}, {"plugin", "install", name + "@" + name}}
}

// command is the shell command the stand-in asks for.
func (r Run) command() string {
	if r.Command == "" {
		return ShellProbe
	}
	return r.Command
}

// uses are the tool uses the stand-in asks for, in order.
func (r Run) uses() []Use {
	if len(r.Uses) > 0 {
		return r.Uses
	}
	return []Use{{Command: r.command()}}
}

// spelling is how a client's tools are called: a shell command, and a
// write of a new file (an absolute path); nil when the stand-in does not
// ask the client for writes.
type spelling struct {
	shell func(command string) *Call
	write func(path string) *Call
}

// ask sets the stand-in's calls for the run's uses in the project proj.
func (r Run) ask(s *Standin, proj string, sp spelling) {
	var calls []*Call
	for _, u := range r.uses() {
		switch {
		case u.Path != "" && sp.write != nil:
			calls = append(calls, sp.write(filepath.Join(proj, filepath.FromSlash(u.Path))))
		case u.Path != "":
			calls = append(calls, &Call{Tool: "bn-no-write-tool"}) // never offered: recorded as not asked
		default:
			calls = append(calls, sp.shell(u.Command))
		}
	}
	s.Ask, s.Then = calls[0], calls[1:]
}

// observed turns what the stand-in saw into an observation of the run.
func observed(s *Standin, client, out string, runErr error, r Run) (Observation, error) {
	offered, seen, _ := s.Observed()
	if !seen {
		if runErr == nil {
			runErr = errors.New("it exited without asking the model")
		}
		return Observation{}, fmt.Errorf("%s never reached the stand-in: %v\n%s", client, runErr, strings.TrimSpace(out))
	}
	o := Observation{Offered: sorted(offered), SubAgent: s.Via != nil}
	uses := r.uses()
	for i, res := range s.Results() {
		if i >= len(uses) {
			break
		}
		res.Output = firstLine(res.Output)
		if u := uses[i]; u.Path != "" {
			res.Path = u.Path
		} else if u.Command != ShellProbe {
			res.Command = u.Command
		}
		if i == 0 {
			o.Call = res
		} else {
			o.More = append(o.More, res)
		}
	}
	if o.Call != nil && o.Call.NotOffered && len(o.More) == 0 {
		o.Call = nil // the one call was not asked: as before, no call
	}
	return o, nil
}

func sorted(list []string) []string {
	out := slices.Clone(list)
	slices.Sort(out)
	if out == nil {
		out = []string{}
	}
	return out
}

// firstLine keeps a call's output short and stable in a golden file: its
// first line that is not a wrapping tag (Gemini wraps output in
// <untrusted_context>).
func firstLine(s string) string {
	for _, line := range strings.Split(strings.TrimSpace(s), "\n") {
		if line = strings.TrimSpace(line); !strings.HasPrefix(line, "<") || !strings.HasSuffix(line, ">") {
			s = line
			break
		}
	}
	if len(s) > 120 {
		s = s[:120]
	}
	return s
}

// Copilot runs the Copilot CLI as the agent (copilot --agent NAME -p),
// offline against the stand-in, with every tool allowed (unless the run
// gives its own permission flags), so that only the agent file limits
// what runs.
func Copilot(r Run) (Observation, error) {
	s := &Standin{}
	home, proj, env, done, err := session("copilot", r, s)
	if err != nil {
		return Observation{}, err
	}
	defer done()
	r.ask(s, proj, copilotSpelling)
	env = append(env, copilotEnv(home, s.URL)...)
	perms := r.Permissions
	if perms == nil {
		perms = []string{"--allow-all-tools"}
	}
	out, err := run(r.ctx(), proj, env, r.Bin, append([]string{
		"--agent", r.Name, "--model", "probe-model", "-p", promptWord + ": run the command you are asked to run", "--no-auto-update"}, perms...)...)
	return observed(s, "copilot", out, err, r)
}

// copilotEnv points the Copilot CLI, its home in home, at a stand-in
// (url), offline and never updating itself.
func copilotEnv(home, url string) []string {
	return []string{"COPILOT_HOME=" + filepath.Join(home, ".copilot"), "COPILOT_AUTO_UPDATE=false", "COPILOT_OFFLINE=true",
		"COPILOT_PROVIDER_BASE_URL=" + url + "/v1", "COPILOT_PROVIDER_API_KEY=probe"}
}

// copilotSpelling is how the Copilot CLI runs a command and writes a
// file.
var copilotSpelling = spelling{
	shell: func(c string) *Call {
		return &Call{Tool: "bash", Input: map[string]any{"command": c, "description": "probe", "mode": "sync", "initial_wait": 30}}
	},
	write: func(p string) *Call {
		return &Call{Tool: "create", Input: map[string]any{"path": p, "file_text": "bn probe\n"}}
	},
}

// geminiSpelling is how the Gemini CLI, and Qwen Code after it, call
// their shell and write a file.
var geminiSpelling = spelling{
	shell: func(c string) *Call {
		return &Call{Tool: "run_shell_command", Input: map[string]any{"command": c, "description": "probe"}}
	},
	write: func(p string) *Call {
		return &Call{Tool: "write_file", Input: map[string]any{"file_path": p, "content": "bn probe\n"}}
	},
}

// Gemini runs the Gemini CLI (gemini -p) with every call approved
// (--yolo) and has its main agent hand the work to the agent under test,
// a sub-agent (invoke_agent): the sub-agent's first request shows the
// tools it is offered. The folder is trusted and the agent acknowledged
// as export --trust does.
func Gemini(r Run) (Observation, error) {
	s := &Standin{
		Via:    &Call{Tool: "invoke_agent", Input: map[string]any{"agent_name": r.Name, "prompt": promptWord + ": run the command you are asked to run"}},
		Finish: &Call{Tool: "complete_task", Input: map[string]any{"result": "done"}},
	}
	home, proj, env, done, err := session("gemini", r, s)
	if err != nil {
		return Observation{}, err
	}
	defer done()
	r.ask(s, proj, geminiSpelling)
	if err := writeFile(filepath.Join(home, ".gemini", "settings.json"), `{"security":{"auth":{"selectedType":"gemini-api-key"}}}`); err != nil {
		return Observation{}, err
	}
	env = append(env, "GOOGLE_GEMINI_BASE_URL="+s.URL, "GEMINI_API_KEY=probe", "GEMINI_CLI_NO_RELAUNCH=true")
	out, err := run(r.ctx(), proj, env, r.Bin, "-m", "gemini-2.5-flash", "--yolo", "-p", promptWord+": hand the work to "+r.Name)
	if _, why, ok := strings.Cut(out, "Template validation failed: "); ok {
		// A prompt naming a ${name} the Gemini CLI has no input for: it
		// loads the agent and refuses to start it.
		return Observation{Offered: []string{}, Rejected: "Template validation failed: " + strings.SplitN(why, "\n", 2)[0]}, nil
	}
	if _, loadErr, ok := strings.Cut(out, "Agent loading error: "); ok {
		// "Failed to load agent from PATH: Validation failed: …\nREASON"
		lines := strings.SplitN(loadErr, "\n", 3)
		reason := lines[0]
		if len(lines) > 1 {
			reason = strings.TrimSpace(lines[1])
		}
		return Observation{Offered: []string{}, Rejected: reason}, nil
	}
	return observed(s, "gemini", out, err, r)
}

// Qwen runs Qwen Code (qwen -p, approving every call) against the
// stand-in as an OpenAI-compatible provider, and has its main agent start
// the agent under test with its agent tool.
func Qwen(r Run) (Observation, error) {
	// A file Qwen Code's validator refuses is not loaded: the agent tool
	// answers that the sub-agent is not found.
	var rejected atomic.Value
	s := &Standin{
		Via: &Call{Tool: "agent", Input: map[string]any{"subagent_type": r.Name, "description": "probe",
			"prompt": promptWord + ": run the command you are asked to run"}},
		Nested: true,
		Await: func(result string) *Call {
			if strings.Contains(result, "Subagent \""+r.Name+"\" not found") {
				rejected.Store("not found: the validator refused the file")
			}
			return nil
		},
		// A prompt naming a ${name} Qwen Code has no value for: the
		// background agent's failure comes back in a later turn.
		Watch: func(body []byte) {
			if m := missingContext.FindSubmatch(body); m != nil {
				rejected.Store("Missing context values for the following keys: " + string(m[1]))
			}
		},
	}
	home, proj, env, done, err := session("qwen", r, s)
	if err != nil {
		return Observation{}, err
	}
	defer done()
	r.ask(s, proj, geminiSpelling)
	qenv, args, err := qwenSetup(home, s.URL, r.Name)
	if err != nil {
		return Observation{}, err
	}
	out, err := run(r.ctx(), proj, append(env, qenv...), r.Bin, args...)
	if why, ok := rejected.Load().(string); ok {
		return Observation{Offered: []string{}, Rejected: why}, nil
	}
	return observed(s, "qwen", out, err, r)
}

// qwenSetup writes Qwen Code's settings in home: the stand-in's API, and
// folder trust on, as a careful user has it (the project is trusted only
// as export --trust leaves it). It returns the environment that points
// Qwen Code at the stand-in (url) and the arguments that have it hand the
// work to agent, every call approved (--yolo).
func qwenSetup(home, url, agent string) (env, args []string, err error) {
	if err := writeFile(filepath.Join(home, ".qwen", "settings.json"), `{"security":{"auth":{"selectedType":"openai"},"folderTrust":{"enabled":true}},"telemetry":{"enabled":false}}`); err != nil {
		return nil, nil, err
	}
	return []string{"OPENAI_BASE_URL=" + url + "/v1", "OPENAI_API_KEY=probe", "OPENAI_MODEL=probe-model"},
		[]string{"--yolo", "--auth-type", "openai", "-m", "probe-model", "-p", promptWord + ": hand the work to " + agent}, nil
}

// Codex runs the Codex CLI (codex exec) with no sandbox (exec asks for no
// approvals), so that only the agent file limits what runs, and has its
// main agent start the agent under test (spawn_agent, whose first request
// shows the tools it is offered) and wait for it (wait_agent). The project
// is trusted as export --trust leaves it.
func Codex(r Run) (Observation, error) {
	s := &Standin{
		Via: &Call{Tool: "multi_agent_v1.spawn_agent", Deferred: true, Input: map[string]any{"agent_type": r.Name,
			"message": promptWord + ": run the command you are asked to run"}},
		Await: func(spawned string) *Call {
			var out struct {
				AgentID string `json:"agent_id"`
			}
			json.Unmarshal([]byte(spawned), &out)
			return &Call{Tool: "multi_agent_v1.wait_agent", Deferred: true, Input: map[string]any{"targets": []string{out.AgentID}, "timeout_ms": 60000}}
		},
	}
	home, proj, env, done, err := session("codex", r, s)
	if err != nil {
		return Observation{}, err
	}
	defer done()
	// Codex writes files with apply_patch only: the stand-in asks for
	// commands.
	r.ask(s, proj, spelling{shell: func(c string) *Call { return &Call{Tool: "exec_command", Input: map[string]any{"cmd": c}} }})
	// Top-level keys go before the tables trust wrote.
	config := filepath.Join(home, ".codex", "config.toml")
	trusted, _ := os.ReadFile(config)
	provider := "model = \"gpt-5.5\"\nmodel_provider = \"probe\"\n\n" + string(trusted) +
		"\n[model_providers.probe]\nname = \"probe\"\nbase_url = \"" + s.URL + "/v1\"\nenv_key = \"PROBE_API_KEY\"\nwire_api = \"responses\"\n"
	if err := writeFile(config, provider); err != nil {
		return Observation{}, err
	}
	env = append(env, "PROBE_API_KEY=probe")
	// exec never asks for approval; --dangerously-bypass-approvals-and-sandbox
	// would also take the sub-agent tools away.
	out, err := run(r.ctx(), proj, env, r.Bin, "exec", "--sandbox", "danger-full-access", "--skip-git-repo-check",
		promptWord+": hand the work to "+r.Name)
	if _, loadErr, ok := strings.Cut(out, "Ignoring malformed agent role definition: "); ok {
		// "… agent role file at PATH: REASON" or "… at PATH must …"
		reason := strings.ReplaceAll(strings.SplitN(loadErr, "\n", 2)[0], filepath.Dir(proj)+string(filepath.Separator), "")
		return Observation{Offered: []string{}, Rejected: reason}, nil
	}
	return observed(s, "codex", out, err, r)
}

// trust makes the edits export --trust makes for the tool's agent file
// at path: the tool's own, and those its hooks need.
func trust(info *dialect.Info, proj, home, path, file string) error {
	var edits []dialect.FileEdit
	if info.Trust != nil {
		edits = info.Trust(proj, home, []dialect.Written{{Path: path, Content: []byte(file)}})
	}
	if info.Hook != nil && info.Hook.Trust != nil {
		edits = append(edits, info.Hook.Trust(proj, home)...)
	}
	for _, e := range edits {
		old, _ := os.ReadFile(e.Path)
		b, err := e.Edit(old)
		if err != nil {
			return err
		}
		if err := writeFile(e.Path, string(b)); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return os.WriteFile(path, []byte(content), 0o644)
}

// OpenCode asks OpenCode how it resolved the agent (opencode debug agent
// NAME): the tools it offers, and its rules, with which the shell probe is
// judged as OpenCode judges a command (the last matching rule wins).
func OpenCode(r Run) (Observation, error) { return debugAgent("opencode", r) }

// Kilo asks Kilo, built on OpenCode, the same (kilo debug agent NAME).
func Kilo(r Run) (Observation, error) { return debugAgent("kilo", r) }

// debugAgent runs tool's debug agent NAME in a sandbox holding the file.
func debugAgent(tool string, r Run) (Observation, error) {
	_, proj, env, err := sandbox(tool, r)
	if err != nil {
		return Observation{}, err
	}
	defer cleanup(proj)
	out, err := run(r.ctx(), proj, env, r.Bin, "debug", "agent", r.Name)
	if why, ok := invalidConfig(out); ok {
		return Observation{Offered: []string{}, Rejected: why}, nil
	}
	if strings.Contains(out, "Agent "+r.Name+" not found") {
		// Kilo leaves out a file its schema rejects, and loads the rest.
		return Observation{Offered: []string{}, Rejected: "not found: the file was not loaded"}, nil
	}
	if err != nil {
		return Observation{}, fmt.Errorf("%s debug agent %s: %v\n%s", tool, r.Name, err, out)
	}
	var agent struct {
		Tools      map[string]bool `json:"tools"`
		Permission []openCodeRule  `json:"permission"`
	}
	if i := strings.IndexByte(out, '{'); i < 0 || json.Unmarshal([]byte(out[i:]), &agent) != nil {
		return Observation{}, fmt.Errorf("%s debug agent %s printed no agent:\n%s", tool, r.Name, out)
	}
	var offered []string
	for t, on := range agent.Tools {
		if on {
			offered = append(offered, t)
		}
	}
	o := judgeRules(r, slices.Collect(maps.Keys(agent.Tools)), agent.Permission)
	// verify reads the rules alone (Server): they must say what the
	// client offers.
	if !slices.Equal(o.Offered, sorted(slices.DeleteFunc(offered, func(t string) bool { return t == "invalid" }))) {
		return Observation{}, fmt.Errorf("%s debug agent %s offers %v, where bn reads its rules as offering %v", tool, r.Name, sorted(offered), o.Offered)
	}
	return o, nil
}

// openCodeRule is one of the permission rules OpenCode resolved for an
// agent: the last rule whose permission and pattern match a use decides.
type openCodeRule struct {
	Permission, Pattern, Action string
}

// openCodeEdits are the tools OpenCode's edit permission governs.
var openCodeEdits = []string{"edit", "write", "patch", "multiedit", "apply_patch"}

// judgeRules observes what OpenCode (or Kilo) grants an agent from the
// rules it resolved: the tools of its registry (ids) it offers, which are
// those the last rule matching the tool's permission does not deny for
// every pattern, and whether each of the run's uses would run (the last
// rule matching its permission and argument; ask is the user's approval,
// which bn counts as allowed).
func judgeRules(r Run, ids []string, rules []openCodeRule) Observation {
	permission := func(tool string) string {
		if slices.Contains(openCodeEdits, tool) {
			return "edit"
		}
		return tool
	}
	decide := func(perm, arg string) string {
		action := ""
		for _, rule := range rules {
			if wildcard(rule.Permission, perm) && wildcard(rule.Pattern, arg) {
				action = rule.Action
			}
		}
		return action
	}
	o := Observation{Offered: []string{}}
	for _, id := range ids {
		perm := permission(id)
		last := -1
		for i, rule := range rules {
			if wildcard(rule.Permission, perm) {
				last = i
			}
		}
		if id != "invalid" && (last < 0 || rules[last].Pattern != "*" || rules[last].Action != "deny") {
			o.Offered = append(o.Offered, id)
		}
	}
	o.Offered = sorted(o.Offered)
	var results []*Result
	for _, u := range r.uses() {
		tool, perm, arg := "bash", "bash", u.Command
		if u.Path != "" {
			tool, perm, arg = "write", "edit", u.Path
		}
		if !slices.Contains(o.Offered, tool) {
			results = append(results, &Result{Command: u.Command, Path: u.Path, Output: notOffered, NotOffered: true})
			continue
		}
		// OpenCode asks for each command of a line (its words, without
		// redirections), and the line runs only if none is denied.
		args := []string{arg}
		if perm == "bash" {
			args = openCodeCommands(arg)
		}
		action := "allow"
		for _, a := range args {
			switch decide(perm, a) {
			case "", "deny":
				action = "deny"
			case "ask":
				if action == "allow" {
					action = "ask"
				}
			}
		}
		res := &Result{Path: u.Path, Ran: action != "deny", Output: action}
		if u.Path == "" && u.Command != ShellProbe {
			res.Command = u.Command
		}
		results = append(results, res)
	}
	if len(results) > 0 && !(len(results) == 1 && results[0].NotOffered) {
		o.Call, o.More = results[0], results[1:]
	}
	return o
}

// openCodeCommands are the commands OpenCode's bash tool asks permission
// for, for a line: each simple command's words as written (quotes kept),
// without its redirections and assignments; cd is never asked about. A
// line that does not parse is asked about whole.
func openCodeCommands(line string) []string {
	f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil {
		return []string{line}
	}
	var out []string
	syntax.Walk(f, func(n syntax.Node) bool {
		call, ok := n.(*syntax.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		var words []string
		for _, w := range call.Args {
			words = append(words, line[w.Pos().Offset():w.End().Offset()])
		}
		if words[0] != "cd" {
			out = append(out, strings.Join(words, " "))
		}
		return true
	})
	if len(out) == 0 {
		return []string{line}
	}
	return out
}

// missingContext is Qwen Code's refusal of a prompt's ${name}.
var missingContext = regexp.MustCompile(`Missing context values for the following keys: ([\w, ]+)`)

// ansi matches a terminal colour sequence.
var ansi = regexp.MustCompile("\x1b\\[[0-9;]*m")

// invalidConfig reads OpenCode's refusal of a file its schema rejects
// ("Configuration is invalid at PATH\n↳ REASON"), which makes it load no
// agent of the project: the reason, without the sandbox's path.
func invalidConfig(out string) (string, bool) {
	_, rest, ok := strings.Cut(ansi.ReplaceAllString(out, ""), "Configuration is invalid")
	if !ok {
		return "", false
	}
	for _, line := range strings.Split(rest, "\n") {
		if why, ok := strings.CutPrefix(strings.TrimSpace(line), "↳ "); ok {
			return why, true
		}
	}
	return "configuration is invalid", true
}

// wildcard matches s against an OpenCode pattern: * any run, ? one
// character.
func wildcard(pattern, s string) bool {
	if pattern == "" {
		return s == ""
	}
	switch pattern[0] {
	case '*':
		for i := 0; i <= len(s); i++ {
			if wildcard(pattern[1:], s[i:]) {
				return true
			}
		}
		return false
	case '?':
		return s != "" && wildcard(pattern[1:], s[1:])
	}
	return s != "" && s[0] == pattern[0] && wildcard(pattern[1:], s[1:])
}
