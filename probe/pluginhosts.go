package probe

import (
	"fmt"
	"path/filepath"
	"regexp"
	"sync"

	"github.com/binnacle-dev/bn/dialect"
)

// HostCase is what a client other than Claude Code made of a Claude Code
// plugin's agent, once it installed the plugin as export writes it.
type HostCase struct {
	Client string `json:"client"` // the tool, as bn names it
	// Agent is the name the client knows the plugin's agent by, PLUGIN
	// standing for the plugin's name.
	Agent string `json:"agent"`
	Observation
	// Blocked is why the client, offline, could not start the agent it
	// lists.
	Blocked string `json:"blocked,omitempty"`
}

// Hosts is the golden file of the plugin hosts: the agent file each ran
// as the plugin's agent, and what each made of it.
type Hosts struct {
	File  string     `json:"file"`
	Hosts []HostCase `json:"hosts"`
}

// HostsPath is where the plugin hosts' golden file lives, under the
// dialect package's testdata.
func HostsPath(root string) string { return GoldenPath(root, "claude-plugin-hosts") }

// ReadHosts reads the plugin hosts' golden file.
func ReadHosts(path string) (Hosts, error) { return readJSON[Hosts](path) }

// Write writes the golden file, stably.
func (h Hosts) Write(path string) error { return writeJSON(path, h) }

// HostRunner runs one plugin host as the plugin's agent.
type HostRunner func(Run) (HostCase, error)

// PluginHosts run, as a Claude Code plugin's agent, the clients besides
// Claude Code that install a plugin from a Claude Code marketplace (the
// hosts dialect.ClaudePluginHosts records), by the tool bn names.
var PluginHosts = map[string]HostRunner{"copilot": CopilotPlugin, "droid": DroidPlugin, "qwen": QwenPlugin}

// CopilotPlugin installs the plugin (copilot plugin marketplace add,
// copilot plugin install), which the Copilot CLI loads live from the
// project, and runs the Copilot CLI as its agent (copilot --agent
// PLUGIN:NAME -p), every tool allowed, offline against the stand-in.
func CopilotPlugin(r Run) (HostCase, error) {
	s := &Standin{}
	home, proj, env, name, done, err := pluginSession(r, s)
	if err != nil {
		return HostCase{}, err
	}
	defer done()
	r.ask(s, proj, copilotSpelling)
	env = append(env, copilotEnv(home, s.URL)...)
	if err := r.install(proj, env, marketplace(proj, name)...); err != nil {
		return HostCase{}, err
	}
	out, err := run(r.ctx(), proj, env, r.Bin, "--agent", name+":"+r.Name, "--model", "probe-model",
		"-p", promptWord+": run the command you are asked to run", "--no-auto-update", "--allow-all-tools")
	o, err := observed(s, "copilot", out, err, r)
	return HostCase{Client: "copilot", Agent: "PLUGIN:" + r.Name, Observation: o}, err
}

// QwenPlugin installs the plugin as a Qwen Code extension from the
// project's marketplace (qwen extensions install DIR:PLUGIN), which copies
// it under ~/.qwen/extensions, and has Qwen Code's main agent start the
// plugin's agent with its agent tool, every call approved.
func QwenPlugin(r Run) (HostCase, error) {
	s := &Standin{
		Via: &Call{Tool: "agent", Input: map[string]any{"subagent_type": r.Name, "description": "probe",
			"prompt": promptWord + ": run the command you are asked to run"}},
		Nested: true,
	}
	home, proj, env, name, done, err := pluginSession(r, s)
	if err != nil {
		return HostCase{}, err
	}
	defer done()
	r.ask(s, proj, geminiSpelling)
	qenv, args, err := qwenSetup(home, s.URL, r.Name)
	if err != nil {
		return HostCase{}, err
	}
	env = append(env, qenv...)
	// Trusted as export --trust leaves a folder: in an untrusted one Qwen
	// Code turns --yolo off, and its agent tool asks the user.
	d, _ := dialect.All().Lookup("qwen")
	if err := trust(d.Info(), proj, home, "", ""); err != nil {
		return HostCase{}, err
	}
	if err := r.install(proj, env, []string{"extensions", "install", proj + ":" + name, "--consent"}); err != nil {
		return HostCase{}, err
	}
	out, err := run(r.ctx(), proj, env, r.Bin, args...)
	o, err := observed(s, "qwen", out, err, r)
	return HostCase{Client: "qwen", Agent: r.Name, Observation: o}, err
}

