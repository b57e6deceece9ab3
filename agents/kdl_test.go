package agents

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDecodeKDLFields(t *testing.T) {
	src := `agent "reviewer" {
    extends "ask"
    description "Reviews: diffs # carefully"
    execution "Container"
    lifecycle "stateless"
    model "m"
    reasoning-effort "high"
    show-reasoning false
    render-markdown true
    tags "a" "b"
    hidden
    tools {
        reset
        allow "view" "shell(git:*)"
        allow "grep"
        deny "write"
        remove "shell(bn:*)"
    }
    prompt-file "./reviewer.md"
    prompt-append r#"More "text""#
    prompt-prepend "First"
}
`
	f := DecodeKDL("c.kdl", []byte(src))
	require.Empty(t, f.Diags)
	require.Len(t, f.Specs, 1)
	s := f.Specs[0]
	require.Empty(t, s.Diags)
	assert.Equal(t, "reviewer", s.Name)
	assert.Equal(t, Pos{"c.kdl", 1, 1}, s.Pos)
	assert.Equal(t, "ask", s.Extends.Value)
	assert.Equal(t, "Reviews: diffs # carefully", s.Description.Value)
	assert.Equal(t, Pos{"c.kdl", 3, 5}, s.Description.Pos)
	assert.Equal(t, Container, s.Execution.Value, "enums are case-insensitive, stored lower-case")
	assert.Equal(t, Stateless, s.Lifecycle.Value)
	assert.True(t, s.ShowReasoning.Set)
	assert.False(t, s.ShowReasoning.Value)
	assert.True(t, s.Hidden.Value, "a flag with no value is true")
	assert.Equal(t, []string{"a", "b"}, s.Tags.Value)
	assert.True(t, s.Tools.Reset.Value)
	assert.Equal(t, []Pattern{{"view", Pos{"c.kdl", 14, 9}}, {"shell(git:*)", Pos{"c.kdl", 14, 9}}, {"grep", Pos{"c.kdl", 15, 9}}}, s.Tools.Allow)
	assert.Equal(t, "reviewer.md", s.Prompt.Value.File)
	assert.Equal(t, `More "text"`, s.PromptAppend.Value)
	assert.Equal(t, "First", s.PromptPrepend.Value)
}

func TestDecodeKDLErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
		fileLevel       bool
	}{
		{"syntax", "agent \"a\" {\n  model \"x\" = 1\n}\n", `c.kdl:2:13: KDL syntax error: unexpected '='`, true},
		{"v2 bool", "agent \"a\" {\n  hidden #false\n}\n", `c.kdl:2:10: bn reads KDL 1.0, which spells #false as false`, true},
		{"v2 raw", "agent \"a\" {\n  prompt #\"x\"#\n}\n", `bn reads KDL 1.0, which writes raw strings as r#"…"#`, true},
		{"v2 null", "agent \"a\" {\n  model #null\n}\n", `spells #null as null`, true},
		{"unterminated comment", "agent \"a\" {\n  /* never\n}\n", `c.kdl:2:3: this /* comment is never closed`, true},
		{"top level", "agents \"a\" {\n}\n", `unknown top-level node "agents"; config.kdl holds only agent nodes (did you mean "agent"?)`, true},
		{"no name", "agent {\n}\n", `agent: takes one string value, found 0 values`, true},
		{"numeric name", "agent 5 {\n}\n", `expects a string, found number 5`, true},
		{"bad name", "agent \"a/b\" {\n}\n", `invalid agent name "a/b"`, true},
		{"agent props", "agent \"a\" x=\"1\" {\n}\n", `does not take properties`, true},
		{"unknown field", "agent \"a\" {\n  descripton \"x\"\n}\n", `c.kdl:2:3: agent "a": descripton: unknown field "descripton" (did you mean "description"?)`, false},
		{"null string", "agent \"a\" {\n  description null\n}\n", `expects a string, found null`, false},
		{"empty string", "agent \"a\" {\n  description \"  \"\n}\n", `must not be empty`, false},
		{"two values", "agent \"a\" {\n  model \"a\" \"b\"\n}\n", `takes one string value, found 2 values`, false},
		{"bool string", "agent \"a\" {\n  hidden \"true\"\n}\n", `expects true or false, found string "true"`, false},
		{"enum", "agent \"a\" {\n  lifecycle \"statefull\"\n}\n", `"statefull" is not one of "stateful", "stateless"; did you mean "stateful"?`, false},
		{"effort", "agent \"a\" {\n  reasoning-effort \"max\"\n}\n", `"max" is not one of "low", "medium", "high", "xhigh"`, false},
		{"tag", "agent \"a\" {\n  tags \"a b\"\n}\n", `tag "a b" must be one word`, false},
		{"children", "agent \"a\" {\n  model \"x\" {\n    y 1\n  }\n}\n", `model: does not take a { } block`, false},
		{"tools args", "agent \"a\" {\n  tools \"x\"\n}\n", `tools: takes no values`, false},
		{"tools child", "agent \"a\" {\n  tools {\n    permit \"x\"\n  }\n}\n", `unknown "permit" in tools`, false},
		{"pattern", "agent \"a\" {\n  tools {\n    allow \"shell()\"\n  }\n}\n", `empty argument`, false},
		{"prompt both", "agent \"a\" {\n  prompt \"x\"\n  prompt-file \"a.md\"\n}\n", `both prompt and prompt-file are set`, false},
		{"absolute", "agent \"a\" {\n  prompt-file \"/etc/passwd\"\n}\n", `is absolute`, false},
		{"dotdot", "agent \"a\" {\n  prompt-file \"../x.md\"\n}\n", `leaves its directory`, false},
		{"backslash", "agent \"a\" {\n  prompt-file \"a\\\\b.md\"\n}\n", `write paths with '/'`, false},
		{"windows", "agent \"a\" {\n  prompt-file \"C:/x.md\"\n}\n", `is absolute`, false},
		{"duplicate field", "agent \"a\" {\n  model \"x\"\n  model \"y\"\n}\n", `c.kdl:3:3: agent "a": model: given twice in one agent node (first at line 2)`, false},
		{"duplicate agent", "agent \"a\" {\n}\nagent \"a\" {\n}\n", `c.kdl:3:1: agent "a": agent: defined twice in this file (first at line 1)`, false},
		{"type annotation", "agent \"a\" {\n  (t)model \"x\"\n}\n", `type annotation (t) is not used by bn`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := DecodeKDL("c.kdl", []byte(tt.src))
			var all Diagnostics
			if tt.fileLevel {
				all = f.Diags
			} else {
				require.Empty(t, f.Diags)
				for _, s := range f.Specs {
					all = append(all, s.Diags...)
				}
			}
			require.True(t, all.HasErrors(), "no error for %q", tt.src)
			assert.Contains(t, all.Error(), tt.want)
		})
	}
}

