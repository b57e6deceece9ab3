package launch

import (
	"slices"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect/dialecttest"
)

// flagValues are the values of one flag, in order.
func flagValues(args []string, flag string) []string {
	var out []string
	for i := 0; i+1 < len(args); i++ {
		if args[i] == flag {
			out = append(out, args[i+1])
		}
	}
	return out
}

func TestCopilotHoldsTheSessionToTheTools(t *testing.T) {
	cat := dialecttest.BuiltInCatalog()
	for _, tt := range []struct {
		name     string
		tools    agents.Tools
		deny     []string // every --deny-tool, in order
		allow    []string // every --allow-tool, in order
		excluded []string // some of --excluded-tools
		kept     []string // tools that must not be excluded
		note     string   // part of a note, when one is due
	}{
		{name: "a shell pattern also covers its longer commands",
			tools: agents.Tools{Allow: []string{"view", "shell(git diff:*)"}, Deny: []string{"shell(git push)"}},
			deny:  []string{"shell(git push)", "shell(git push:*)", "write", "url", "memory"}, allow: []string{"read", "shell(git diff:*)"},
			excluded: []string{"create", "edit", "glob", "task", "web_fetch"}, kept: []string{"bash", "view"}},
		{name: "read alone is not the CLI's read, which also lists directories",
			tools: agents.Tools{Allow: []string{"read"}},
			deny:  []string{"write", "shell", "url", "memory"}, kept: []string{"view"}},
		{name: "edit alone is not write, so the CLI asks",
			tools: agents.Tools{Allow: []string{"edit"}},
			deny:  []string{"read", "shell", "url", "memory"}, excluded: []string{"create", "bash"}, kept: []string{"edit"}},
		{name: "write is edit and create",
			tools: agents.Tools{Allow: []string{"write", "binnacle", "github/create_issue"}},
			deny:  []string{"read", "shell", "url", "memory"}, allow: []string{"write", "binnacle", "github(create_issue)"}, kept: []string{"edit", "create"}},
		{name: "a deny wider in the CLI is said",
			tools: agents.Tools{All: true, Deny: []string{"edit"}},
			deny:  []string{"write"}, note: `deny "edit" also refuses create`},
		{name: "a wildcard the CLI cannot match denies the kind",
			tools: agents.Tools{All: true, Deny: []string{"shell(rm*)"}},
			deny:  []string{"shell"}, note: "all of shell denied"},
		{name: "a comma would split the flag",
			tools: agents.Tools{Allow: []string{"shell(echo a,b)"}, Deny: []string{"shell(rm a,b)"}},
			deny:  []string{"shell", "read", "write", "url", "memory"}, note: "cannot hold a comma"},
		{name: "a deny no flag carries is said",
			tools: agents.Tools{All: true, Deny: []string{"agent(helper)"}},
			note:  `deny "agent(helper)": the Copilot CLI has no rule for one use of agent`},
		{name: "a kind denied whole hides the CLI's tools of it",
			tools: agents.Tools{All: true, Deny: []string{"grep", "webfetch"}},
			deny:  []string{"url"}, excluded: []string{"grep", "web_fetch"}, kept: []string{"glob", "bash"}},
		{name: "no tools: every tool of the CLI's hidden and every permission denied, apply_patch's too",
			tools:    agents.Tools{},
			deny:     []string{"read", "write", "shell", "url", "memory"},
			excluded: []string{"bash", "view", "create", "edit", "glob", "grep", "task", "web_fetch"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			cmd, err := Copilot(Request{Def: agents.Definition{Name: "a", Tools: tt.tools}, Prompt: "Work.", Catalog: cat, Program: "copilot"})
			if err != nil {
				t.Fatal(err)
			}
			if got := flagValues(cmd.Args, "--deny-tool"); !slices.Equal(got, tt.deny) {
				t.Errorf("--deny-tool %q, want %q", got, tt.deny)
			}
			if got := flagValues(cmd.Args, "--allow-tool"); !slices.Equal(got, tt.allow) {
				t.Errorf("--allow-tool %q, want %q", got, tt.allow)
			}
			excluded := flagValues(cmd.Args, "--excluded-tools")
			for _, x := range tt.excluded {
				if !slices.Contains(excluded, x) {
					t.Errorf("%s not excluded: %q", x, excluded)
				}
			}
			for _, k := range tt.kept {
				if slices.Contains(excluded, k) {
					t.Errorf("%s excluded, but the agent may use it", k)
				}
			}
			notes := strings.Join(cmd.Notes, "\n")
			if tt.note == "" && notes != "" || !strings.Contains(notes, tt.note) {
				t.Errorf("notes %q, want one with %q", notes, tt.note)
			}
		})
	}
}

