package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/binnacle-dev/bn/enforce"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/binnacle-dev/bn/views"
	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testLayers is the built-in layer plus a project layer holding projectKDL.
func testLayers(t *testing.T, projectKDL string) (string, []resolver.Layer) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "config.kdl"), []byte(projectKDL), 0o644))
	return dir, []resolver.Layer{resolver.EmbeddedLayer(), resolver.DiskLayer(resolver.Project, dir, ".binnacle/agents")}
}

func testLoader(layers []resolver.Layer) Loader {
	return CachedLoader(layers, config.Decoder{Sections: dialect.All()}, func(err error) error { return resolver.LoadError{Err: err} })
}

// connect starts the bn MCP server over in-memory transports.
func connect(t *testing.T, projectKDL string) *mcp.ClientSession {
	t.Helper()
	_, layers := testLayers(t, projectKDL)
	return connectLoader(t, testLoader(layers))
}

func connectLoader(t *testing.T, load Loader) *mcp.ClientSession {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	_, err := New("test", load, enforce.Context{}, nil).Connect(ctx, st, nil)
	require.NoError(t, err)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) *mcp.CallToolResult {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	require.NoError(t, err)
	if !res.IsError {
		b, err := json.Marshal(res.StructuredContent)
		require.NoError(t, err)
		// The server marshals its answers itself: each must still be what
		// the tool's advertised output schema says.
		var answer any
		require.NoError(t, json.Unmarshal(b, &answer))
		require.NoError(t, outputSchema(t, cs, tool).Validate(answer), "%s's answer against its output schema", tool)
		require.JSONEq(t, string(b), res.Content[0].(*mcp.TextContent).Text, "the text content is the structured content")
		if out != nil {
			require.NoError(t, json.Unmarshal(b, out))
		}
	}
	return res
}

// outputSchema is the output schema the server advertises for tool.
func outputSchema(t *testing.T, cs *mcp.ClientSession, tool string) *jsonschema.Resolved {
	t.Helper()
	for tl, err := range cs.Tools(context.Background(), nil) {
		require.NoError(t, err)
		if tl.Name != tool {
			continue
		}
		b, err := json.Marshal(tl.OutputSchema)
		require.NoError(t, err)
		var schema jsonschema.Schema
		require.NoError(t, json.Unmarshal(b, &schema))
		resolved, err := schema.Resolve(nil)
		require.NoError(t, err)
		return resolved
	}
	t.Fatalf("the server advertises no tool %s", tool)
	return nil
}

func TestMCPServer(t *testing.T) {
	cs := connect(t, "agent \"ask\" {\n    model \"project-model\"\n}\nagent \"fix\" {\n    extends \"do\"\n    description \"Fixes\"\n    hidden #true\n}\n")
	var names []string
	for tool, err := range cs.Tools(context.Background(), nil) {
		require.NoError(t, err)
		names = append(names, tool.Name)
	}
	assert.ElementsMatch(t, []string{"list_agents", "show_agent", "emit_prompt", "check_tool"}, names)

	var list views.List
	call(t, cs, "list_agents", nil, &list)
	assert.Equal(t, 6, list.Count)
	call(t, cs, "list_agents", map[string]any{"all": true, "tag": "interactive"}, &list)
	assert.Equal(t, []string{"do", "buddy", "free", "fix"}, entryNames(list))

	var show views.Show
	call(t, cs, "show_agent", map[string]any{"name": "ask", "explain": true}, &show)
	// A model the catalog does not know: the definition keeps it, and
	// copilot.model, what the Copilot CLI is given, leaves it out.
	assert.Equal(t, "project-model", show.Model)
	assert.Nil(t, show.Copilot.Model)
	assert.Contains(t, show.CopilotLaunch.Notes[len(show.CopilotLaunch.Notes)-1], `model "project-model" left out`)
	assert.Equal(t, "project", show.Provenance.Fields["model"].Layer)
	assert.Contains(t, show.ToolsDeny, "shell(git push)")

	var emitted views.Emit
	call(t, cs, "emit_prompt", map[string]any{"name": "fix", "description": "the login bug"}, &emitted)
	assert.Contains(t, emitted.Prompt, "\n\nthe login bug\n\n")
	assert.Empty(t, emitted.Unused)

	var check views.Check
	call(t, cs, "check_tool", map[string]any{"name": "ask", "tool": "shell(git push origin main)"}, &check)
	assert.False(t, check.Allowed)
	assert.Equal(t, "shell(git push)", *check.Rule)

	res := call(t, cs, "show_agent", map[string]any{"name": "aks"}, nil)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, `unknown agent "aks"`)
	res = call(t, cs, "check_tool", map[string]any{"name": "ask", "tool": "shell("}, nil)
	assert.True(t, res.IsError)
}

