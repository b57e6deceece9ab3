package dialect_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/probe"
)

// TestReaderAgreesWithTheTools reads every fixture the probes ran with
// bn's reader of that tool and checks it against what the real client did
// (the golden files, written by make probes): each kind of tool the
// client offered is one bn says the agent has, each it withheld is one bn
// says it has not, and the shell command the stand-in asked for ran
// exactly when bn allows it, and not asked first where bn asks. Only kinds some fixture shows the client
// offering are judged (a client offers some tools only in some modes).
func TestReaderAgreesWithTheTools(t *testing.T) {
	cat := catalog(t)
	for client := range probe.Runners {
		g, err := probe.ReadGolden(probe.GoldenPath("..", client))
		if err != nil {
			t.Fatal(err)
		}
		d, ok := dialect.All().Lookup(client)
		if !ok {
			t.Fatalf("no dialect %s", client)
		}
		info := d.Info()
		observable := probe.Observable(info, g)
		for _, c := range g.Cases {
			t.Run(client+"/"+c.Name, func(t *testing.T) {
				rel := "probe-" + c.Name + info.Ext
				im, err := d.Read(dialect.Source{Path: filepath.Join(info.Dir, rel), Rel: rel, Data: []byte(c.File)}, cat)
				if c.Rejected != "" {
					if err == nil {
						t.Errorf("bn reads a file %s refuses (%s)\n%s", info.Title, c.Rejected, c.File)
					}
					return
				}
				if err != nil {
					t.Fatalf("bn does not read a file %s loads: %v", info.Title, err)
				}
				offer := probe.Offered(info, c.Offered)
				// bn may read less than the tool grants where the file
				// asks for a limit the tool does not apply, and says so.
				narrowed := func(k agents.Kind) bool {
					return slices.Contains(im.Narrowed, k) && slices.ContainsFunc(im.Notes, func(n string) bool { return strings.Contains(n, string(k)) })
				}
				for _, k := range observable {
					got, want := im.Def.Tools.Uses(k), slices.Contains(offer.Kinds, k)
					if slices.Contains(offer.ViaShell, k) {
						// The shell's to grant: as much as bn lets it run.
						if want = probe.ShellWhole(im.Def); want && !got {
							continue
						}
					}
					if got != want && (got || !narrowed(k)) {
						t.Errorf("%s: bn reads %s as %s, %s offers it %v\n%s", k, c.Name, has(got), info.Title, want, c.File)
					}
				}
				if c.Call != nil {
					command := probe.ShellProbe
					if c.Command != "" {
						command = c.Command
					}
					req := agents.ToolPattern{Kind: string(agents.KindShell), Arg: command, HasArg: true}
					if got := agents.Decide(im.Def.Tools, req).Allowed; got != c.Call.Ran && (got || !narrowed(agents.KindShell)) {
						t.Errorf("shell(%s): bn says allowed=%v, %s ran it: %v (%s)", command, got, info.Title, c.Call.Ran, c.Call.Output)
					}
					// A tool that can ask says whether it asks (OpenCode's
					// last matching rule): where it allows outright, bn does
					// not ask. (Where it asks with no rule of the file
					// saying so, its own default, bn does not ask either.)
					if info.Asks && c.Call.Ran && c.Call.Output == "allow" {
						asks := slices.ContainsFunc(im.Def.Tools.Ask, func(a string) bool {
							p, err := agents.ParseToolPattern(a)
							return err == nil && p.Matches(req)
						})
						if asks {
							t.Errorf("shell(%s): bn asks=%v, %s answers %s\n%s", command, asks, info.Title, c.Call.Output, c.File)
						}
					}
				}
			})
		}
	}
}

func has(b bool) string { return map[bool]string{true: "having it", false: "not having it"}[b] }

