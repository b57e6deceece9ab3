// Package launch plans the Copilot CLI command that starts a session as
// one of bn's resolved agents: the agent's prompt (with the task filled
// in), its model as the CLI spells it, and flags that hold the CLI to the
// agent's tools. bn config agents launch and the bn-agent script run it.
package launch