func TestMCPServerFailsClosed(t *testing.T) {
	cs := connect(t, "agent \"ask\" {\n    model #maybe\n}\n")
	res := call(t, cs, "list_agents", nil, nil)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "cannot load agent definitions")
}

func entryNames(l views.List) []string {
	var out []string
	for _, e := range l.Agents {
		out = append(out, e.Name)
	}
	return out
}

// TestMCPServerSeesEdits: the server keeps the layers loaded, and an edit
// (or a break) is seen on the next call.
func TestMCPServerSeesEdits(t *testing.T) {
	dir, layers := testLayers(t, "agent \"ask\" {\n    model \"first\"\n}\n")
	cs := connectLoader(t, testLoader(layers))
	var show views.Show
	call(t, cs, "show_agent", map[string]any{"name": "ask"}, &show)
	assert.Equal(t, "first", show.Model)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "config.kdl"), []byte("agent \"ask\" {\n    model \"second\"\n}\n"), 0o644))
	call(t, cs, "show_agent", map[string]any{"name": "ask"}, &show)
	assert.Equal(t, "second", show.Model)
	require.NoError(t, os.WriteFile(filepath.Join(dir, "config.kdl"), []byte("agent \"ask\" {\n    model #nope\n}\n"), 0o644))
	res := call(t, cs, "show_agent", map[string]any{"name": "ask"}, nil)
	assert.True(t, res.IsError, "a broken layer fails closed")
}

// TestMCPServerSeesPromptEdits: a prompt file is read on every call (the
// server keeps the layer, not the prompt), and one removed fails the call.
func TestMCPServerSeesPromptEdits(t *testing.T) {
	dir, layers := testLayers(t, "agent mine {\n    description d\n    prompt-file mine.md\n}\n")
	prompt := filepath.Join(dir, "mine.md")
	require.NoError(t, os.WriteFile(prompt, []byte("First."), 0o644))
	cs := connectLoader(t, testLoader(layers))
	var emit views.Emit
	call(t, cs, "emit_prompt", map[string]any{"name": "mine"}, &emit)
	assert.Equal(t, "First.", emit.Prompt)
	require.NoError(t, os.WriteFile(prompt, []byte("Second, longer."), 0o644))
	call(t, cs, "emit_prompt", map[string]any{"name": "mine"}, &emit)
	assert.Equal(t, "Second, longer.", emit.Prompt)
	require.NoError(t, os.Remove(prompt))
	res := call(t, cs, "emit_prompt", map[string]any{"name": "mine"}, nil)
	assert.True(t, res.IsError, "a removed prompt file fails the call")
}

// TestServeAnswersAfterInputCloses: a client that writes its requests and
// closes its input gets every answer; bad lines get JSON-RPC errors and
// the server keeps serving.
func TestServeAnswersAfterInputCloses(t *testing.T) {
	_, layers := testLayers(t, "")
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{not json`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":3,"method":"no/such/method"}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"show_agent","arguments":{"name":"ask"}}}`,
		`"` + strings.Repeat("x", MaxMessage+10) + `"`,
		`{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"check_tool","arguments":{"name":7}}}`,
	}, "\n") + "\n"
	for run := 0; run < 100; run++ {
		var out strings.Builder
		require.NoError(t, Serve(context.Background(), New("test", testLoader(layers), enforce.Context{}, nil), strings.NewReader(in), &out))
		ids := map[string]bool{}
		errs := 0
		for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
			var msg struct {
				ID     json.RawMessage     `json:"id"`
				Error  *struct{ Code int } `json:"error"`
				Result *struct {
					IsError bool `json:"isError"`
				} `json:"result"`
			}
			require.NoError(t, json.Unmarshal([]byte(line), &msg), line)
			ids[string(msg.ID)] = true
			if msg.Error != nil || msg.Result != nil && msg.Result.IsError {
				errs++ // a JSON-RPC error, or a tool's error result (MCP reports bad arguments so)
			}
		}
		for _, id := range []string{"1", "2", "3", "4", "5", "null"} {
			assert.True(t, ids[id], "run %d: no answer with id %s in\n%s", run, id, out.String())
		}
		assert.GreaterOrEqual(t, errs, 4, "parse error, unknown method, oversized line, bad arguments")
	}
}

