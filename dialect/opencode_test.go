package dialect_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A pattern of a kind the agent has whole is no limit: OpenCode and Kilo
// keep the whole key, and an ask or deny of a pattern goes after "*".
func TestOpenCodeWholeAndPattern(t *testing.T) {
	cat := catalog(t)
	for _, target := range []string{"opencode", "kilo"} {
		for _, tt := range []struct {
			tools   agents.Tools
			written []string
		}{
			{agents.Tools{Allow: []string{"read", "shell", "shell(git status)"}}, []string{"bash: allow"}},
			{agents.Tools{Allow: []string{"read", "shell", "edit", "create", "notebook"}, Ask: []string{"shell(git push:*)", "edit(src/*)"}},
				[]string{"bash:\n    \"*\": allow\n    git push: ask", "edit:\n    \"*\": allow\n    src/*: ask"}},
			{agents.Tools{Allow: []string{"read", "shell", "shell(git status)"}, Deny: []string{"shell(rm:*)"}},
				[]string{"bash:\n    \"*\": allow\n    rm: deny"}},
		} {
			d, ok := dialect.All().Lookup(target)
			require.True(t, ok)
			def := agents.Definition{Name: "both", Description: "Whole and a pattern", Prompt: "Do what you are asked.", Tools: tt.tools}
			out, err := d.Render(def, "both", "# marker\n", cat)
			require.NoError(t, err)
			for _, w := range tt.written {
				assert.Contains(t, string(out.Content), w, target)
			}
			back := read(t, target, d.Info().Dir+"/both.md", string(out.Content))
			assert.True(t, agents.Decide(back.Def.Tools, agents.ToolPattern{Kind: "shell", Arg: "ls -la", HasArg: true}).Allowed, "%s: the whole shell is lost:\n%s", target, out.Content)
		}
	}
}

// OpenCode decides a call by the last rule that matches it: an ask a
// later, broader rule matches all of is no ask, and a later allow that
// matches part of an ask is noted where bn asks.
func TestOpenCodeLastMatchDecidesAsk(t *testing.T) {
	for _, tt := range []struct {
		name, bash string
		ask        []string
		note       string
	}{
		{"a later * allows it", `"git push *": ask, "*": allow`, nil,
			`bash "git push *" asks the user before each use in OpenCode, but the later rule bash: allow overrides it (the last match wins): bn records no ask, and the use is allowed`},
		{"a later broader pattern allows it", `"git push *": ask, "git *": allow`, nil,
			`bash "git push *" asks the user before each use in OpenCode, but the later rule bash "git *": allow overrides it (the last match wins): bn records no ask, and the use is allowed`},
		{"a later broader pattern with no space", `"*": allow, "git push*": ask, "git*": deny`, nil,
			`bash "git push*" asks the user before each use in OpenCode, but the later rule bash "git*": deny overrides it (the last match wins): bn records no ask, and the use is denied`},
		{"a later narrower allow", `"*": allow, "git push *": ask, "git push --dry-run *": allow`, []string{"shell(git push *)"},
			`OpenCode allows bash "git push --dry-run *" without asking; bn asks before it, as the ask of bash "git push *" covers it and in bn an ask wins over an allow`},
		{"a later allow that meets part of it", `"*": allow, "git push *": ask, "git * --dry-run": allow`, []string{"shell(git push *)"},
			`OpenCode allows bash "git * --dry-run" without asking; bn asks before what both match, as the ask of bash "git push *" covers it and in bn an ask wins over an allow`},
		{"a later allow apart from it", `"*": allow, "git push *": ask, "ls *": allow`, []string{"shell(git push *)"}, ""},
		{"an earlier broader allow", `"git *": allow, "git push *": ask`, []string{"shell(git push *)"}, ""},
		{"a later pattern that takes in only the stem", `"*": allow, "git push *": ask, "git push": allow`, []string{"shell(git push *)"},
			`OpenCode allows bash "git push" without asking; bn asks before it`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, target := range []string{"opencode", "kilo"} {
				d, _ := dialect.All().Lookup(target)
				src := "---\ndescription: Pushes\npermission:\n  bash: {" + tt.bash + "}\n---\nPush.\n"
				im := read(t, target, d.Info().Dir+"/pusher.md", src)
				assert.Equal(t, tt.ask, im.Def.Tools.Ask, "%s: %s", target, tt.bash)
				notes := strings.Join(im.Notes, "\n")
				if tt.note != "" {
					assert.Contains(t, notes, strings.ReplaceAll(tt.note, "OpenCode", d.Info().Title), target)
				} else {
					assert.NotContains(t, notes, "without asking", target)
				}
				if tt.ask == nil {
					assert.NotContains(t, notes, "records it as an ask", target)
				}
			}
		})
	}
}

