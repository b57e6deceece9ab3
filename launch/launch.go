package launch

import (
	"fmt"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
)

// Request is what a launch needs: the resolved agent and its prompt.
type Request struct {
	Def     agents.Definition
	Prompt  string
	Catalog *agents.Catalog
	// Task fills the prompt's {description}, or is appended to it.
	Task string
	// Host runs an agent whose execution is container on this machine.
	Host bool
	// Program is the Copilot CLI as the user names it.
	Program string
}

// Command is the Copilot CLI command line, and what its flags cannot say.
type Command struct {
	Program string   `json:"program"`
	Args    []string `json:"args"`
	Notes   []string `json:"notes,omitempty"`
}

// Copilot plans the command: flags, then the prompt as -i. It refuses a container agent unless Host.
func Copilot(r Request) (Command, error) {
	if r.Def.Execution == agents.Container && !r.Host {
		return Command{}, fmt.Errorf("agent %q runs in a container (execution \"container\"); start it with binnacle's container runner, or pass --host to run it here", r.Def.Name)
	}
	cmd := Command{Program: r.Program, Args: []string{"--no-auto-update"}}
	flags, notes := dialect.CopilotLaunchFlags(r.Def.Tools)
	cmd.Args = append(cmd.Args, flags...)
	cmd.Notes = append(cmd.Notes, notes...)
	if model, note := copilotModel(r.Def.Model, r.Catalog); model != "" {
		cmd.Args = append(cmd.Args, "--model", model)
	} else if note != "" {
		cmd.Notes = append(cmd.Notes, note)
	}
	if r.Def.ReasoningEffort != "" {
		cmd.Args = append(cmd.Args, "--reasoning-effort", r.Def.ReasoningEffort)
	}
	// The prompt, with the task in it, is the session's first message.
	prompt := r.Prompt
	if r.Task != "" {
		if strings.Contains(prompt, "{description}") {
			prompt = agents.FillPlaceholders(prompt, map[string]string{"description": r.Task})
		} else {
			prompt += "\n\nTask: " + r.Task
		}
	}
	cmd.Args = append(cmd.Args, "-i", prompt)
	return cmd, nil
}

// copilotModel spells a model as the Copilot CLI's --model takes it, or
// says why it is left out (the CLI then runs its default model).
func copilotModel(model string, cat *agents.Catalog) (string, string) {
	if model == "" {
		return "", ""
	}
	e, ok := cat.Lookup(model, "")
	if !ok {
		return "", fmt.Sprintf("model %q left out: it is not in bn's model catalog (add a model entry to config.kdl); the Copilot CLI runs its default model", model)
	}
	sp, ok := e.Spelling("copilot")
	if !ok {
		return "", fmt.Sprintf("model %q left out: Copilot cannot run it; the Copilot CLI runs its default model", model)
	}
	return sp, ""
}