// Malformed JSON-RPC never ends the server: each message that is not a
// valid request, notification or response gets an error of its own, and
// every valid request around them is answered.
func TestServeSurvivesMalformedMessages(t *testing.T) {
	_, layers := testLayers(t, "")
	bad := []struct{ line, answer string }{
		{`{}`, `jsonrpc must be \"2.0\"`},
		{`{"jsonrpc":"2.0",`, `parse error: the line is not valid JSON`},
		{`{"jsonrpc":"2.0","id":"q","method":"ping","params":` + strings.Repeat("[", 1001), `parse error: the line is not valid JSON`},
		{`null`, `expected a JSON-RPC object`},
		{`"x"`, `expected a JSON-RPC object`},
		{`[{"jsonrpc":"2.0","id":"b","method":"tools/list"}]`, `MCP has no batches`},
		{`{"id":"m","method":"tools/list"}`, `jsonrpc must be \"2.0\"`},
		{`{"jsonrpc":"1.0","id":"w","method":"tools/list"}`, `jsonrpc must be \"2.0\"`},
		{`{"jsonrpc":"2.0","id":{},"method":"tools/list"}`, `id must be a string or a number`},
		{`{"jsonrpc":"2.0","id":true,"method":"tools/list"}`, `id must be a string or a number`},
		{`{"jsonrpc":"2.0","id":null,"method":"tools/list"}`, `id must not be null`},
		{`{"jsonrpc":"2.0","id":"n","method":5}`, `method must be a non-empty string`},
		{`{"jsonrpc":"2.0","id":"p","method":"tools/list","params":3}`, `params must be an object or an array`},
		{`{"jsonrpc":"2.0","id":"r"}`, `a message without a method is a response`},
		{`{"jsonrpc":"2.0","id":"e","error":"broken"}`, `error must be an object with a code and a message`},
		{`{"jsonrpc":"2.0","id":"d","method":"ping","params":{"x":` + strings.Repeat("[", 1001) + strings.Repeat("]", 1001) + `}}`, `nests objects and arrays more than 1000 deep`},
		{`{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, `"message":"invalid request: a number id must be an integer from -9007199254740992 to 9007199254740992, to be answered under that id"},"id":1.5`},
		{`{"jsonrpc":"2.0","id":1e300,"method":"ping"}`, `under that id"},"id":1e300`},
		{`{"jsonrpc":"2.0","id":-1e999,"method":"ping"}`, `"message":"invalid request: a number id must be an integer from -9007199254740992 to 9007199254740992, to be answered under that id"},"id":-1e999`},
		{`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, `under that id"},"id":9007199254740993`},
	}
	lines := []string{
		`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
	for i := range 100 {
		lines = append(lines, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, i+1), bad[i%len(bad)].line)
	}
	var out strings.Builder
	require.NoError(t, Serve(context.Background(), New("test", testLoader(layers), enforce.Context{}, nil), strings.NewReader(strings.Join(lines, "\n")+"\n"), &out))
	got := out.String()
	for i := range 100 {
		assert.Contains(t, got, fmt.Sprintf(`"id":%d,"result":{`, i+1), "request %d was lost", i+1)
	}
	for _, b := range bad {
		assert.Contains(t, got, b.answer, "no error for %s", b.line)
	}
	assert.Equal(t, 1+100+100, strings.Count(got, "\n"), "one answer for every request and every malformed message")
}
