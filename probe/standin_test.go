package probe

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
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
			`{"messages":[{"role":"user","content":"bnprobe"},{"role":"tool","tool_call_id":"toolu_probe","content":"4242"}]}`,
			`"name":"bash"`},
		{"/v1beta/models/m:streamGenerateContent", `{"tools":[{"functionDeclarations":[{"name":"read_file"},{"name":"run_shell_command"}]}],"contents":[{"role":"user","parts":[{"text":"bnprobe: go"}]}]}`,
			`{"contents":[{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{"error":"Tool execution denied by policy."}}}]}]}`,
			`"name":"run_shell_command"`},
	} {
		tool := map[string]string{"/v1/messages": "Bash", "/v1/chat/completions": "bash"}[tt.path]
		if tool == "" {
			tool = "run_shell_command"
		}
		s := &Standin{Ask: &Call{Tool: tool, Input: map[string]any{"command": ShellProbe}}}
		require.NoError(t, s.Start())
		post := func(body string) string { return postTo(t, s.URL+tt.path, body) }
		// A side request without tools or the prompt is not the agent's.
		assert.Contains(t, post(`{"messages":[{"role":"user","content":"title this"}]}`), "done")
		assert.Contains(t, post(tt.first), tt.want, "the call is asked for")
		assert.Contains(t, post(tt.result), "done", "the result is answered with text")
		offered, seen, res := s.Observed()
		s.Close()
		require.True(t, seen)
		assert.Len(t, offered, len(strings.Split(tt.first, `"name"`))-1)
		assert.Contains(t, offered, tool)
		require.NotNil(t, res)
		assert.Equal(t, tool == "bash", res.Ran, "a refusal is not a run")
		assert.NotEmpty(t, res.Output)
	}
}

// Through a main agent: the stand-in asks it to start the sub-agent (Via),
// records the sub-agent's first request, asks for the call, and lets the
// sub-agent go (Finish) once the result is in; the main agent's own
// requests are never recorded.
func TestStandinSubAgent(t *testing.T) {
	s := &Standin{
		Via:    &Call{Tool: "invoke_agent", Input: map[string]any{"agent_name": "x"}},
		Ask:    &Call{Tool: "run_shell_command", Input: map[string]any{"command": ShellProbe}},
		Finish: &Call{Tool: "complete_task", Input: map[string]any{"result": "done"}},
	}
	require.NoError(t, s.Start())
	defer s.Close()
	post := func(body string) string { return postTo(t, s.URL+"/v1beta/models/m:generateContent", body) }
	main := `{"tools":[{"functionDeclarations":[{"name":"read_file"},{"name":"invoke_agent"}]}],"contents":[{"role":"user","parts":[{"text":"bnprobe"}]}]}`
	assert.Contains(t, post(main), `"name":"invoke_agent"`)
	sub := `{"tools":[{"functionDeclarations":[{"name":"run_shell_command"},{"name":"complete_task"}]}],"contents":[{"role":"user","parts":[{"text":"bnprobe"}]}]}`
	assert.Contains(t, post(sub), `"name":"run_shell_command"`)
	assert.Contains(t, post(`{"tools":[{"functionDeclarations":[{"name":"complete_task"}]}],"contents":[{"role":"user","parts":[{"functionResponse":{"name":"run_shell_command","response":{"output":"Output: 4242"}}}]}]}`),
		`"name":"complete_task"`)
	assert.Contains(t, post(main), "done", "the main agent's next turn is answered with text")
	offered, seen, res := s.Observed()
	require.True(t, seen)
	assert.Equal(t, []string{"run_shell_command", "complete_task"}, offered)
	require.NotNil(t, res)
	assert.True(t, res.Ran)

	// A sub-agent that never starts leaves nothing recorded.
	s2 := &Standin{Via: s.Via, Ask: s.Ask}
	require.NoError(t, s2.Start())
	defer s2.Close()
	s.URL = s2.URL
	post(main)
	post(main)
	_, seen, _ = s2.Observed()
	assert.False(t, seen)
}

