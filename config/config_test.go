package config

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/kdl"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sections stands in for the dialect registry: copilot, with any field.
type sections struct{}

func (sections) Tools() []string { return []string{"copilot", "claude"} }
func (sections) CheckField(tool, key string, v any) error {
	if key == "bad" {
		return fmt.Errorf("%s has no field %q", tool, key)
	}
	return nil
}

func (sections) CheckDifferenceField(tool, field string) error {
	if field == "bad" {
		return fmt.Errorf("names the field %q", field)
	}
	return nil
}

var dec = Decoder{Sections: sections{}}

func value(t *testing.T, s *agents.Spec, f *agents.Field) agents.SetValue {
	t.Helper()
	v, ok := s.Get(f)
	require.True(t, ok, "%s not set", f.Name)
	return v
}

// reviewerSources are one agent that sets every kind of field, in KDL 2.0
// as binnacle writes it and in 1.0.
var reviewerSources = []string{
	// KDL 2.0, as binnacle writes it.
	`agent reviewer {
    extends ask
    description "Reviews: diffs # carefully"
    execution Container
    lifecycle stateless
    model m
    reasoning-effort high
    show-reasoning #false
    render-markdown #true
    tags a b
    hidden
    temperature 0.2
    max-turns 12
    tools {
        reset
        allow view "shell(git:*)"
        allow grep
        deny write
        remove "shell(bn:*)"
    }
    mcp-server github {
        command npx
        args "-y" "@modelcontextprotocol/server-github"
    }
    copilot {
        id rev
        handoffs {
            - {
                label Go
                send #false
            }
        }
    }
    prompt-file "./reviewer.md"
    prompt-append #"More "text""#
    prompt-prepend First
}
`,
	// The same in KDL 1.0.
	`agent "reviewer" {
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
    temperature 0.2
    max-turns 12
    tools {
        reset
        allow "view" "shell(git:*)"
        allow "grep"
        deny "write"
        remove "shell(bn:*)"
    }
    mcp-server "github" {
        command "npx"
        args "-y" "@modelcontextprotocol/server-github"
    }
    copilot {
        id "rev"
        handoffs {
            - {
                label "Go"
                send false
            }
        }
    }
    prompt-file "./reviewer.md"
    prompt-append r#"More "text""#
    prompt-prepend "First"
}
`}

func TestDecodeKDLFields(t *testing.T) {
	for _, src := range reviewerSources {
		res := dec.KDL("c.kdl", []byte(src))
		require.Empty(t, res.Diags, src)
		require.Len(t, res.Specs, 1)
		s := res.Specs[0]
		require.Empty(t, s.Diags)
		assert.Equal(t, "reviewer", s.Name)
		assert.Equal(t, agents.Pos{File: "c.kdl", Line: 1, Col: 1}, s.Pos)
		assert.Equal(t, "ask", s.Extends.Value)
		assert.Equal(t, "Reviews: diffs # carefully", value(t, s, agents.FieldDescription).Value)
		assert.Equal(t, agents.Pos{File: "c.kdl", Line: 3, Col: 5}, value(t, s, agents.FieldDescription).Pos)
		assert.Equal(t, "container", value(t, s, agents.FieldExecution).Value, "enums are case-insensitive, stored lower-case")
		assert.Equal(t, false, value(t, s, agents.FieldShowReasoning).Value)
		assert.Equal(t, true, value(t, s, agents.FieldHidden).Value, "a flag with no value is true")
		assert.Equal(t, []string{"a", "b"}, value(t, s, agents.FieldTags).Value)
		assert.Equal(t, 0.2, value(t, s, agents.FieldTemperature).Value)
		assert.Equal(t, int64(12), value(t, s, agents.FieldMaxTurns).Value)
		assert.True(t, s.Tools.Reset.Value)
		assert.Equal(t, []agents.Pattern{{Text: "view", Pos: agents.Pos{File: "c.kdl", Line: 16, Col: 9}}, {Text: "shell(git:*)", Pos: agents.Pos{File: "c.kdl", Line: 16, Col: 9}},
			{Text: "grep", Pos: agents.Pos{File: "c.kdl", Line: 17, Col: 9}}}, s.Tools.Allow)
		require.Len(t, s.More.MCP, 1)
		assert.Equal(t, "github", s.More.MCP[0].Server.Name)
		args, _ := s.More.MCP[0].Server.Config.Get("args")
		assert.Equal(t, []any{"-y", "@modelcontextprotocol/server-github"}, args)
		assert.Equal(t, "rev", s.More.Targets["copilot"].ID.Value)
		require.Len(t, s.More.Targets["copilot"].Fields, 1)
		handoff := s.More.Targets["copilot"].Fields[0].Value.([]any)[0].(*agents.Map)
		assert.Equal(t, []string{"label", "send"}, handoff.Keys)
		assert.Equal(t, false, handoff.Values["send"])
		assert.Equal(t, "reviewer.md", s.Prompt.Value.File)
		assert.Equal(t, `More "text"`, s.More.PromptAppend.Value)
		assert.Equal(t, "First", s.More.PromptPrepend.Value)
	}
}

