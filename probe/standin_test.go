package probe

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The stand-in records the first request that offers tools, answers it
// with the call it was told to ask for, and records that call's result;
// it does so in both APIs.
func TestStandin(t *testing.T) {
	for _, tt := range []struct {
		path, first, result, want string
	}{
		{"/v1/messages", `{"stream":true,"tools":[{"name":"Read"},{"name":"Bash"}],"messages":[{"role":"user","content":"bnprobe: go"}]}`,
			`{"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_probe","is_error":true,"content":"Permission denied"}]}]}`,
			`"name":"Bash"`},
		{"/v1/chat/completions", `{"stream":false,"tools":[{"type":"function","function":{"name":"bash"}}],"messages":[{"role":"user","content":"bnprobe: go"}]}`,
			`{"messages":[{"role":"user","content":"bnprobe"},{"role":"tool","content":"4242"}]}`,
			`"name":"bash"`},
	} {
		tool := "Bash"
		if strings.Contains(tt.path, "chat") {
			tool = "bash"
		}
		s := &Standin{Ask: &Call{Tool: tool, Input: map[string]any{"command": ShellProbe}}}
		require.NoError(t, s.Start())
		post := func(body string) string {
			resp, err := http.Post(s.URL+tt.path, "application/json", strings.NewReader(body))
			require.NoError(t, err)
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			return string(b)
		}
		// A side request without tools or the prompt is not the agent's.
		assert.Contains(t, post(`{"messages":[{"role":"user","content":"title this"}]}`), "done")
		assert.Contains(t, post(tt.first), tt.want, "the call is asked for")
		post(tt.result)
		offered, seen, res := s.Observed()
		s.Close()
		require.True(t, seen)
		assert.Len(t, offered, len(strings.Split(tt.first, `"name"`))-1)
		require.NotNil(t, res)
		assert.Equal(t, tool == "bash", res.Ran, "a refusal is not a run")
	}
}
