package views

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestListEncodeJSONMatchesMarshal: list's output, encoded entry by entry,
// must be byte for byte what encoding the whole value gives.
func TestListEncodeJSONMatchesMarshal(t *testing.T) {
	entry := func(name string) ListEntry {
		return ListEntry{Name: name, Description: `Reviews <html> & "quotes"` + "\u2028", Execution: "host", Lifecycle: "stateless",
			Source: "embedded:config.kdl", Layer: "embedded", Tags: []string{}}
	}
	hidden := entry("h")
	hidden.Hidden, hidden.Tags = true, []string{"a", "b"}
	for _, l := range []List{
		{},
		{Agents: []ListEntry{}},
		{Agents: []ListEntry{entry("a")}, Count: 1},
		{Agents: []ListEntry{entry("a"), hidden, entry("c")}, Count: 3},
		{Agents: []ListEntry{entry("a")}, Count: 1, Errors: []ListError{{Agent: "x", Error: "bad <field>", File: "c.kdl", Line: 2, Col: 3}, {Agent: "y", Error: "e"}}},
	} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(l))
		var got bytes.Buffer
		require.NoError(t, l.EncodeJSON(&got))
		assert.Equal(t, want.String(), got.String()+"\n")
	}
}