// kdlErrorCases are config.kdl files with one error each, and whether the
// error is the file's or one agent's.
var kdlErrorCases = []struct {
	name, src, want string
	fileLevel       bool
}{
	{"syntax", "agent \"a\" {\n  model \"x\" =\n}\n", `c.kdl:2:14: a property needs a value after '='`, true},
	{"property", "agent \"a\" {\n  model \"x\" = 1\n}\n", `model: does not take properties (found x=…)`, false},
	{"mixed versions", "agent \"a\" {\n  hidden true\n  model #null\n}\n", `c.kdl:3:9: this file mixes KDL versions: line 2 uses a 1.0 spelling`, true},
	{"unterminated comment", "agent \"a\" {\n  /* never\n}\n", `c.kdl:2:3: this /* comment is never closed`, true},
	{"top level", "agents \"a\" {\n}\n", `unknown top-level node "agents"; config.kdl holds agent, model, export, source and policy nodes (did you mean "agent"?)`, true},
	{"no name", "agent {\n}\n", `agent: takes one string value, found 0 values`, true},
	{"numeric name", "agent 5 {\n}\n", `expects a string, found number 5`, true},
	{"bad name", "agent \"a/b\" {\n}\n", `invalid agent name "a/b"`, true},
	{"agent props", "agent \"a\" x=\"1\" {\n}\n", `does not take properties`, true},
	{"model node tool", "model x {\n  clade y\n}\n", `model "x": unknown tool "clade"`, true},
	{"export setting", "export {\n  built-in-agent #false\n}\n", `unknown export setting "built-in-agent" (did you mean "built-in-agents"?)`, true},
	{"unknown field", "agent \"a\" {\n  descripton \"x\"\n}\n", `c.kdl:2:3: agent "a": descripton: unknown field "descripton" (did you mean "description"?)`, false},
	{"null string", "agent \"a\" {\n  description #null\n}\n", `expects a string, found null`, false},
	{"empty string", "agent \"a\" {\n  description \"  \"\n}\n", `must not be empty`, false},
	{"two values", "agent \"a\" {\n  model \"a\" \"b\"\n}\n", `takes one string value, found 2 values`, false},
	{"bool string", "agent \"a\" {\n  hidden \"true\"\n}\n", `expects true or false (#true or #false in KDL 2.0), found string "true"`, false},
	{"enum", "agent \"a\" {\n  lifecycle \"statefull\"\n}\n", `"statefull" is not one of "stateful", "stateless"; did you mean "stateful"?`, false},
	{"effort", "agent \"a\" {\n  reasoning-effort \"maximum\"\n}\n", `"maximum" is not one of "none", "minimal"`, false},
	{"temperature", "agent a {\n  temperature 3\n}\n", `3 is out of range; use a number from 0 to 2`, false},
	{"turns", "agent a {\n  max-turns 1.5\n}\n", `expects a whole number, found number 1.5`, false},
	{"tag", "agent \"a\" {\n  tags \"a b\"\n}\n", `"a b" must be one word`, false},
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
	{"section field", "agent a {\n  copilot {\n    bad 1\n  }\n}\n", `copilot.bad: copilot has no field "bad"`, false},
	{"section data", "agent a {\n  copilot {\n    x 1 {\n      y 2\n    }\n  }\n}\n", `copilot.x: takes values or a { } block, not both`, false},
	{"section partial", "agent a {\n  copilot {\n    partial wide\n  }\n}\n", `expects "widen" or "narrow"`, false},
	{"placeholder", "agent a {\n  placeholders {\n    Task x\n  }\n}\n", `a placeholder name is lower-case`, false},
	{"source no ref", "source team {\n  url x\n}\n", `c.kdl:1:1: source: source "team" needs a url and a ref`, true},
	{"source key", "source team {\n  url x\n  ref v1\n  branch y\n}\n", `unknown setting "branch"; use url, ref and path`, true},
	{"source path", "source team {\n  url x\n  ref v1\n  path \"../up\"\n}\n", `path "../up" is not a directory inside the repository`, true},
	{"source option", "source team {\n  url \"--upload-pack=x\"\n  ref v1\n}\n", `a url or ref may not start with '-'`, true},
	{"source name", "source \"../up\" {\n  url x\n  ref v1\n}\n", `c.kdl:1:1: source: source "../up": a source's name is 1-64 letters, digits, '-', '_' or '.', starting with a letter or digit, not ending in '.' and without '..' (it names the source's directory in bn's cache)`, true},
	{"source twice", "source t {\n  url x\n  ref v1\n}\nsource t {\n  url x\n  ref v1\n}\n", `source "t" is declared twice`, true},
	{"policy key", "policy {\n  denies x\n}\n", `unknown policy setting "denies"; use deny, models and lock`, true},
	{"policy lock", "policy {\n  lock exection\n}\n", `"exection" is not a field bn has`, true},
	{"policy pattern", "policy {\n  deny \"shell(\"\n}\n", `policy.deny: "shell("`, true},
	{"typed model spelling", "model m {\n  claude (t)\"x\"\n}\n", `c.kdl:2:3: model.claude: type annotation (t) is not used`, true},
	{"typed policy value", "policy {\n  deny (t)\"write\"\n}\n", `c.kdl:2:3: policy.deny: type annotation (t) is not used`, true},
	{"typed export setting", "export {\n  built-in-agents (t)#true\n}\n", `c.kdl:2:3: export.built-in-agents: type annotation (t) is not used`, true},
}