// TestHookRecordsAgreeWithTheProbes holds the hook records to what the
// enforcement probes saw (their golden files, written by make
// test-clients): a call the hook answers ask for came, unattended, to
// what each record says, the agent the session's or a sub-agent
// (Hook.AskUnattended, Hook.AskUnattendedSubAgent); Claude Code's hook
// refused a sub-agent's call exactly
// when its record says the hook holds for sub-agents, and the Copilot
// CLI's repository hook refused in a trusted folder and named the agent
// exactly when its record says so.
func TestHookRecordsAgreeWithTheProbes(t *testing.T) {
	read := func(name string, v any) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join("testdata", "probes", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(b, v); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	var sub struct {
		Shells map[string][]struct{ Class, Call, Hooked string }
	}
	read("enforcement-claude-subagent.json", &sub)
	claude, _ := dialect.All().Lookup("claude")
	judged := 0
	for shell, vs := range sub.Shells {
		for _, v := range vs {
			if v.Class != "allowed" {
				judged++
				if held := v.Hooked == "refused"; held != claude.Info().Hook.SubAgent {
					t.Errorf("%s as a sub-agent (%s): %q came to %q, and Hook.SubAgent is %v", claude.Info().Title, shell, v.Call, v.Hooked, claude.Info().Hook.SubAgent)
				}
			}
		}
	}
	if judged == 0 {
		t.Error("enforcement-claude-subagent.json holds no call the hook was to refuse")
	}
	// Every tool whose hook answers ask: what came of an asked call in a
	// run no one answers (enforcement-ask-CLIENT.json).
	for _, d := range dialect.All() {
		h := d.Info().Hook
		if h == nil || h.Ask == nil {
			continue
		}
		var ask struct {
			TopLevel []struct{ Class, Call, Hooked string } `json:"top_level"`
			SubAgent []struct{ Class, Call, Hooked string } `json:"sub_agent"`
		}
		read("enforcement-ask-"+d.Info().Name+".json", &ask)
		// A record says "" of a way the probes did not start the agent.
		for via, c := range map[string]struct {
			vs         []struct{ Class, Call, Hooked string }
			rec, field string
		}{"at top level": {ask.TopLevel, h.AskUnattended, "AskUnattended"}, "as a sub-agent": {ask.SubAgent, h.AskUnattendedSubAgent, "AskUnattendedSubAgent"}} {
			asked := 0
			for _, v := range c.vs {
				if v.Class != "allowed" {
					asked++
					if got, _, _ := strings.Cut(v.Hooked, ":"); got != c.rec {
						t.Errorf("%s %s: %q, which bn's hook answers ask, came to %q unattended, and Hook.%s is %q", d.Info().Title, via, v.Call, v.Hooked, c.field, c.rec)
					}
				}
			}
			if asked == 0 && c.rec != "" {
				t.Errorf("enforcement-ask-%s.json holds no call bn's hook answers ask %s, and Hook.%s is %q", d.Info().Name, via, c.field, c.rec)
			}
		}
	}
	var cp struct {
		Cases []struct {
			Name, Hooked string
			Input        []string
			AgentNamed   bool `json:"agent_named"`
		}
	}
	read("enforcement-copilot.json", &cp)
	copilot, _ := dialect.All().Lookup("copilot")
	rh := copilot.Info().RepoHook
	if rh == nil || len(cp.Cases) == 0 {
		t.Fatalf("the Copilot record has no RepoHook (%v), or enforcement-copilot.json no case", rh)
	}
	if !strings.HasPrefix(cp.Cases[0].Hooked, "refused") {
		t.Errorf("%s: %s", cp.Cases[0].Name, cp.Cases[0].Hooked)
	}
	for _, c := range cp.Cases {
		if c.Input != nil && c.AgentNamed != rh.NamesAgent {
			t.Errorf("%s: the hook's input names the agent: %v; RepoHook.NamesAgent is %v", c.Name, c.AgentNamed, rh.NamesAgent)
		}
	}
}

// TestPluginHostsAgree: what dialect.ClaudePluginHosts says of each tool
// that installs a Claude Code plugin is what its probe saw
// (testdata/probes/claude-plugin-hosts.json): the name it knows the
// plugin's agent by, whether it started it, and, where it did, that each
// kind of tool it offered is one bn reads the plugin's agent file to have
// and each it withheld one bn reads it not to have.
func TestPluginHostsAgree(t *testing.T) {
	cat := catalog(t)
	h, err := probe.ReadHosts(probe.HostsPath(".."))
	if err != nil {
		t.Fatal(err)
	}
	plugin, _ := dialect.All().Lookup("claude-plugin")
	rel := "probe-read-only.md"
	im, err := plugin.Read(dialect.Source{Path: filepath.Join(plugin.Info().Dir, rel), Rel: rel, Data: []byte(h.File)}, cat)
	if err != nil {
		t.Fatal(err)
	}
	var recorded []string
	for _, host := range dialect.ClaudePluginHosts {
		recorded = append(recorded, host.Tool)
	}
	var probed []string
	for _, c := range h.Hosts {
		probed = append(probed, c.Client)
		t.Run(c.Client, func(t *testing.T) {
			i := slices.IndexFunc(dialect.ClaudePluginHosts, func(p dialect.PluginHost) bool { return p.Tool == c.Client })
			if i < 0 {
				t.Fatalf("%s installs the plugin in its probe, and dialect.ClaudePluginHosts does not say so", c.Client)
			}
			host := dialect.ClaudePluginHosts[i]
			if name := strings.ReplaceAll(host.KnownAs, "NAME", "probe-read-only"); c.Agent != name && !strings.HasPrefix(c.Agent, name+" ") {
				t.Errorf("the record says %s knows a plugin's agent as %s, its probe saw %q", c.Client, host.KnownAs, c.Agent)
			}
			if host.Starts != (c.Blocked == "") {
				t.Errorf("the record says %s starts a plugin's agent: %v; its probe saw: %q", c.Client, host.Starts, c.Blocked)
			}
			if c.Blocked != "" {
				return
			}
			d, ok := dialect.All().Lookup(c.Client)
			if !ok {
				t.Fatalf("no dialect %s", c.Client)
			}
			g, err := probe.ReadGolden(probe.GoldenPath("..", c.Client))
			if err != nil {
				t.Fatal(err)
			}
			offer := probe.Offered(d.Info(), c.Offered)
			for _, k := range probe.Observable(d.Info(), g) {
				if got, want := im.Def.Tools.Uses(k), slices.Contains(offer.Kinds, k); got != want {
					t.Errorf("%s: bn reads the plugin's agent as %s, %s offers it %v", k, has(got), d.Info().Title, want)
				}
			}
		})
	}
	slices.Sort(recorded)
	slices.Sort(probed)
	if !slices.Equal(recorded, probed) {
		t.Errorf("dialect.ClaudePluginHosts records %v, the probes ran %v", recorded, probed)
	}
}

// TestPlanModeAgreesWithTheProbes holds what export says a plan mode
// keeps from an agent (FieldSpec.Narrows, in the report of a crossing that
// drops it) to what the plan mode probes saw (planmode-CLIENT.json,
// written by make test-clients): a key narrows only if some run of an
// agent whose file set it refused a write or a command, and each claim of
// Claude Code's statement holds of every run.
func TestPlanModeAgreesWithTheProbes(t *testing.T) {
	type run struct{ Key, Via, Permissions, Write, Shell string }
	const made = "made the marker"
	bypassed := func(r run) bool { return strings.Contains(r.Permissions, "dangerously") }
	// claims are the parts of Claude Code's statement, each with what
	// must be true of a plan mode run for it to hold.
	claims := map[string]func(r run) bool{
		"editing files only when it runs as a sub-agent": func(r run) bool { return r.Write == made || r.Via == "sub-agent" },
		"not as the session's agent":                     func(r run) bool { return r.Via != "top level" || r.Write == made && r.Shell == made },
		"nor with permissions bypassed":                  func(r run) bool { return !bypassed(r) || r.Write == made && r.Shell == made },
		"never from running a command":                   func(r run) bool { return r.Shell == made },
	}
	for _, client := range []string{"claude", "qwen"} {
		b, err := os.ReadFile(filepath.Join("testdata", "probes", "planmode-"+client+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var g struct{ Runs []run }
		if err := json.Unmarshal(b, &g); err != nil {
			t.Fatalf("planmode-%s.json: %v", client, err)
		}
		d, _ := dialect.All().Lookup(client)
		held := map[string]bool{}
		for _, r := range g.Runs {
			key, _, ok := strings.Cut(r.Key, ": plan")
			if r.Key == "" || !ok {
				continue
			}
			held[key] = held[key] || r.Write != made || r.Shell != made
		}
		if len(held) == 0 {
			t.Errorf("planmode-%s.json holds no run of an agent in plan mode", client)
		}
		for key, h := range held {
			i := slices.IndexFunc(d.Info().Fields, func(f dialect.FieldSpec) bool { return f.Key == key })
			if i < 0 {
				t.Errorf("%s has no field %s", d.Info().Title, key)
				continue
			}
			says := ""
			if n := d.Info().Fields[i].Narrows; n != nil {
				says = n("plan")
			}
			if (says != "") != h {
				t.Errorf("%s: %s plan kept something from the agent in the probes: %v; the field's Narrows says %q", d.Info().Title, key, h, says)
			}
			for claim, ok := range claims {
				if !strings.Contains(says, claim) {
					continue
				}
				for _, r := range g.Runs {
					if r.Key != "" && !ok(r) {
						t.Errorf("%s: %q is said of plan mode, and the probes saw otherwise: %+v", d.Info().Title, claim, r)
					}
				}
			}
		}
	}
}
