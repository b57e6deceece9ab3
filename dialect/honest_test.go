package dialect

import (
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/stretchr/testify/assert"
)

func TestHonest(t *testing.T) {
	open := agents.Tools{Allow: []string{"shell", "read"}, Deny: []string{"shell(rm:*)"}}
	enforced := Loss{Field: "tools", Kind: Enforced, Detail: `deny "shell(rm:*)" enforced by a hook: Claude Code agent files cannot deny shell in part, so bn's hook refuses it`}
	advisory := Loss{Field: "tools", Kind: Advisory, Detail: `deny "shell(rm:*)" is advisory: the shell is allowed whole, so a script, an interpreter or sh -c (sh script.sh, python3 -c …) runs commands no check of the command line sees`}
	hooked := Loss{Field: "tools", Kind: Enforced, Detail: `allow "shell(git diff:*)" enforced by a hook: Claude Code agent files cannot limit shell to an argument`}
	codexWhole := Loss{Field: "tools", Kind: Widened, Detail: "Codex agent files cannot limit tools: the agent gets edit, shell, webfetch", Grants: []string{"edit", "shell", "webfetch"}}
	droppedShell := Loss{Field: "tools", Kind: Dropped, Detail: "shell: Tool has no tool for it", Drops: []string{"shell"}}
	asks := Loss{Field: "tools", Kind: Widened, Detail: "shell asks the user before each use in OpenCode (opencode.permission); the file allows it"}
	foreign := Loss{Field: "tools", Kind: Dropped, Detail: `"@copilot(shell/terminalLastCommand)" is a tool of another tool; OpenCode has no such tool`,
		Drops: []string{"@copilot(shell/terminalLastCommand)"}}
	everyBut := Loss{Field: "tools", Kind: Dropped, Detail: "the agent has every tool but shell; Tool agent files have no deny list, so bn lists the tools it knows, and MCP servers and tools bn has no name for are left out",
		Drops: []string{EveryMCPTool, UnnamedTools}}
	openAsk := agents.Tools{Allow: []string{"read", "shell", "shell(git push:*)"}, Ask: []string{"shell(git push:*)"}}
	askWhy := `ask "shell(git push:*)" is advisory: the shell is allowed whole, so a script, an interpreter or sh -c (sh script.sh, python3 -c …) runs commands no check of the command line sees`
	askWidened := Loss{Field: "tools", Kind: Widened, Detail: `ask "shell(git push:*)": the agent's tool asks the user before each use; Gemini CLI agent files cannot say ask`}
	for _, tc := range []struct {
		name   string
		info   *Info
		tools  agents.Tools
		losses []Loss
		goos   string
		want   []Loss
	}{
		{"a hook's enforced deny under an open shell", claudeInfo, open, []Loss{enforced}, "linux",
			[]Loss{{Field: "tools", Kind: Advisory, Detail: advisory.Detail + " (bn's hook refuses only the calls that break it themselves)"}}},
		{"a deny the tool carries with no word", opencodeInfo, open, nil, "linux", []Loss{advisory}},
		{"a deny reported widened stays widened", copilotInfo, open,
			[]Loss{{Field: "tools", Kind: Widened, Detail: `deny "shell(rm:*)" not carried: Copilot agent files have no deny list`}}, "linux",
			[]Loss{{Field: "tools", Kind: Widened, Detail: `deny "shell(rm:*)" not carried: Copilot agent files have no deny list`}}},
		{"a kind the file grants whole", codexInfo, open,
			[]Loss{codexWhole}, "linux", []Loss{codexWhole}},
		// What a loss grants or drops is read from its patterns, never
		// from its words.
		{"a kind the file leaves out", opencodeInfo, open, []Loss{droppedShell}, "linux", []Loss{droppedShell}},
		{"a kind named in the words only", opencodeInfo, open, []Loss{asks}, "linux", []Loss{asks, advisory}},
		{"another tool's own tool is no kind", opencodeInfo, open, []Loss{foreign}, "linux", []Loss{foreign, advisory}},
		{"MCP tools and unnamed tools left out are no kind", opencodeInfo, open, []Loss{everyBut}, "linux", []Loss{everyBut, advisory}},
		{"a limit that holds stays enforced", claudeInfo, agents.Tools{Allow: []string{"read", "shell(git diff:*)"}}, []Loss{hooked}, "linux", []Loss{hooked}},
		{"on Windows no probe has run the hook", qwenInfo, agents.Tools{Allow: []string{"read", "shell(git diff:*)"}}, []Loss{hooked}, "windows",
			[]Loss{{Field: "tools", Kind: Advisory, Detail: hooked.Detail + "; on Windows no probe has run Qwen Code with bn's hook, so there the limit is advisory"}}},
		{"a rule enforced for two kinds is one advisory limit", claudeInfo, agents.Tools{Allow: []string{"shell", "read", "write(src/**)"}},
			[]Loss{
				{Field: "tools", Kind: Enforced, Detail: `allow "write(src/**)" enforced by a hook: Claude Code agent files cannot limit edit to an argument`},
				{Field: "tools", Kind: Enforced, Detail: `allow "write(src/**)" enforced by a hook: Claude Code agent files cannot limit create to an argument`},
			}, "linux",
			[]Loss{{Field: "tools", Kind: Advisory, Detail: `allow "write(src/**)" is advisory: the shell is allowed whole: cp, mv, an interpreter or a script writes files a check of the command line does not see (bn sees redirections and the options of programs it knows) (bn's hook refuses only the calls that break it themselves)`}}},
		{"a hook not seen to hold for a sub-agent", &Info{Title: "Tool", Hook: &Hook{}}, agents.Tools{Allow: []string{"read", "shell(git diff:*)"}}, []Loss{hooked}, "linux",
			[]Loss{{Field: "tools", Kind: Advisory, Detail: hooked.Detail + "; started as another agent's sub-agent, no probe has seen Tool run the hook in its file, so there the limit is advisory"}}},
		{"neither on Windows nor for a sub-agent", &Info{Title: "Tool", Hook: &Hook{}}, agents.Tools{Allow: []string{"read", "shell(git diff:*)"}}, []Loss{hooked}, "windows",
			[]Loss{{Field: "tools", Kind: Advisory, Detail: hooked.Detail + "; on Windows no probe has run Tool with bn's hook, and started as another agent's sub-agent, no probe has seen Tool run the hook in its file, so there the limit is advisory"}}},
		// An ask under an open shell is walked around as a deny is.
		{"a hook's enforced ask under an open shell", claudeInfo, openAsk,
			[]Loss{{Field: "tools", Kind: Enforced, Detail: `ask "shell(git push:*)" enforced by a hook: Claude Code agent files cannot say ask`}}, "linux",
			[]Loss{{Field: "tools", Kind: Advisory, Detail: askWhy + " (bn's hook asks only before the calls the ask covers themselves)"}}},
		{"an ask the tool carries with no word", opencodeInfo, openAsk, nil, "linux", []Loss{{Field: "tools", Kind: Advisory, Detail: askWhy}}},
		{"an ask reported widened stays widened", geminiInfo, openAsk, []Loss{askWidened}, "linux", []Loss{askWidened}},
		{"a tool with no hook is not judged by Windows", opencodeInfo, agents.Tools{Allow: []string{"read", "write", "shell(ls:*)"}}, nil, "windows", nil},
		// OpenCode matches a command's words as written: what a matched
		// command writes, and a denied one spelled another way, get by.
		{"words: an allow pattern writes through a redirection", opencodeInfo, agents.Tools{Allow: []string{"read", "shell(git diff:*)"}}, nil, "linux",
			[]Loss{{Field: "tools", Kind: Widened, Grants: []string{"shell(git diff:*)"}, Detail: `allow "shell(git diff:*)": OpenCode matches each command's words as written against the permission.bash patterns, so a command it matches may still write any file, through a redirection or an option of its own (git diff --output=F), which the definition does not allow`}}},
		{"words: a deny under a pattern", opencodeInfo, agents.Tools{Allow: []string{"read", "write", "shell(git:*)"}, Deny: []string{"shell(git push:*)"}}, nil, "linux",
			[]Loss{{Field: "tools", Kind: Widened, Grants: []string{"shell(git push:*)"}, Detail: `deny "shell(git push:*)": OpenCode matches each command's words as written against the permission.bash patterns, so the deny does not catch the command spelled another way (an option before its subcommand, quotes, a path to the program) that allow "shell(git:*)" matches`}}},
		{"words: a deny no allowed program respells", opencodeInfo, agents.Tools{Allow: []string{"read", "write", "shell(pwd)"}, Deny: []string{"shell(rm:*)"}, Ask: []string{"shell(ls:*)"}}, nil, "linux", nil},
		{"words: nothing to walk around with no command allowed", opencodeInfo, agents.Tools{Allow: []string{"read"}, Deny: []string{"shell(rm:*)"}}, nil, "linux", nil},
		{"words: a tool whose hook decides", claudeInfo, agents.Tools{Allow: []string{"read", "shell(git diff:*)"}}, nil, "linux", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, Honest(tc.info, tc.tools, tc.losses, tc.goos))
		})
	}
}

