// Package importer reads other tools' agent files — Claude Code, Copilot,
// OpenCode and Gemini CLI markdown — into bn definitions, and measures how
// faithfully a definition round-trips back to its source.
//
// A file the owning tool accepts must import: frontmatter that strict YAML
// rejects but the tool reads (a description holding ": ", say) is read line
// by line, as the tool does, with a warning. Fields bn does not model are
// reported, never dropped silently.
package importer
