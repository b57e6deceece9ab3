// Package export plans and writes the agent files bn exports to other
// tools. Planning resolves each agent once, renders it for every target
// through its dialect, names it as the target can hold it, checks it
// against the target's built-in agents and every file already on disk,
// and only then writes — all files of all targets, or none.
package export
