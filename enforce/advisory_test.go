package enforce

import (
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/stretchr/testify/assert"
)

func TestAdvisory(t *testing.T) {
	for _, tc := range []struct {
		name  string
		tools agents.Tools
		rule  string
		deny  bool
		want  string // a part of the reason; "" holds
	}{
		{"shell deny under an open shell", agents.Tools{Allow: []string{"shell"}, Deny: []string{"shell(rm:*)"}}, "shell(rm:*)", true, "the shell is allowed whole"},
		{"shell deny, unrestricted", agents.Tools{All: true, Deny: []string{"shell(rm:*)"}}, "shell(rm:*)", true, "sh -c"},
		{"shell deny under patterns", agents.Tools{Allow: []string{"shell(git:*)"}, Deny: []string{"shell(git push:*)"}}, "shell(git push:*)", true, ""},
		{"git push deny beside git: its plumbing is matched too", agents.Tools{Allow: []string{"shell(git:*)"}, Deny: []string{"shell(git push)"}}, "shell(git push)", true, ""},
		{"git commit deny beside git", agents.Tools{Allow: []string{"shell(git:*)"}, Deny: []string{"shell(git commit:*)"}}, "shell(git commit:*)", true, `allow "shell(git:*)" lets git's plumbing (commit-tree, update-ref, update-index, read-tree) do what git commit does`},
		{"git commit deny beside git update-ref", agents.Tools{Allow: []string{"shell(git update-ref:*)", "shell(git commit-tree:*)"}, Deny: []string{"shell(git commit:*)"}}, "shell(git commit:*)", true, "plumbing"},
		{"git commit deny beside git diff", agents.Tools{Allow: []string{"shell(git diff:*)"}, Deny: []string{"shell(git commit:*)"}}, "shell(git commit:*)", true, ""},
		{"shell deny beside an interpreter", agents.Tools{Allow: []string{"shell(git:*)", "shell(python3:*)"}, Deny: []string{"shell(git push:*)"}}, "shell(git push:*)", true, `allow "shell(python3:*)" lets it run them anyway`},
		{"allow of an interpreter", agents.Tools{Allow: []string{"shell(make test)"}}, "shell(make test)", false, "make runs whatever code"},
		{"allow with a glob command word", agents.Tools{Allow: []string{"shell(* --version)"}}, "shell(* --version)", false, "glob"},
		{"allow of git diff", agents.Tools{Allow: []string{"shell(git diff:*)", "read"}}, "shell(git diff:*)", false, ""},
		{"git diff where .git/config is editable", agents.Tools{Allow: []string{"shell(git diff:*)", "edit"}}, "shell(git diff:*)", false, `may create or change .git/config (allow "edit")`},
		{"git diff where .git/config may be created", agents.Tools{Allow: []string{"shell(git diff:*)", "create(.git/*)"}}, "shell(git diff:*)", false, `may create or change .git/config (allow "create(.git/*)")`},
		{"git diff beside edit(src/*)", agents.Tools{Allow: []string{"shell(git diff:*)", "edit(src/*)"}}, "shell(git diff:*)", false, ""},
		{"git checkout beside edit limits", agents.Tools{Allow: []string{"shell(git checkout:*)", "edit(src/*)"}}, "shell(git checkout:*)", false, "git checkout changes files"},
		{"cp beside edit limits", agents.Tools{Allow: []string{"shell(cp:*)"}}, "shell(cp:*)", false, "cp writes the files"},
		{"cp with edits whole", agents.Tools{Allow: []string{"shell(cp:*)", "edit", "create"}}, "shell(cp:*)", false, ""},
		{"a pattern under an open shell limits nothing", agents.Tools{Allow: []string{"shell", "shell(python3:*)"}}, "shell(python3:*)", false, ""},
		{"read deny beside cat", agents.Tools{Allow: []string{"read", "shell(cat:*)"}, Deny: []string{"read(.env)"}}, "read(.env)", true, `allow "shell(cat:*)" runs a program that reads`},
		{"read deny beside an open shell", agents.Tools{All: true, Deny: []string{"read(.env)"}}, "read(.env)", true, "a script, an interpreter or a file name made when the line runs"},
		{"read deny without a shell", agents.Tools{Allow: []string{"read"}, Deny: []string{"read(.env)"}}, "read(.env)", true, ""},
		{"read allow in part beside a shell", agents.Tools{Allow: []string{"read(src/*)", "shell(git diff:*)"}}, "read(src/*)", false, "reads the files"},
		{"read allow in part beside read whole", agents.Tools{Allow: []string{"read(src/*)", "read", "shell"}}, "read(src/*)", false, ""},
		{"edit limit beside redirections only", agents.Tools{Allow: []string{"edit(src/*)", "shell(git diff:*)"}}, "edit(src/*)", false, ""},
		{"edit limit beside an open shell", agents.Tools{Allow: []string{"edit(src/*)", "shell"}}, "edit(src/*)", false, "cp, mv, an interpreter or a script writes"},
		{"edit limit beside mv", agents.Tools{Allow: []string{"edit(src/*)", "shell(mv:*)"}}, "edit(src/*)", false, "mv writes"},
		{"edit limit beside npm", agents.Tools{Allow: []string{"edit(src/*)", "shell(npm test)"}}, "edit(src/*)", false, "npm runs whatever code"},
		{"webfetch limit beside curl", agents.Tools{Allow: []string{"webfetch(https://go.dev/*)", "shell(curl:*)"}}, "webfetch(https://go.dev/*)", false, "fetches"},
		{"webfetch limit without a shell", agents.Tools{Allow: []string{"webfetch(https://go.dev/*)"}}, "webfetch(https://go.dev/*)", false, ""},
		{"a rule that does not parse", agents.Tools{Allow: []string{"shell("}}, "shell(", false, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Advisory(tc.tools, tc.rule, tc.deny)
			if tc.want == "" {
				assert.Empty(t, got)
				return
			}
			assert.Contains(t, got, tc.want)
		})
	}
}
