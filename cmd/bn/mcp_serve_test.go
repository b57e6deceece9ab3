package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/binnacle-dev/bn/resolver"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// connect starts the bn MCP server over in-memory transports, reading the
// built-in layer plus a project layer holding projectKDL.
func connect(t *testing.T, projectKDL string) *mcp.ClientSession {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "config.kdl"), []byte(projectKDL), 0o644))
	load := func() (*resolver.Set, error) {
		set := resolver.Load([]resolver.Layer{resolver.EmbeddedLayer(), resolver.DiskLayer(resolver.Project, dir, ".binnacle/agents")})
		if err := set.Fatal(); err != nil {
			return nil, layerError{err}
		}
		return set, nil
	}
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	_, err := newMCPServer("test", load).Connect(ctx, st, nil)
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
	if out != nil && !res.IsError {
		b, err := json.Marshal(res.StructuredContent)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(b, out))
	}
	return res
}

func TestMCPServer(t *testing.T) {
	cs := connect(t, "agent \"ask\" {\n    model \"project-model\"\n}\nagent \"fix\" {\n    extends \"do\"\n    description \"Fixes\"\n    hidden true\n}\n")
	var names []string
	for tool, err := range cs.Tools(context.Background(), nil) {
		require.NoError(t, err)
		names = append(names, tool.Name)
	}
	assert.ElementsMatch(t, []string{"list_agents", "show_agent", "emit_prompt", "check_tool"}, names)

	var list listOutput
	call(t, cs, "list_agents", nil, &list)
	assert.Equal(t, 6, list.Count)
	call(t, cs, "list_agents", map[string]any{"all": true, "tag": "interactive"}, &list)
	assert.Equal(t, []string{"do", "buddy", "free", "fix"}, entryNames(list))

	var show showOutput
	call(t, cs, "show_agent", map[string]any{"name": "ask", "explain": true}, &show)
	assert.Equal(t, "project-model", *show.Copilot.Model)
	assert.Equal(t, "project", show.Provenance.Fields["model"].Layer)
	assert.Contains(t, show.ToolsDeny, "shell(git push)")

	var emitted emitOutput
	call(t, cs, "emit_prompt", map[string]any{"name": "fix", "description": "the login bug"}, &emitted)
	assert.Contains(t, emitted.Prompt, "\n\nthe login bug\n\n")
	assert.Empty(t, emitted.Unused)

	var check checkOutput
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
	cs := connect(t, "agent \"ask\" {\n    model #true\n}\n")
	res := call(t, cs, "list_agents", nil, nil)
	assert.True(t, res.IsError)
	assert.Contains(t, res.Content[0].(*mcp.TextContent).Text, "cannot load agent definitions")
}

func entryNames(l listOutput) []string {
	var out []string
	for _, e := range l.Agents {
		out = append(out, e.Name)
	}
	return out
}