func TestSlashdashKeepsPositions(t *testing.T) {
	src := "/-agent \"x\" {\n  model \"m\"\n}\nagent \"a\" {\n  /-model \"skipped\"\n  /- description \"gone\" {\n    x 1\n  }\n  model 5\n}\n"
	f := DecodeKDL("c.kdl", []byte(src))
	require.Len(t, f.Specs, 1)
	require.Len(t, f.Specs[0].Diags, 1)
	assert.Equal(t, Pos{"c.kdl", 9, 3}, f.Specs[0].Diags[0].Pos)
}

func TestQuoteKDLRoundTrip(t *testing.T) {
	for _, s := range []string{"plain", `quo"te`, `back\slash`, "multi\nline \"with\" quotes\"#", "tab\tand\u0007bell", "crlf\r\nline", "é ∂ 🚀"} {
		var b strings.Builder
		WriteKDLAgent(&b, KDLAgent{Definition: Definition{Name: "a", Description: s, Execution: Host, Lifecycle: Stateless, Prompt: s}})
		f := DecodeKDL("w.kdl", []byte(b.String()))
		require.Empty(t, f.Diags, b.String())
		require.Len(t, f.Specs, 1)
		require.Empty(t, f.Specs[0].Diags, b.String())
		assert.Equal(t, s, f.Specs[0].Description.Value)
		assert.Equal(t, s, f.Specs[0].Prompt.Value.Text)
	}
}

func FuzzDecodeKDL(f *testing.F) {
	f.Add([]byte("agent \"a\" {\n  description \"x\"\n  tools {\n    allow \"view\"\n  }\n}\n"))
	f.Add([]byte("agent \"a\" { hidden #true; }"))
	f.Add([]byte("/-agent \"a\" {}\nagent r#\"b\"# { prompt r##\"x\"#y\"##; }"))
	f.Add([]byte("agent \"a\" {\n  prompt \"\"\"\n  x\n  \"\"\"\n}"))
	f.Add([]byte("a \\\n  b (t)1 c=\"d\" /- e { f; }"))
	f.Fuzz(func(t *testing.T, src []byte) {
		file := DecodeKDL("f.kdl", src)
		for _, d := range file.Diags {
			if d.Pos.Line < 0 || d.Pos.Col < 0 {
				t.Fatalf("bad position %v", d.Pos)
			}
		}
	})
}

func FuzzQuoteKDL(f *testing.F) {
	for _, s := range []string{"x", "a\nb", "\"#", "\\u{0}", "\x00\x1b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if strings.TrimSpace(s) == "" || !utf8Valid(s) {
			return
		}
		var b strings.Builder
		WriteKDLAgent(&b, KDLAgent{Definition: Definition{Name: "a", Description: s}})
		file := DecodeKDL("w.kdl", []byte(b.String()))
		if len(file.Diags) > 0 || len(file.Specs) != 1 || len(file.Specs[0].Diags) > 0 {
			t.Fatalf("%q does not read back: %v %v", b.String(), file.Diags, file.Specs)
		}
		if got := file.Specs[0].Description.Value; got != s {
			t.Fatalf("wrote %q, read %q", s, got)
		}
	})
}