func TestDecodeKDLErrors(t *testing.T) {
	for _, tt := range kdlErrorCases {
		t.Run(tt.name, func(t *testing.T) {
			res := dec.KDL("c.kdl", []byte(tt.src))
			var all agents.Diagnostics
			if tt.fileLevel {
				all = res.Diags
			} else {
				require.Empty(t, res.Diags)
				for _, s := range res.Specs {
					all = append(all, s.Diags...)
				}
			}
			require.True(t, all.HasErrors(), "no error for %q", tt.src)
			assert.Contains(t, all.Error(), tt.want)
		})
	}
}

// TestDeferredDecodingMatches decodes every test file with its agents
// deferred, then completes them: each spec, diagnostic and prompt file
// must be what decoding at once gives.
func TestDeferredDecodingMatches(t *testing.T) {
	srcs := append([]string{bigConfig(300), strings.ReplaceAll(bigConfig(300), "hidden false", "hidden #false"),
		"agent a {\n  prompt-file x.md\n  prompt-file y.md\n}\nagent b {\n  prompt-file z.md\n  prompt q\n}\nagent c {\n  prompt q\n  prompt-file w.md\n}\n" +
			"agent d { prompt-file \"../up.md\"; }\n\"é\" 1; agent e { description \"ü\"; model 5; }; agent f\n"}, reviewerSources...)
	for _, tt := range kdlErrorCases {
		srcs = append(srcs, tt.src)
	}
	deferred := Decoder{Sections: sections{}, Defer: true}
	for _, src := range srcs {
		want, got := dec.KDL("c.kdl", []byte(src)), deferred.KDL("c.kdl", []byte(src))
		for _, s := range got.Specs {
			s.Complete()
		}
		require.Equal(t, want, got, src)
	}
	got := deferred.KDL("c.kdl", []byte(srcs[1]))
	require.Equal(t, kdl.V2, got.Version)
	assert.Len(t, got.PromptFiles, 300, "prompt files are known before the specs complete")
	assert.False(t, got.Specs[0].Prompt.Set, "the rest waits for Complete")
}

func TestSlashdashKeepsPositions(t *testing.T) {
	for _, src := range []string{
		"/-agent \"x\" {\n  model \"m\"\n}\nagent \"a\" {\n  /-model \"skipped\"\n  /- description \"gone\" {\n    x 1\n  }\n  model 5\n}\n",
		"/-agent \"x\" {\n  model \"m\"\n}\nagent \"a\" {\n  /-model \"skipped\"\n  /- description \"gone\" {\n    x 1\n  }\n  model 5\n  hidden true\n}\n",
	} {
		res := dec.KDL("c.kdl", []byte(src))
		require.Len(t, res.Specs, 1, src)
		require.NotEmpty(t, res.Specs[0].Diags)
		assert.Equal(t, agents.Pos{File: "c.kdl", Line: 9, Col: 3}, res.Specs[0].Diags[0].Pos)
	}
}

