package frontmatter

import (
	"testing"

	"github.com/goccy/go-yaml"
	"github.com/goccy/go-yaml/token"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// quoteCases are strings at every edge of goccy's quoting rule.
var quoteCases = []string{
	"", "a", "plain words", "null", "Null", "~", "true", "FALSE", "yes", "n", "On", "off", ".inf", "-.inf", ".nan",
	"inf", "Infinity", "NaN", "nan", "0x1F", "0o17", "1_000", "_1", "1e5", "-", "--", "- a", "a - b", "a -b",
	"2026-11-25", "2026-11-25 10:00:00", "2026-11-25T10:00:00Z", "15:4", "15:04", "1.2.3", "v1.2",
	"-99999999999999999999999", "+5", "+x", ".x", "*x", "&x", "[x", "{x", "}x", "]x", ",x", "!x", "|x", ">x",
	"%x", "'x", `"x`, "@x", " x", "`x", "x:", "x ", "a: b", "a:b", "https://example.com/x", "a #b", "a#b",
	`a\b`, "é\t\"x", "claude-sonnet-4-5", "Bash(git diff:*)", "mcp__server__tool", "read, write",
	"shell(git push)", "tab\there", "\x00", "\u2028", "ümlaut", "日本語",
}

func TestNeedsQuoteIsGoccys(t *testing.T) {
	for _, s := range quoteCases {
		assert.Equal(t, token.IsNeedQuoted(s), needsQuote(s), "%q", s)
	}
}

// FuzzMarshal: whatever a string holds, as a key, a value or a list
// item, Marshal writes what goccy writes.
func FuzzMarshal(f *testing.F) {
	for _, s := range quoteCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if token.IsNeedQuoted(s) != needsQuote(s) {
			t.Errorf("%q: goccy quotes it: %v", s, token.IsNeedQuoted(s))
		}
		doc := yaml.MapSlice{{Key: s, Value: s}, {Key: "list", Value: []string{s}}, {Key: "any", Value: []any{s, true}},
			{Key: "map", Value: yaml.MapSlice{{Key: s, Value: s}, {Key: "in", Value: yaml.MapSlice{{Key: "list", Value: []string{s}}}}}}}
		want, err := yaml.MarshalWithOptions(doc, yaml.UseLiteralStyleIfMultiline(true))
		if err != nil {
			return
		}
		if got, err := Marshal(doc); err != nil || string(got) != string(want) {
			t.Errorf("%q: Marshal wrote\n%s(%v), goccy\n%s", s, got, err, want)
		}
	})
}

// TestMarshalIsGoccys: the fast path writes goccy's bytes, and leaves what
// it does not write to goccy.
func TestMarshalIsGoccys(t *testing.T) {
	docs := []yaml.MapSlice{
		{{Key: "name", Value: "a b"}, {Key: "tools", Value: []string{"x", "y: z"}}, {Key: "e", Value: []string{}},
			{Key: "n", Value: 5}, {Key: "b", Value: true}, {Key: "q", Value: "é\t\"x"}, {Key: "any", Value: []any{"a", 1, false}}, {Key: "k: x", Value: "v"}},
		{{Key: "description", Value: "line one\nline two\n"}},
		{{Key: "permission", Value: yaml.MapSlice{{Key: "bash", Value: yaml.MapSlice{{Key: "git diff*", Value: "allow"}}}}}},
		{{Key: "permission", Value: yaml.MapSlice{{Key: "*", Value: "deny"}, {Key: "read", Value: "allow"},
			{Key: "bash", Value: yaml.MapSlice{{Key: "*", Value: "ask"}, {Key: "git diff*", Value: "allow"}}}, {Key: "edit", Value: "deny"}}},
			{Key: "tools", Value: yaml.MapSlice{{Key: "write", Value: false}, {Key: "list", Value: []string{"a", "b: c"}}, {Key: "any", Value: []any{1, "x"}},
				{Key: "deeper", Value: yaml.MapSlice{{Key: "e", Value: []string{}}, {Key: "n", Value: 3}}}}}, {Key: "after", Value: "x"}},
		{{Key: "empty map", Value: yaml.MapSlice{}}},
		{{Key: "m", Value: yaml.MapSlice{{Key: "multi", Value: "a\nb"}}}},
		{{Key: "nil", Value: nil}, {Key: "f", Value: 1.5}, {Key: "empty", Value: []any{}}},
		{{Key: "tools", Value: []string{"multi\nline"}}},
	}
	for _, s := range quoteCases {
		docs = append(docs, yaml.MapSlice{{Key: s, Value: s}, {Key: "list", Value: []string{s, s}}, {Key: "any", Value: []any{s}},
			{Key: "map", Value: yaml.MapSlice{{Key: s, Value: []string{s}}, {Key: "in", Value: yaml.MapSlice{{Key: s, Value: s}}}}}})
	}
	fast := 0
	for _, doc := range docs {
		want, err := yaml.MarshalWithOptions(doc, yaml.UseLiteralStyleIfMultiline(true))
		require.NoError(t, err)
		got, err := Marshal(doc)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(got), "%v", doc)
		if _, ok := marshalPlain(doc); ok {
			fast++
		}
	}
	assert.Greater(t, fast, len(quoteCases), "most documents take the fast path")
}