func TestCopilotModelPromptAndPlace(t *testing.T) {
	cat := dialecttest.BuiltInCatalog()
	def := agents.Definition{Name: "a", Model: "sonnet", ReasoningEffort: "high", Tools: agents.Tools{All: true}}
	cmd, err := Copilot(Request{Def: def, Prompt: "Do {description} now.", Catalog: cat, Task: "the tests"})
	if err != nil {
		t.Fatal(err)
	}
	if got := flagValues(cmd.Args, "--model"); !slices.Equal(got, []string{"claude-sonnet-5"}) {
		t.Errorf("--model %q, want Copilot's spelling of sonnet", got)
	}
	if len(cmd.Notes) != 1 || !strings.Contains(cmd.Notes[0], `model "sonnet" written as "claude-sonnet-5", the version it means today`) {
		t.Errorf("the alias pinned to a version is not said: %q", cmd.Notes)
	}
	if got := flagValues(cmd.Args, "--reasoning-effort"); !slices.Equal(got, []string{"high"}) {
		t.Errorf("--reasoning-effort %q", got)
	}
	if got := cmd.Args[len(cmd.Args)-1]; got != "--interactive=Do the tests now." {
		t.Errorf("prompt %q", got)
	}
	cmd, _ = Copilot(Request{Def: def, Prompt: "- a list first\n--help", Catalog: cat})
	if got := cmd.Args[len(cmd.Args)-1]; got != "--interactive=- a list first\n--help" {
		t.Errorf("a prompt that starts with '-' is not joined to its flag: %q", got)
	}

	def.Model = "a-model-nobody-knows"
	cmd, _ = Copilot(Request{Def: def, Prompt: "Work.", Catalog: cat, Task: "the tests"})
	if slices.Contains(cmd.Args, "--model") || len(cmd.Notes) != 1 || !strings.Contains(cmd.Notes[0], "not in bn's model catalog") {
		t.Errorf("an unknown model: args %q, notes %q", cmd.Args, cmd.Notes)
	}
	if last := cmd.Args[len(cmd.Args)-1]; last != "--interactive=Work.\n\nTask: the tests" {
		t.Errorf("a prompt with no placeholder gets the task appended: %q", last)
	}

	def.Execution = agents.Container
	if _, err := Copilot(Request{Def: def, Catalog: cat}); err == nil || !strings.Contains(err.Error(), "pass --host") {
		t.Errorf("a container agent: %v", err)
	}
	if _, err := Copilot(Request{Def: def, Catalog: cat, Host: true}); err != nil {
		t.Errorf("--host: %v", err)
	}

	def.Execution = agents.Host
	_, err = Copilot(Request{Def: def, Prompt: "Work.", Catalog: cat, Task: "a\x00b"})
	if err == nil || !strings.Contains(err.Error(), `would hold a NUL byte (in "Work.\n\nTask: a"), which no program is given`) {
		t.Errorf("a NUL byte: %v", err)
	}
}

func TestFitsRefusesACommandTheSystemCannotStart(t *testing.T) {
	small := Command{Program: "copilot", Args: []string{"-i", "Work."}}
	huge := Command{Program: "copilot", Args: []string{"-i", strings.Repeat("x", 200<<10)}}
	windowsOnly := Command{Program: "copilot", Args: []string{"-i", strings.Repeat("é", 40000)}}
	for _, tt := range []struct {
		goos string
		cmd  Command
		want string
	}{
		{"linux", small, ""}, {"windows", small, ""},
		{"linux", huge, "is 204800 bytes, and a program takes at most 131071"},
		{"darwin", windowsOnly, ""}, {"darwin", huge, ""},
		{"windows", windowsOnly, "would be 40015 characters, and Windows starts at most 32767"},
	} {
		err := tt.cmd.Fits(tt.goos)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s, %d-byte argument: %v, want %q", tt.goos, len(tt.cmd.Args[1]), err, tt.want)
		}
	}
}