// bigConfig writes n agent nodes in KDL 1.0; 2,500 of them once made
// kdl-go's streaming reader report a syntax error in a valid file.
func bigConfig(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "agent \"a-%d\" {\n    description \"Agent %d: does one job well\"\n    hidden false\n    tags \"bench\" \"x\"\n    tools {\n        allow \"view\" \"grep\" \"shell(git:*)\"\n        deny \"write\"\n    }\n    prompt-file \"a-%d.md\"\n}\n", i, i, i)
	}
	return b.String()
}

func TestLargeKDL1Files(t *testing.T) {
	for _, n := range []int{1, 300, 2500} {
		res := dec.KDL("big.kdl", []byte(bigConfig(n)))
		require.Empty(t, res.Diags, "n=%d", n)
		assert.Equal(t, kdl.V1, res.Version)
		require.Len(t, res.Specs, n)
		last := res.Specs[n-1]
		assert.Equal(t, fmt.Sprintf("a-%d", n-1), last.Name)
		assert.Equal(t, agents.Pos{File: "big.kdl", Line: int32(10*(n-1) + 1), Col: 1}, last.Pos)
	}
	res := dec.KDL("big.kdl", []byte(bigConfig(3000)+"agent \"z\" {\n    model \"m\" = 1\n}\n"))
	require.Len(t, res.Diags, 1)
	assert.Equal(t, agents.Pos{File: "big.kdl", Line: 30002, Col: 15}, res.Diags[0].Pos, "errors in later pieces keep their line")
}

func TestAgentNodeRoundTrip(t *testing.T) {
	yes := false
	temp, turns := 0.5, int64(9)
	texts := []string{"plain", `quo"te`, `back\slash`, "multi\nline \"with\" quotes\"#", "tab\tand\u00a0space", "crlf\r\nline", "é ∂ 🚀"}
	for _, v := range []kdl.Version{kdl.V2, kdl.V1} {
		for _, s := range texts {
			def := agents.Definition{Name: "a", Description: s, Execution: agents.Host, Lifecycle: agents.Stateless, Prompt: s,
				Model: "m", Tags: []string{"x"}, Temperature: &temp, MaxTurns: &turns, ModelInvocable: &yes, Mode: "subagent",
				Tools:        agents.Tools{All: true, Deny: []string{"shell(rm:*)"}},
				MCPServers:   []agents.MCPServer{{Name: "gh"}},
				Placeholders: map[string]string{"description": s}}
			def.Target("copilot").ID = "a-id"
			def.Target("copilot").Fields.Set("handoffs", []any{&agents.Map{Keys: []string{"label"}, Values: map[string]any{"label": s}}})
			text := kdl.Format([]*kdl.Node{AgentNode(def, NodeOptions{})}, v)
			res := dec.KDL("w.kdl", []byte(text))
			require.Empty(t, res.Diags, text)
			require.Len(t, res.Specs, 1)
			sp := res.Specs[0]
			require.Empty(t, sp.Diags, text)
			assert.Equal(t, v, res.Version)
			assert.Equal(t, s, value(t, sp, agents.FieldDescription).Value)
			assert.Equal(t, s, sp.Prompt.Value.Text)
			assert.True(t, sp.Tools.All.Value, text)
			assert.Equal(t, "shell(rm:*)", sp.Tools.Deny[0].Text)
			assert.Equal(t, false, value(t, sp, agents.FieldModelInvocable).Value)
			assert.Equal(t, "a-id", sp.More.Targets["copilot"].ID.Value)
			assert.Equal(t, s, sp.More.Placeholders[0].Value)
			h := sp.More.Targets["copilot"].Fields[0].Value.([]any)[0].(*agents.Map)
			assert.Equal(t, s, h.Values["label"])
		}
	}
}

