// Package mcpserver serves agent definitions over the Model Context
// Protocol on stdio, with the official Go SDK: list_agents, show_agent,
// emit_prompt and check_tool, answering from layers it keeps loaded and
// re-reads only when a file changed. It lives in its own binary (bn-mcp,
// which `bn mcp serve` runs) so the SDK's start-up cost stays off every
// other bn command.
package mcpserver
