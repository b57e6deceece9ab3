// Package dialect holds everything bn knows about each tool that runs
// agents — Claude Code, GitHub Copilot (CLI, cloud and VS Code), OpenCode,
// Codex CLI, Gemini CLI and oh-my-pi — one file per tool, each one value
// behind the Dialect interface: where the tool keeps agents and in what
// precedence, its built-in agents and what a same-named file does to them,
// how to read its agent files into a definition and write a definition
// back (with every loss reported), and its tool and model vocabularies in
// both directions.
//
// Nothing outside this package names a tool by string: import, export,
// diff, sources and session set-up go through Registry. The tables in
// docs/ are generated from the same records the readers and
// writers use.
package dialect