// A loss's kinds are what it grants or drops, as patterns say them.
func TestLossKinds(t *testing.T) {
	every := make([]agents.Kind, len(agents.Kinds))
	for i, ki := range agents.Kinds {
		every[i] = ki.Kind
	}
	for _, tc := range []struct {
		name string
		loss Loss
		want []agents.Kind
	}{
		{"a widening grants its patterns' kinds", Loss{Kind: Widened, Grants: []string{"write(src/**)"}}, []agents.Kind{agents.KindEdit, agents.KindCreate}},
		{"every tool is every kind", Loss{Kind: Widened, Grants: []string{EveryTool}}, every},
		{"MCP tools are no kind", Loss{Kind: Widened, Grants: []string{EveryMCPTool, "github/*"}}, nil},
		{"a part left out is its kind", Loss{Kind: Dropped, Drops: []string{"shell(git diff:*)", "grep"}}, []agents.Kind{agents.KindGrep, agents.KindShell}},
		{"another tool's own tool is no kind", Loss{Kind: Dropped, Drops: []string{"@copilot(read/terminalSelection)"}}, nil},
		{"tools bn has no name for are no kind", Loss{Kind: Dropped, Drops: []string{EveryMCPTool, UnnamedTools}}, nil},
		{"the words say nothing", Loss{Kind: Dropped, Detail: "read left out"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.loss.Kinds())
		})
	}
}
