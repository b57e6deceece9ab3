package views

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestListEncodeJSONMatchesMarshal: list's output, encoded entry by entry,
// must be byte for byte what encoding the whole value, indented, gives.
func TestListEncodeJSONMatchesMarshal(t *testing.T) {
	entry := func(name string) ListEntry {
		return ListEntry{Name: name, Description: `Reviews <html> & "quotes"` + "\u2028", Execution: "host", Lifecycle: "stateless",
			Source: "embedded:config.kdl", Layer: "embedded", Tags: []string{}}
	}
	hidden := entry("h")
	hidden.Hidden, hidden.Tags = true, []string{"a", "b"}
	odd := entry("o")
	odd.Description, odd.Source, odd.Tags = "tab\tnew\nline\x01\x7f\b\f\r \\ \"q\" \xff\xfe é \u2029", "\xc3", nil
	for _, l := range []List{
		{},
		{Agents: []ListEntry{}},
		{Agents: []ListEntry{entry("a")}, Count: 1},
		{Agents: []ListEntry{entry("a"), hidden, entry("c"), odd}, Count: 4},
		{Agents: slices.Repeat([]ListEntry{hidden, odd}, 500), Count: 1000},
		{Agents: []ListEntry{entry("a")}, Count: 1, Errors: []ListError{{Agent: "x", Error: "bad <field>", File: "c.kdl", Line: 2, Col: 3}, {Agent: "y", Error: "e"}}},
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		require.NoError(t, enc.Encode(l))
		var got bytes.Buffer
		require.NoError(t, l.EncodeJSON(&got))
		assert.Equal(t, want.String(), got.String()+"\n")
	}
}

// FuzzAppendJSONString: a string is written as encoding/json writes it.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "\"\\/\b\f\n\r\t\x00\x1f\x7f", "<&>", "\u2028\u2029\u0085", "\xff\xc3(", "é🚀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(s))
		require.Equal(t, want.String(), string(appendJSONString(nil, s))+"\n")
	})
}
