package probe

import (
	"os"
	"path/filepath"
	"strings"
)

// Cline runs the Cline CLI (cline --json PROMPT, approving every call, as
// it does by default) against the stand-in as an OpenAI-compatible
// provider, with its main agent handing the work to the agent under test
// through the tool Cline offers for it (subagent_<name>). The local
// backend keeps it from starting its background hub.
func Cline(r Run) (Observation, error) {
	s := &Standin{
		Via: &Call{Tool: ClineTool(r.Name), Input: map[string]any{"prompt": promptWord + ": run the command you are asked to run"}},
	}
	home, proj, env, done, err := session("cline", r, s)
	if err != nil {
		return Observation{}, err
	}
	defer done()
	// The stand-in asks Cline for commands only.
	r.ask(s, proj, spelling{shell: func(c string) *Call {
		return &Call{Tool: "run_commands", Input: map[string]any{"commands": []string{c}}}
	}})
	if err := clineSettings(home, s.URL); err != nil {
		return Observation{}, err
	}
	env = append(env, clineEnv...)
	out, err := run(r.ctx(), proj, env, r.Bin, "--json", promptWord+": hand the work to "+r.Name)
	if !s.Delegated() {
		// Cline offers a tool for each agent it loaded: a file it refused
		// has none, and is named in its log.
		return Observation{Offered: []string{}, Rejected: clineRefusal(home, r.Name)}, nil
	}
	return observed(s, "cline", out, err, r)
}

// clineEnv keeps the Cline CLI to itself: no background hub, no update.
var clineEnv = []string{"CLINE_SESSION_BACKEND_MODE=local", "CLINE_NO_AUTO_UPDATE=1"}

// clineSettings points Cline's OpenAI-compatible provider at the
// stand-in, as `cline auth -p openai -b URL` records it (without the
// seconds that command takes to start).
func clineSettings(home, url string) error {
	return writeFile(filepath.Join(home, ".cline", "data", "settings", "providers.json"),
		`{"version":1,"lastUsedProvider":"openai-compatible","modes":{},"providers":{"openai-compatible":{"settings":`+
			`{"provider":"openai-compatible","apiKey":"probe","model":"probe-model","baseUrl":"`+url+`/v1"},"updatedAt":"2026-01-01T00:00:00.000Z","tokenSource":"manual"}}}`)
}

// ClineTool is the tool Cline offers the model for an agent: subagent_
// and the name in lower case, each run of characters other than letters,
// digits and '_' one '_' (names of up to 55 characters; Cline shortens
// longer ones with a hash).
func ClineTool(name string) string {
	var b strings.Builder
	sep := true
	for _, r := range strings.ToLower(strings.TrimSpace(name)) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
			sep = false
			continue
		}
		if !sep {
			b.WriteByte('_')
			sep = true
		}
	}
	slug := strings.TrimSuffix(b.String(), "_")
	if slug == "" {
		slug = "agent"
	}
	return "subagent_" + slug
}

// clineRefusal is why Cline did not load an agent file, as its log says
// (the configured-agent loader's error), or that it offered no tool for it.
func clineRefusal(home, name string) string {
	log, _ := os.ReadFile(filepath.Join(home, ".cline", "data", "logs", "cline.log"))
	for _, line := range strings.Split(string(log), "\n") {
		if strings.Contains(line, name) && strings.Contains(strings.ToLower(line), "agent") && strings.Contains(line, "error") {
			return firstLine(line)
		}
	}
	return "not offered: Cline did not load the file"
}