func TestDecodeMarkdown(t *testing.T) {
	src := "---\nname: rev\ndescription: |\n  Multi\n  line\ntools: [Read, \"shell(git:*)\"]\nreasoning_effort: low\nshow-reasoning: false\ntags: a, b\nhandoffs: x\ncopilot:\n  id: rev-x\n---\n\nThe prompt.\n"
	f := dec.Markdown("r.md", []byte(src), false)
	require.Empty(t, f.Diags)
	s := f.Specs[0]
	assert.Equal(t, "rev", s.Name)
	assert.Equal(t, "Multi\nline\n", value(t, s, agents.FieldDescription).Value)
	assert.Equal(t, []agents.Pattern{{Text: "Read", Pos: agents.Pos{File: "r.md", Line: 6, Col: 1}}, {Text: "shell(git:*)", Pos: agents.Pos{File: "r.md", Line: 6, Col: 1}}}, s.Tools.Allow)
	assert.Equal(t, "low", value(t, s, agents.FieldReasoningEffort).Value)
	assert.Equal(t, false, value(t, s, agents.FieldShowReasoning).Value)
	assert.Equal(t, []string{"a", "b"}, value(t, s, agents.FieldTags).Value)
	assert.Equal(t, "rev-x", s.More.Targets["copilot"].ID.Value)
	assert.Equal(t, "The prompt.", s.Prompt.Value.Text)
	assert.Equal(t, int32(14), s.Prompt.Pos.Line)
	require.Len(t, s.Diags, 1)
	assert.Equal(t, "r.md:10:1: agent \"rev\": handoffs: not a bn field; ignored", s.Diags[0].Error())
}

func TestDecodeMarkdownErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"no frontmatter", "hello", "r.md:1: no YAML frontmatter"},
		{"yaml", "---\nname: a\ntools: [a, b\n---\n", "r.md:3:8: invalid YAML frontmatter"},
		{"tab", "---\nname: a\n\tdescription: x\n---\n", "r.md:3:"},
		{"duplicate key", "---\nname: a\nname: b\n---\n", `r.md:3:1: invalid YAML frontmatter: mapping key "name" already defined at line 2`},
		{"not a mapping", "---\n- a\n- b\n---\n", "frontmatter must be a YAML mapping"},
		{"no name", "---\ndescription: x\n---\n", "name: missing"},
		{"name type", "---\nname: [a]\n---\n", "name: expects a string"},
		{"bad name", "---\nname: ../x\n---\n", `invalid agent name "../x"`},
		{"nested tools", "---\nname: a\ntools: [[a]]\n---\n", "expects a list of plain values, found a nested list"},
		{"tools key", "---\nname: a\ntools:\n  alow: [x]\n---\n", `tools.alow: unknown "alow" in tools; use all, allow, ask, deny, remove or reset (did you mean "allow"?)`},
		{"body and prompt", "---\nname: a\nprompt: x\n---\nbody\n", "also sets prompt or prompt-file"},
		{"model number", "---\nname: a\nmodel: 4\n---\n", "model: expects a string, found number 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := dec.Markdown("r.md", []byte(tt.src), false)
			all := f.Diags
			for _, s := range f.Specs {
				all = append(all, s.Diags...)
			}
			require.True(t, all.HasErrors(), "no error")
			assert.Contains(t, all.Error(), tt.want)
		})
	}
}

func TestEditKeepsCommentsAndVersion(t *testing.T) {
	for _, v := range []kdl.Version{kdl.V1, kdl.V2} {
		hidden := map[kdl.Version]string{kdl.V1: "true", kdl.V2: "#true"}[v]
		// KDL 2.0 writes identifier-like strings bare, as people do.
		q := func(s string) string {
			if v == kdl.V2 {
				return s
			}
			return `"` + s + `"`
		}
		src := "// my agents\n\nagent \"a\" {\n    hidden " + hidden + " // stays hidden\n}\n\n// the reviewer\nagent \"b\" {\n    description \"old\"\n}\n"
		path := filepath.Join(t.TempDir(), "config.kdl")
		require.NoError(t, os.WriteFile(path, []byte(src), 0o644))
		doc, err := dec.Edit(path, kdl.V2)
		require.NoError(t, err)
		require.NoError(t, doc.SetAgent("b", AgentNode(agents.Definition{Name: "b", Description: "new", Hidden: true}, NodeOptions{})))
		require.NoError(t, doc.SetAgent("c", AgentNode(agents.Definition{Name: "c", Description: "added", Hidden: true}, NodeOptions{})))
		out := string(doc.Bytes())
		// A definition with no tool says so with reset.
		none := "\n    tools {\n        reset\n    }"
		assert.Contains(t, out, "// my agents\n\nagent \"a\" {\n    hidden "+hidden+" // stays hidden\n}\n\n// the reviewer\nagent "+q("b")+" {\n    description "+q("new")+"\n    hidden "+hidden+none+"\n}\n")
		assert.True(t, strings.HasSuffix(out, "\n\nagent "+q("c")+" {\n    description "+q("added")+"\n    hidden "+hidden+none+"\n}\n"), out)
		res := dec.KDL("e.kdl", []byte(out))
		require.Empty(t, res.Diags, out)
		assert.Equal(t, v, res.Version, "an edited file keeps its version")
	}
}