// droidListed is how droid exec lists a custom droid to the model, with
// where it found it.
var droidListed = regexp.MustCompile(`\\n- ([a-z0-9_-]+): (?:[^\\]|\\[^n])*\(location: ([a-z]+)\)`)

// droidDaemon is the Task tool's result when Droid cannot reach the
// daemon it starts droids through.
var droidDaemon = regexp.MustCompile(`Error: (Error running task subagent: Could not reach the daemon[^"\\]*)`)

// DroidPlugin installs the plugin from the project's marketplace (droid
// plugin marketplace add, droid plugin install), which Droid copies under
// ~/.factory/plugins with its agents as droids, and has droid exec's main
// agent start the plugin's droid with its Task tool, on a custom model
// (bring your own key) the stand-in answers. Droid starts a droid through
// Factory's daemon, which needs a sign-in (its log: "No access token
// available"): offline, the Task call's result says the daemon cannot be
// reached, and the case records it.
func DroidPlugin(r Run) (HostCase, error) {
	var mu sync.Mutex
	var listed, blocked string
	s := &Standin{
		Via: &Call{Tool: "Task", Input: map[string]any{"subagent_type": r.Name, "description": "probe",
			"prompt": promptWord + ": run the command you are asked to run"}},
		Watch: func(body []byte) {
			mu.Lock()
			defer mu.Unlock()
			if m := droidDaemon.FindSubmatch(body); m != nil {
				blocked = string(m[1])
			}
			for _, m := range droidListed.FindAllSubmatch(body, -1) {
				if string(m[1]) == r.Name {
					listed = string(m[2])
				}
			}
		},
	}
	home, proj, env, name, done, err := pluginSession(r, s)
	if err != nil {
		return HostCase{}, err
	}
	defer done()
	r.ask(s, proj, droidSpelling)
	if err := writeFile(filepath.Join(home, ".factory", "settings.json"), `{"customModels":[{"model":"probe-model","displayName":"Probe",`+
		`"baseUrl":"`+s.URL+`/v1","apiKey":"probe","provider":"generic-chat-completion-api","maxOutputTokens":1000}]}`); err != nil {
		return HostCase{}, err
	}
	if err := r.install(proj, env, marketplace(proj, name)...); err != nil {
		return HostCase{}, err
	}
	out, runErr := run(r.ctx(), proj, env, r.Bin, "exec", "-m", "custom:probe-model", "--auto", "high", promptWord+": hand the work to "+r.Name)
	mu.Lock()
	defer mu.Unlock()
	if listed == "" {
		return HostCase{}, fmt.Errorf("droid does not list the plugin's droid %s: %v\n%s", r.Name, runErr, out)
	}
	c := HostCase{Client: "droid", Agent: r.Name + " (location: " + listed + ")"}
	if blocked != "" {
		c.Offered, c.Blocked = []string{}, blocked
		return c, nil
	}
	c.Observation, err = observed(s, "droid", out, runErr, r)
	return c, err
}

// droidSpelling is how Droid runs a command and writes a file.
var droidSpelling = spelling{
	shell: func(c string) *Call { return &Call{Tool: "Execute", Input: map[string]any{"command": c}} },
	write: func(p string) *Call {
		return &Call{Tool: "Create", Input: map[string]any{"file_path": p, "content": "bn probe\n"}}
	},
}
