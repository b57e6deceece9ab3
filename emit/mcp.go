package emit

import (
	"bytes"
	"fmt"
)

// MCPServerName is the key bn's server has in every MCP config.
const MCPServerName = "binnacle"

// MCPConfig is one kind of MCP client configuration: where the servers live
// in the file, and what bn's entry looks like there.
type MCPConfig struct {
	Name    string   // the `bn system emit` template name
	Servers []string // path to the servers object
	Server  any
}

type vscodeServer struct {
	Type    string   `json:"type"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

type copilotServer struct {
	Type    string   `json:"type"`
	Command string   `json:"command"`
	Args    []string `json:"args"`
	Tools   []string `json:"tools"`
}

type claudeServer struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

// MCPConfigs lists the configs bn writes. VS Code starts servers in the
// workspace, so its entry names the folder; the others run from the project.
var MCPConfigs = []MCPConfig{
	{Name: "mcp-vscode", Servers: []string{"servers"},
		Server: vscodeServer{Type: "stdio", Command: "bn", Args: []string{"mcp", "serve", "--cwd", "${workspaceFolder}"}}},
	{Name: "mcp-copilot", Servers: []string{"mcpServers"},
		Server: copilotServer{Type: "local", Command: "bn", Args: []string{"mcp", "serve"}, Tools: []string{"*"}}},
	{Name: "mcp-claude", Servers: []string{"mcpServers"},
		Server: claudeServer{Command: "bn", Args: []string{"mcp", "serve"}}},
}

// LookupMCPConfig finds a config kind by template name.
func LookupMCPConfig(name string) (MCPConfig, bool) {
	for _, c := range MCPConfigs {
		if c.Name == name {
			return c, true
		}
	}
	return MCPConfig{}, false
}

// Document is a whole config file holding only bn's server.
func (c MCPConfig) Document() []byte {
	out, err := SetMember(nil, append(c.Servers, MCPServerName), c.Server)
	if err != nil {
		panic(err) // an empty document always takes the member
	}
	return out
}

// Merge returns old, the content of the config file at path (nil if it
// does not exist), with bn's server set in it and everything else kept as it
// was. Content that is not valid JSON (comments and trailing commas
// allowed) is an error, and the file is not to be written.
func (c MCPConfig) Merge(path string, old []byte) ([]byte, error) {
	out, err := SetMember(old, append(c.Servers, MCPServerName), c.Server)
	if err != nil {
		return nil, fmt.Errorf("%s: %w; fix the file (bn left it untouched)", path, err)
	}
	if len(old) == 0 || bytes.HasSuffix(old, []byte("\n")) {
		out = append(bytes.TrimRight(out, "\n"), '\n')
	}
	return out, nil
}