func FuzzDecodeKDL(f *testing.F) {
	f.Add([]byte("agent \"a\" {\n  description \"x\"\n  tools {\n    allow \"view\"\n  }\n}\n"))
	f.Add([]byte("agent a { hidden #true; }"))
	f.Add([]byte("/-agent \"a\" {}\nagent r#\"b\"# { prompt r##\"x\"#y\"##; }"))
	f.Add([]byte("agent \"a\" {\n  prompt \"\"\"\n  x\n  \"\"\"\n}"))
	f.Add([]byte("a \\\n  b (t)1 c=\"d\" /- e { f; }"))
	f.Add([]byte("agent a " + strings.Repeat("{ n ", 200) + strings.Repeat("}", 200)))
	f.Add([]byte("agent a {\n  tags " + strings.Repeat("(t)\"x\" ", 3000) + "\n}"))
	f.Add([]byte("agent a {\n  copilot {\n    handoffs {\n      - {\n        label x\n      }\n    }\n  }\n}\nmodel m {\n  claude x\n}\n"))
	deferred := Decoder{Sections: sections{}, Defer: true}
	f.Fuzz(func(t *testing.T, src []byte) {
		res := dec.KDL("f.kdl", src)
		for _, d := range res.Diags {
			if d.Pos.Line < 1 || d.Pos.Col < 1 {
				t.Fatalf("unlocated error %v", d)
			}
		}
		// Decoding agents when they are resolved gives what decoding them
		// at once does.
		later := deferred.KDL("f.kdl", src)
		for _, s := range later.Specs {
			s.Complete()
		}
		require.Equal(t, res, later)
	})
}

func FuzzAgentNode(f *testing.F) {
	for _, s := range []string{"x", "a\nb", "\"#", "\\u{0}", "\x00\x1b", "  \n x"} {
		f.Add(s, "key")
	}
	f.Fuzz(func(t *testing.T, s, key string) {
		if strings.TrimSpace(s) == "" || !utf8.ValidString(s) || key == "" || !utf8.ValidString(key) {
			return
		}
		if agents.CheckText(s, true) != nil || agents.CheckText(key, false) != nil {
			return // refused by the reader, by design (a control character)
		}
		def := agents.Definition{Name: "a", Description: s}
		def.Target("copilot").Fields.Set(key, s)
		for _, v := range []kdl.Version{kdl.V2, kdl.V1} {
			text := kdl.Format([]*kdl.Node{AgentNode(def, NodeOptions{})}, v)
			res := dec.KDL("w.kdl", []byte(text))
			if len(res.Diags) > 0 || len(res.Specs) != 1 {
				t.Fatalf("%q does not read back: %v", text, res.Diags)
			}
			sp := res.Specs[0]
			if key == "bad" || key == SectionID || key == SectionPartial || key == SectionRemove || key == "-" {
				continue
			}
			if len(sp.Diags) > 0 {
				t.Fatalf("%q: %v", text, sp.Diags)
			}
			if got, _ := sp.Get(agents.FieldDescription); got.Value != s {
				t.Fatalf("wrote %q, read %q", s, got.Value)
			}
			if got := sp.More.Targets["copilot"].Fields[0]; got.Key != key || got.Value != s {
				t.Fatalf("wrote %s=%q, read %s=%q", key, s, got.Key, got.Value)
			}
		}
	})
}

// bn never edits a config.kdl that does not decode: the breakage would
// hide under its own edit.
func TestEditRefusesABrokenFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config.kdl")
	require.NoError(t, os.WriteFile(path, []byte("agent a {\n  }}\n"), 0o644))
	_, err := dec.Edit(path, kdl.V2)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "config.kdl does not load; fix it before bn edits it")
	doc, err := dec.Edit(filepath.Join(t.TempDir(), "missing.kdl"), kdl.V1)
	require.NoError(t, err)
	assert.Equal(t, kdl.V1, doc.Version, "a new file is written in the version asked for")
}