// Codex's Responses API: the main agent's sub-agent tools are loaded on
// demand (tool_search), so the stand-in starts the sub-agent through a
// deferred Via call, answers the main agent's next turn with Await made
// from the spawn's result, and reads the exit code of the asked command.
func TestStandinResponses(t *testing.T) {
	var spawned string
	s := &Standin{
		Via: &Call{Tool: "multi_agent_v1.spawn_agent", Deferred: true, Input: map[string]any{"agent_type": "x"}},
		Ask: &Call{Tool: "exec_command", Input: map[string]any{"cmd": ShellProbe}},
		Await: func(out string) *Call {
			spawned = out
			return &Call{Tool: "multi_agent_v1.wait_agent", Deferred: true, Input: map[string]any{"targets": []string{"a1"}}}
		},
	}
	require.NoError(t, s.Start())
	defer s.Close()
	post := func(body string) string { return postTo(t, s.URL+"/v1/responses", body) }
	mainTools := `"tools":[{"type":"function","name":"exec_command"},{"type":"tool_search"},{"type":"web_search"}]`
	prompt := `{"type":"message","role":"user","content":[{"type":"input_text","text":"bnprobe"}]}`
	got := post(`{` + mainTools + `,"input":[` + prompt + `]}`)
	assert.Contains(t, got, `"namespace":"multi_agent_v1"`)
	assert.Contains(t, got, `"name":"spawn_agent"`)
	spawn := `{"type":"function_call_output","call_id":"toolu_via","output":"{\"agent_id\":\"a1\"}"}`
	assert.Contains(t, post(`{`+mainTools+`,"input":[`+prompt+`,`+spawn+`]}`), `"name":"wait_agent"`)
	assert.Equal(t, `{"agent_id":"a1"}`, spawned)
	sub := `"tools":[{"type":"function","name":"exec_command"},{"type":"custom","name":"apply_patch"},{"type":"web_search"}]`
	assert.Contains(t, post(`{`+sub+`,"input":[`+prompt+`]}`), `"name":"exec_command"`)
	ran := `{"type":"function_call_output","call_id":"toolu_probe","output":"Chunk ID: 1\nProcess exited with code 0\nOutput:\n4242\n"}`
	assert.Contains(t, post(`{`+sub+`,"input":[`+prompt+`,`+ran+`]}`), `"output_text"`)
	offered, seen, res := s.Observed()
	require.True(t, seen)
	assert.Equal(t, []string{"exec_command", "apply_patch", "web_search"}, offered)
	require.NotNil(t, res)
	assert.True(t, res.Ran)
	assert.Equal(t, "4242\n", res.Output)

	// A command that exits non-zero did not run as asked.
	failed := `Process exited with code 1` + "\n" + `Output:` + "\n" + `touch: cannot touch 'x': Read-only file system`
	text, ok := callOutput(responses, []json.RawMessage{json.RawMessage(`{"type":"function_call_output","call_id":"toolu_probe","output":` + strconv.Quote(failed) + `}`)}, askID)
	require.True(t, ok)
	r, _ := askResult(responses, []json.RawMessage{json.RawMessage(`{"type":"function_call_output","call_id":"toolu_probe","output":` + strconv.Quote(text) + `}`)}, "exec_command", askID)
	assert.False(t, r.Ran)
}

// postTo posts a JSON body and returns the answer.
func postTo(t *testing.T, url, body string) string {
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	require.NoError(t, err)
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// Many calls in one session: each asked once the result of the one
// before is in, Before run before each, and every result recorded in
// order.
func TestStandinSequence(t *testing.T) {
	var before []int
	s := &Standin{Ask: &Call{Tool: "Bash", Input: map[string]any{"command": "one"}},
		Then:   []*Call{{Tool: "Read", Input: map[string]any{"file_path": "/two"}}, {Tool: "Bash", Input: map[string]any{"command": "three"}}},
		Before: func(i int) { before = append(before, i) }}
	require.NoError(t, s.Start())
	defer s.Close()
	post := func(body string) string { return postTo(t, s.URL+"/v1/messages", body) }
	turn := `{"role":"user","content":[{"type":"tool_result","tool_use_id":"%s","content":"%s"}]}`
	conv := `{"role":"user","content":"bnprobe: go"}`
	assert.Contains(t, post(`{"tools":[{"name":"Read"},{"name":"Bash"}],"messages":[`+conv+`]}`), `"command":"one"`)
	conv += "," + fmt.Sprintf(turn, "toolu_probe", "first")
	assert.Contains(t, post(`{"tools":[{"name":"Read"},{"name":"Bash"}],"messages":[`+conv+`]}`), `"id":"toolu_probe1"`)
	conv += "," + fmt.Sprintf(turn, "toolu_probe1", "second")
	assert.Contains(t, post(`{"tools":[{"name":"Read"},{"name":"Bash"}],"messages":[`+conv+`]}`), `"command":"three"`)
	conv += "," + fmt.Sprintf(turn, "toolu_probe2", "third")
	assert.Contains(t, post(`{"tools":[{"name":"Read"},{"name":"Bash"}],"messages":[`+conv+`]}`), "done")
	assert.Equal(t, []int{0, 1, 2}, before)
	var outputs []string
	for _, r := range s.Results() {
		outputs = append(outputs, r.Output)
	}
	assert.Equal(t, []string{"first", "second", "third"}, outputs)
}

// A client's answer that is a refusal, though not marked an error: Qwen
// Code answers a call bn's hook asks about, where no one can answer, with
// the hook's reason alone.
func TestRefused(t *testing.T) {
	for text, want := range map[string]bool{
		"4242": false,
		`bn: agent cross asks before shell(expr 4000 + 242): ask rule "shell": the tool asks the user before the call`: true,
		"bn refused: agent cross may not run rm":             true,
		"Tool execution denied by policy.":                   true,
		"Output: 4242\nthe agent may run commands in src/bn": false,
	} {
		assert.Equal(t, want, refused(text), "%q", text)
	}
}
