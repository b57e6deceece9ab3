package probe

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Judge finds what a client grants beyond or short of the definition, on
// the kinds it can be seen to grant, and whether the export reported it.
func TestJudge(t *testing.T) {
	// The tools each client in the table can be seen to grant.
	tools := map[string][]string{"claude": {"Read", "Bash", "Edit", "Write"}, "qwen": {"read_file", "run_shell_command", "edit", "write_file"},
		"claude-plugin": {"Read", "Bash", "Grep"}}
	ran := &Result{Ran: true, Output: "4242"}
	asks := agents.Tools{Allow: []string{"read", "shell(git diff:*)", "shell"}, Ask: []string{"shell"}}
	widened := []dialect.Loss{{Field: "tools", Kind: dialect.Widened, Detail: `allow "shell(git diff:*)" widened to every shell use`, Grants: []string{"shell"}}}
	for _, tt := range []struct {
		name   string
		client string // "" Claude Code
		tools  agents.Tools
		obs    Observation
		losses []dialect.Loss
		want   []Difference
	}{
		{name: "the same", tools: agents.Tools{Allow: []string{"read"}}, obs: Observation{Offered: []string{"Read"}}},
		{name: "none stays none", tools: agents.Tools{}, obs: Observation{Offered: []string{}}},
		{name: "a pattern widened, reported", tools: agents.Tools{Allow: []string{"read", "shell(git diff:*)"}},
			obs: Observation{Offered: []string{"Bash", "Read"}, Call: ran}, losses: widened,
			want: []Difference{{Kind: agents.KindShell, Tool: true, Detail: `Claude Code ran "expr 4000 + 242", which the definition does not allow`, Reported: true}}},
		{name: "a pattern widened, unreported", tools: agents.Tools{Allow: []string{"read", "shell(git diff:*)"}},
			obs:  Observation{Offered: []string{"Bash", "Read"}, Call: ran},
			want: []Difference{{Kind: agents.KindShell, Tool: true, Detail: `Claude Code ran "expr 4000 + 242", which the definition does not allow`}}},
		{name: "a kind withheld", tools: agents.Tools{All: true}, obs: Observation{Offered: []string{"Read", "Bash", "Write"}, Call: ran},
			want: []Difference{{Kind: agents.KindEdit, Def: true, Detail: "Claude Code withholds edit, which the definition grants"}}},
		{name: "a kind withheld, reported", tools: agents.Tools{All: true}, obs: Observation{Offered: []string{"Read", "Bash", "Write"}, Call: ran},
			losses: []dialect.Loss{{Field: "tools", Kind: dialect.Dropped, Detail: "edit: Claude Code has no tool for it", Drops: []string{"edit"}}},
			want:   []Difference{{Kind: agents.KindEdit, Def: true, Detail: "Claude Code withholds edit, which the definition grants", Reported: true}}},
		{name: "a kind gained", tools: agents.Tools{Allow: []string{"read"}}, obs: Observation{Offered: []string{"Read", "Edit"}},
			want: []Difference{{Kind: agents.KindEdit, Tool: true, Detail: "Claude Code offers edit, which the definition does not grant"}}},
		// What bn's hook asks about comes, unattended, to what the
		// enforcement probes saw: refused, at top level and as a sub-agent
		// (Hook.AskUnattended, Hook.AskUnattendedSubAgent).
		{name: "an ask refused unattended", tools: asks, obs: Observation{Offered: []string{"Bash", "Read"}, Call: &Result{Ran: false}}},
		{name: "an ask run unattended", tools: asks, obs: Observation{Offered: []string{"Bash", "Read"}, Call: ran},
			want: []Difference{{Kind: agents.KindShell, Tool: true, Detail: `Claude Code ran "expr 4000 + 242", which the definition does not allow`}}},
		{name: "an ask refused unattended, a sub-agent", tools: asks, obs: Observation{Offered: []string{"Bash", "Read"}, Call: &Result{Ran: false}, SubAgent: true}},
		{name: "an ask refused unattended, a Qwen Code sub-agent", client: "qwen", tools: asks,
			obs: Observation{Offered: []string{"read_file", "run_shell_command"}, Call: &Result{Ran: false}, SubAgent: true}},
		{name: "an ask run unattended, a Qwen Code sub-agent", client: "qwen", tools: asks,
			obs:  Observation{Offered: []string{"read_file", "run_shell_command"}, Call: ran, SubAgent: true},
			want: []Difference{{Kind: agents.KindShell, Tool: true, Detail: `Qwen Code ran "expr 4000 + 242", which the definition does not allow`}}},
		// Claude Code 2.1 searches inside Bash: with a hook, as far as
		// the shell's patterns go; a plugin agent runs no hook, and its
		// Bash runs every command.
		{name: "search through a limited shell", tools: agents.Tools{Allow: []string{"grep", "shell(git diff:*)"}},
			obs:  Observation{Offered: []string{"Bash"}},
			want: []Difference{{Kind: agents.KindGrep, Def: true, Detail: "Claude Code withholds grep, which the definition grants"}}},
		{name: "search through a plugin's shell", client: "claude-plugin", tools: agents.Tools{Allow: []string{"grep", "shell(git diff:*)"}},
			obs: Observation{Offered: []string{"Bash"}}},
		{name: "a file the tool refuses", tools: agents.Tools{All: true}, obs: Observation{Offered: []string{}, Rejected: "tools.1: Invalid tool name"},
			want: []Difference{{Detail: "Claude Code refuses to load the file: tools.1: Invalid tool name"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			client := cmp.Or(tt.client, "claude")
			d, _ := dialect.All().Lookup(client)
			info := d.Info()
			got := Judge(agents.Definition{Tools: tt.tools}, tt.losses, info, tt.obs, Kinds(info, tools[client]))
			assert.Equal(t, tt.want, got)
		})
	}
}

// A reported loss is false only where the run could show it and did not.
func TestFalseReports(t *testing.T) {
	observable := []agents.Kind{agents.KindRead, agents.KindShell, agents.KindEdit, agents.KindGrep, agents.KindAgent, agents.KindList}
	limited := agents.Tools{Allow: []string{"read", "shell(git diff:*)"}}
	refused := Observation{Offered: []string{"Bash"}, Call: &Result{Ran: false}}
	widened := dialect.Loss{Field: "tools", Kind: dialect.Widened, Detail: `allow "shell(git diff:*)" widened to every shell use: Qwen Code agent files cannot limit it to an argument`, Grants: []string{"shell"}}
	for _, tt := range []struct {
		name  string
		tools agents.Tools
		loss  dialect.Loss
		obs   Observation
		diffs []Difference
		want  bool
	}{
		{name: "a widening shown", tools: limited, loss: widened, obs: Observation{Call: &Result{Ran: true}},
			diffs: []Difference{{Kind: agents.KindShell, Tool: true}}},
		{name: "a widening the client does not show", tools: limited, loss: widened, obs: refused, want: true},
		{name: "a deny the probe never asks about", tools: agents.Tools{All: true, Deny: []string{"shell(rm:*)"}}, obs: Observation{Call: &Result{Ran: true}},
			loss: dialect.Loss{Field: "tools", Kind: dialect.Widened, Detail: `deny "shell(rm:*)" not carried: Codex agent files have no deny list, so every shell use stays allowed`, Grants: []string{"shell(rm:*)"}}},
		{name: "a widening of a use the probe never asks", tools: agents.Tools{Allow: []string{"read", "shell(git:*)"}, Deny: []string{"shell(git push:*)"}}, obs: refused,
			loss: dialect.Loss{Field: "tools", Kind: dialect.Widened, Detail: `deny "shell(git push:*)": OpenCode matches each command's words as written`, Grants: []string{"shell(git push:*)"}}},
		{name: "a kind left out, withheld", tools: agents.Tools{Allow: []string{"grep"}}, obs: Observation{},
			loss:  dialect.Loss{Field: "tools", Kind: dialect.Dropped, Detail: "grep left out", Drops: []string{"grep"}},
			diffs: []Difference{{Kind: agents.KindGrep, Def: true}}},
		{name: "a kind left out, yet offered", tools: agents.Tools{Allow: []string{"grep"}}, obs: Observation{},
			loss: dialect.Loss{Field: "tools", Kind: dialect.Dropped, Detail: "grep left out", Drops: []string{"grep"}}, want: true},
		{name: "a use left out, withheld", tools: limited, obs: Observation{},
			loss:  dialect.Loss{Field: "tools", Kind: dialect.Dropped, Detail: `allow "shell(git diff:*)" left out`, Drops: []string{"shell(git diff:*)"}},
			diffs: []Difference{{Kind: agents.KindShell, Def: true}}},
		{name: "a use left out, yet offered", tools: limited, obs: Observation{},
			loss: dialect.Loss{Field: "tools", Kind: dialect.Dropped, Detail: `allow "shell(git diff:*)" left out`, Drops: []string{"shell(git diff:*)"}}, want: true},
		{name: "a kind not observable", tools: agents.Tools{Allow: []string{"webfetch"}}, obs: Observation{},
			loss: dialect.Loss{Field: "tools", Kind: dialect.Dropped, Detail: "webfetch left out", Drops: []string{"webfetch"}}},
		// What a loss drops is read from Drops, never from its words: no
		// client run shows another tool's own tool, an MCP tool or a tool
		// bn has no name for.
		{name: "another tool's own tool", tools: agents.Tools{Allow: []string{"read", "@copilot(read/terminalSelection)"}}, obs: Observation{},
			loss: dialect.Loss{Field: "tools", Kind: dialect.Dropped, Detail: `"@copilot(read/terminalSelection)" is a tool of another tool; Claude Code has no such tool`,
				Drops: []string{"@copilot(read/terminalSelection)"}}},
		{name: "MCP tools and unnamed tools", tools: agents.Tools{All: true, Deny: []string{"shell"}}, obs: Observation{},
			loss: dialect.Loss{Field: "tools", Kind: dialect.Dropped, Detail: "the agent has every tool but shell; without Bash, Claude Code offers Grep and Glob only to an agent whose tools lists them, " +
				"so bn lists the tools it knows, and MCP tools of servers the agent does not configure itself are left out", Drops: []string{dialect.EveryMCPTool, dialect.UnnamedTools}}},
		{name: "an MCP tool the file cannot grant", tools: agents.Tools{Allow: []string{"agent", "github/get_issue"}}, obs: Observation{},
			loss: dialect.Loss{Field: "tools", Kind: dialect.Dropped, Detail: `allow "github/get_issue": Codex agent files cannot grant MCP tools`, Drops: []string{"github/get_issue"}}},
		{name: "a refused file", tools: limited, loss: widened, obs: Observation{Rejected: "bad"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := FalseReports(agents.Definition{Tools: tt.tools}, []dialect.Loss{tt.loss}, tt.obs, observable, tt.diffs)
			assert.Equal(t, tt.want, len(got) == 1, "%v", got)
		})
	}
}

// Each agent counts once, by its worst difference; a false report apart.
func TestTally(t *testing.T) {
	var tally Tally
	tally.Add(nil, nil)
	tally.Add([]Difference{{Reported: true}}, nil)
	tally.Add([]Difference{{Reported: true}, {}}, []dialect.Loss{{}})
	assert.Equal(t, Tally{Crossed: 3, Exact: 1, Reported: 1, Unreported: 1, FalselyReported: 1}, tally)
}

// The stand-in's OpenCode rule matching: * any run, ? one character.
func TestWildcard(t *testing.T) {
	assert.True(t, wildcard("*", ShellProbe))
	assert.True(t, wildcard("expr *", ShellProbe))
	assert.False(t, wildcard("git diff*", ShellProbe))
	assert.True(t, wildcard("e?pr 4000 + 242", ShellProbe))
	assert.False(t, wildcard("", "x"))
}

// OpenCode asks about each command of a line, as written, without its
// redirections: a chained line runs only if every command may run.
func TestOpenCodeCommands(t *testing.T) {
	for line, want := range map[string][]string{
		"expr 4000 + 242":                 {"expr 4000 + 242"},
		"echo bn && expr 4000 + 242":      {"echo bn", "expr 4000 + 242"},
		"echo bn > out.txt":               {"echo bn"},
		`git log --format="%h" | head -1`: {`git log --format="%h"`, "head -1"},
		"cd sub; make":                    {"make"},
		"FOO=1 npm test":                  {"npm test"},
		"echo $(rm -rf x)":                {"echo $(rm -rf x)", "rm -rf x"},
		"if true; then echo; fi; (( x ))": {"true", "echo"},
		"echo 'unclosed":                  {"echo 'unclosed"},
	} {
		assert.Equal(t, want, openCodeCommands(line), line)
	}
}

// A chained line's commands are each judged against OpenCode's rules.
func TestJudgeRulesChained(t *testing.T) {
	rules := []openCodeRule{{"*", "*", "allow"}, {"bash", "*", "deny"}, {"bash", "echo *", "allow"}, {"edit", "*", "deny"}}
	r := Run{Uses: []Use{{Command: "echo bn"}, {Command: "echo bn && expr 1 + 1"}, {Command: "echo bn > x.txt"}, {Path: "x.txt"}}}
	o := judgeRules(r, []string{"bash", "read", "edit", "write"}, rules)
	assert.Equal(t, []string{"bash", "read"}, o.Offered)
	require.NotNil(t, o.Call)
	assert.True(t, o.Call.Ran)
	require.Len(t, o.More, 3)
	assert.False(t, o.More[0].Ran)
	assert.True(t, o.More[1].Ran, "OpenCode does not ask about a redirection")
	assert.True(t, o.More[2].NotOffered)
}

// errorsTB records what a test helper reports as a failure.
type errorsTB struct {
	testing.TB
	errors []string
}

func (r *errorsTB) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

// TestPlantRepositoryFails: a stage git cannot plant a repository in
// fails the test with git's words, not a session judged on a stage that
// was never broken.
func TestPlantRepositoryFails(t *testing.T) {
	root := t.TempDir()
	proj := filepath.Join(root, "proj")
	// src is a file: git cannot make a repository there.
	require.NoError(t, os.MkdirAll(proj, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(proj, "src"), []byte("x"), 0o644))
	rec := &errorsTB{TB: t}
	st := &stage{root: root, proj: proj, t: rec}
	st.plantRepository()
	require.Len(t, rec.errors, 1)
	assert.Contains(t, rec.errors[0], "git init -q --bare")
	assert.Contains(t, rec.errors[0], filepath.Join(proj, "src"))
}
