package agents

import (
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func utf8Valid(s string) bool { return utf8.ValidString(s) }

func TestSplitFrontmatter(t *testing.T) {
	md, err := SplitFrontmatter([]byte("\uFEFF---\r\nname: a\r\n---  \r\nbody\r\n"))
	require.NoError(t, err)
	assert.Equal(t, "name: a\r\n", string(md.YAML))
	assert.Equal(t, "body\r\n", string(md.Body))
	assert.Equal(t, 4, md.BodyLine)

	md, err = SplitFrontmatter([]byte("---\nname: a\n---"))
	require.NoError(t, err)
	assert.Empty(t, md.Body)

	_, err = SplitFrontmatter([]byte("# Title\n"))
	assert.ErrorIs(t, err, errNoFrontmatter)
	_, err = SplitFrontmatter([]byte("---\nname: a\n"))
	assert.ErrorContains(t, err, "never closed")
	_, err = SplitFrontmatter(nil)
	assert.ErrorIs(t, err, errNoFrontmatter)
}

func TestDecodeMarkdown(t *testing.T) {
	src := "---\nname: rev\ndescription: |\n  Multi\n  line\ntools: [Read, \"shell(git:*)\"]\nreasoning_effort: low\nshow-reasoning: false\ntags: a, b\nhandoffs: x\n---\n\nThe prompt.\n"
	f := DecodeMarkdown("r.md", []byte(src), false)
	require.Empty(t, f.Diags)
	s := f.Specs[0]
	assert.Equal(t, "rev", s.Name)
	assert.Equal(t, "Multi\nline\n", s.Description.Value)
	assert.Equal(t, []Pattern{{"Read", Pos{"r.md", 6, 1}}, {"shell(git:*)", Pos{"r.md", 6, 1}}}, s.Tools.Allow)
	assert.Equal(t, "low", s.ReasoningEffort.Value)
	assert.False(t, s.ShowReasoning.Value)
	assert.Equal(t, []string{"a", "b"}, s.Tags.Value)
	assert.Equal(t, "The prompt.", s.Prompt.Value.Text)
	assert.Equal(t, 12, s.Prompt.Pos.Line)
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
		{"tools key", "---\nname: a\ntools:\n  alow: [x]\n---\n", `tools.alow: unknown "alow" in tools; use allow, deny, remove or reset (did you mean "allow"?)`},
		{"body and prompt", "---\nname: a\nprompt: x\n---\nbody\n", "also sets prompt or prompt-file"},
		{"model number", "---\nname: a\nmodel: 4\n---\n", "model: expects a string, found number 4"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := DecodeMarkdown("r.md", []byte(tt.src), false)
			all := f.Diags
			for _, s := range f.Specs {
				all = append(all, s.Diags...)
			}
			require.True(t, all.HasErrors(), "no error")
			assert.Contains(t, all.Error(), tt.want)
		})
	}
}

func FuzzDecodeMarkdown(f *testing.F) {
	f.Add([]byte("---\nname: a\ndescription: b\ntools: x, y\n---\nbody"))
	f.Add([]byte("---\nname: a\ntools:\n  allow: [a]\n  reset: true\n---\n"))
	f.Add([]byte("\uFEFF---\r\nname: &x a\r\nb: *x\r\n---\r\n"))
	f.Add([]byte("---\n{name: a, tags: [1, 2]}\n---\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		DecodeMarkdown("f.md", src, false)
	})
}