// An ask of every tool is decided, for a key a later whole rule names, by
// that rule (the last match wins); "*" after a key's rule overrides it.
func TestOpenCodeEveryToolAskLastMatch(t *testing.T) {
	for _, tt := range []struct {
		name, perm string
		allowed    bool // read runs without asking
		asksShell  bool
		note       string
	}{
		{"a later read allows reads", `"*": ask, read: allow`, true, true,
			`OpenCode asks before every tool, but the later rule read: allow overrides it there (the last match wins): bn records no ask of read`},
		{"a later * asks before reads too", `read: allow, "*": ask`, false, true, `OpenCode asks before every tool;`},
		{"a later read ask keeps it", `"*": ask, read: ask`, false, true, `OpenCode asks before every tool;`},
		{"a later bash pattern allows it", `"*": ask, read: allow, bash: {"git *": allow}`, true, true,
			`OpenCode allows bash "git *" without asking; bn asks before it, as the ask of every tool covers it`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, target := range []string{"opencode", "kilo"} {
				d, _ := dialect.All().Lookup(target)
				src := "---\ndescription: Asks\npermission: {" + tt.perm + "}\n---\nWork.\n"
				im := read(t, target, d.Info().Dir+"/asker.md", src)
				tools := im.Def.Tools
				assert.Equal(t, !tt.allowed, slices.Contains(tools.Ask, "read"), "%s: %s: ask %v", target, tt.perm, tools.Ask)
				assert.True(t, agents.Decide(tools, agents.ToolPattern{Kind: "read"}).Allowed, "%s: %s", target, tt.perm)
				assert.Equal(t, tt.asksShell, slices.Contains(tools.Ask, "shell"), "%s: %s: ask %v", target, tt.perm, tools.Ask)
				assert.Contains(t, strings.Join(im.Notes, "\n"), strings.ReplaceAll(tt.note, "OpenCode", d.Info().Title), target)
			}
		})
	}
}

// OpenCode decides a command by the last pattern that matches it, in the
// file's order (the probes' deny-then-broader-allow, allow-then-deny and
// deny-then-narrower-allow cases): a deny a later allow covers is no
// deny, a deny after an allow limits it even where bash is denied whole,
// and a deny a later allow meets in part stays, noted.
func TestOpenCodeLastMatchDecidesDeny(t *testing.T) {
	for _, tt := range []struct {
		name, bash string
		// rm -f victim, and rmdir x, which only r* matches
		rmAllowed, rmdirAllowed bool
		note                    string
	}{
		{"a later broader allow", `"rm *": deny, "r*": allow`, true, true,
			`OpenCode denies bash "rm *", but the later rule bash "r*": allow matches every call it does (the last match wins): bn records no deny, and the use is allowed`},
		{"a later broader ask", `"rm *": deny, "r*": ask`, true, true, `the later rule bash "r*": ask matches every call it does`},
		{"a deny after an allow, bash denied whole", `"*": deny, "r*": allow, "rm *": deny`, false, true, ""},
		{"a later narrower allow", `"*": allow, "r*": deny, "rm *": allow`, false, false,
			`OpenCode allows bash "rm *" after the deny of bash "r*" (the last match wins); bn denies the shell uses both match, as in bn a deny wins over an allow`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, target := range []string{"opencode", "kilo"} {
				d, _ := dialect.All().Lookup(target)
				src := "---\ndescription: Removes\npermission:\n  bash: {" + tt.bash + "}\n---\nRemove.\n"
				im := read(t, target, d.Info().Dir+"/remover.md", src)
				rm := agents.Decide(im.Def.Tools, agents.ToolPattern{Kind: "shell", Arg: "rm -f victim", HasArg: true})
				assert.Equal(t, tt.rmAllowed, rm.Allowed, "%s: %s: %+v", target, tt.bash, im.Def.Tools)
				assert.Equal(t, tt.rmdirAllowed, agents.Decide(im.Def.Tools, agents.ToolPattern{Kind: "shell", Arg: "rmdir x", HasArg: true}).Allowed, "%s: %s", target, tt.bash)
				notes := strings.Join(im.Notes, "\n")
				if tt.note != "" {
					assert.Contains(t, notes, strings.ReplaceAll(tt.note, "OpenCode", d.Info().Title), target)
				} else {
					assert.NotContains(t, notes, "last match", target)
				}
			}
		})
	}
}

// Export writes every deny after the allows and asks of the same pattern:
// OpenCode, applying the last match, then decides as bn does.
func TestOpenCodeDenyWrittenLast(t *testing.T) {
	cat := catalog(t)
	def := agents.Definition{Name: "remover", Description: "Removes", Prompt: "Remove.",
		Tools: agents.Tools{Allow: []string{"read", "shell(rm:*)", "shell(r*)"}, Deny: []string{"shell(rm:*)"}}}
	for _, target := range []string{"opencode", "kilo"} {
		d, _ := dialect.All().Lookup(target)
		out, err := d.Render(def, def.Name, "# marker\n", cat)
		require.NoError(t, err)
		assert.Contains(t, string(out.Content), "bash:\n    r*: allow\n    rm: deny\n    rm *: deny\n", target)
		back := read(t, target, d.Info().Dir+"/remover.md", string(out.Content))
		for arg, want := range map[string]bool{"rm -f victim": false, "rmdir x": true} {
			assert.Equal(t, want, agents.Decide(back.Def.Tools, agents.ToolPattern{Kind: "shell", Arg: arg, HasArg: true}).Allowed, "%s: %s\n%s", target, arg, out.Content)
		}
	}
}
