// Command bn-mcp is bn's MCP server: `bn mcp serve` runs it. It is its own
// binary so the MCP SDK's start-up cost stays off every other bn command.
package main

import (
	"os"

	"github.com/binnacle-dev/bn/mcpserver"
)

// version is set at build time by the Makefile.
var version = "dev"

func main() {
	os.Exit(mcpserver.Main(os.Args[1:], version))
}
