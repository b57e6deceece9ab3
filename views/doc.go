// Package views builds what bn reports about resolved agents — the JSON
// shapes of list, show, emit and check — for the command line and the MCP
// server alike, so both always say the same thing.
package views
