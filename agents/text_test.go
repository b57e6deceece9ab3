package agents

import (
	"strings"
	"testing"
)

func TestCheckText(t *testing.T) {
	for _, tc := range []struct {
		name      string
		in        string
		multiline bool
		err       string
	}{
		{"plain", "Reviews code", false, ""},
		{"unicode", "café — 日本", false, ""},
		{"line breaks in free text", "Reviews code.\r\n\tThen tests it.", true, ""},
		{"line break in one line", "sonnet\n", false, "holds U+000A (a control character) at byte 6"},
		{"tab in one line", "a\tb", false, "holds U+0009"},
		{"escape", "red\x1b[31m", true, "holds U+001B (ESC, which starts a terminal escape sequence) at byte 3"},
		{"nul", "a\x00", true, "holds U+0000"},
		{"del", "a\x7f", true, "holds U+007F"},
		{"c1 csi", "a\u009b", true, "holds U+009B"},
		{"invalid utf-8", "a\x9b", true, "holds a byte that is not UTF-8 at byte 1"},
		{"zero-width space in one line", "shell(r\u200bm:*)", false, "holds U+200B (an invisible format character"},
		{"soft hyphen in one line", "shell(r\u00adm:*)", false, "holds U+00AD (an invisible format character"},
		{"byte-order mark in one line", "\ufeffsonnet", false, "holds U+FEFF"},
		{"bidi override in one line", "x\u202edm.exe", false, "holds U+202E"},
		{"no-break space in one line", "shell(git\u00a0diff:*)", false, "holds U+00A0 (a space or line separator other than the plain space"},
		{"line separator in one line", "a\u2028b", false, "holds U+2028"},
		{"format characters in free text", "Reviews\u00a0code\u200b.", true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckText(tc.in, tc.multiline)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("CheckText(%q, %v) = %v, want %q", tc.in, tc.multiline, err, tc.err)
			}
		})
	}
}

func TestCheckNameUnsafe(t *testing.T) {
	for _, tc := range []struct{ name, err string }{
		{"reviewer", ""},
		{"powershell-5.1-expert", ""},
		{"console", ""},
		{"com10", ""},
		{"con", `Windows keeps CON for a device`},
		{"NUL.x", `Windows keeps NUL for a device`},
		{"Com1", `Windows keeps COM1 for a device`},
		{"lpt9.md", `Windows keeps LPT9 for a device`},
		{"aux", `give the agent another name, such as "my-aux"`},
		{"a/b", "use 1-64 letters"},
		{`a\b`, "use 1-64 letters"},
		{"..", "use 1-64 letters"},
		{"a..b", "without '..'"},
		{"trail.", "not ending in '.'"},
		{"trail ", "use 1-64 letters"},
		{"x\x1b", "use 1-64 letters"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckName(tc.name)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("CheckName(%q) = %v, want %q", tc.name, err, tc.err)
			}
		})
	}
}

func TestCheckFieldsControl(t *testing.T) {
	ok := func() Definition {
		return Definition{Name: "x", Description: "Reviews code.\n\tThen tests it.", Model: "sonnet", Prompt: "Review.\r\nTest.",
			Tools: Tools{Allow: []string{"read"}}}
	}
	for _, tc := range []struct {
		name string
		edit func(d *Definition)
		err  string
	}{
		{"clean", func(d *Definition) {}, ""},
		{"description", func(d *Definition) { d.Description = "a\x1b[2J" }, "description: holds U+001B"},
		{"model", func(d *Definition) { d.Model = "sonnet\n" }, "model: holds U+000A"},
		{"color", func(d *Definition) { d.Color = "red\u009b" }, "color: holds U+009B"},
		{"skills", func(d *Definition) { d.Skills = []string{"go\x07"} }, `skills: "go\a" holds U+0007`},
		{"prompt", func(d *Definition) { d.Prompt = "a\x1b]0;t\x07" }, "prompt: holds U+001B"},
		{"tool entry", func(d *Definition) { d.Tools.Deny = []string{"@claude(Bash\x1b)"} }, `tools: "@claude(Bash\x1b)" holds U+001B`},
		{"mcp server", func(d *Definition) { d.MCPServers = []MCPServer{{Name: "gh\x1b"}} }, `mcp-servers: "gh\x1b" holds U+001B`},
		{"tool id", func(d *Definition) { d.Target("claude").ID = "x\x00" }, "claude.id: holds U+0000"},
		{"tool field", func(d *Definition) { d.Target("claude").Fields.Set("effort", []any{"high\x1b"}) }, "claude.effort: item 1 holds U+001B"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := ok()
			tc.edit(&d)
			err := CheckFields(&d)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Errorf("CheckFields = %v, want %q", err, tc.err)
			}
		})
	}
}

func TestBrief(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc… (4 bytes in all)"},
		{"aéb", 2, "a… (4 bytes in all)"}, // not half of é
	} {
		if got := Brief(tc.s, tc.n); got != tc.want {
			t.Errorf("Brief(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}
