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

// interactive is the Copilot CLI's flag for the session's first message.
const interactive = "--interactive="

// Copilot plans the command: flags, then the prompt as --interactive=. It refuses a
// container agent unless Host, and an argument no program can be given.
func Copilot(r Request) (Command, error) {
	if r.Def.Execution == agents.Container && !r.Host {
		return Command{}, fmt.Errorf("agent %q runs in a container (execution \"container\"); start it with binnacle's container runner, or pass --host to run it here", r.Def.Name)
	}
	flags, notes := dialect.CopilotLaunchFlags(r.Def, r.Catalog)
	cmd := Command{Program: r.Program, Args: append([]string{"--no-auto-update"}, flags...), Notes: notes}
	// The prompt, with the task in it, is the session's first message.
	prompt := r.Prompt
	if r.Task != "" {
		if strings.Contains(prompt, "{description}") {
			filled, err := agents.FillPlaceholders(prompt, map[string]string{"description": r.Task})
			if err != nil {
				return Command{}, fmt.Errorf("agent %q: the task: %w", r.Def.Name, err)
			}
			prompt = filled
		} else {
			prompt += "\n\nTask: " + r.Task
		}
	}
	// Joined to its flag: a prompt that starts with "-" (a Markdown list,
	// "--help") would otherwise be read as a flag, or leave -i without its
	// value.
	cmd.Args = append(cmd.Args, interactive+prompt)
	for _, a := range cmd.Args {
		a = strings.TrimPrefix(a, interactive)
		if i := strings.IndexByte(a, 0); i >= 0 {
			return Command{}, fmt.Errorf("agent %q: the Copilot CLI command would hold a NUL byte (in %.40q), which no program is given; remove it from the prompt or the tool rules", r.Def.Name, a[:i])
		}
	}
	return cmd, nil
}

// Limits on one command line: Linux takes at most 128 KiB in one
// argument (MAX_ARG_STRLEN), Windows 32,767 characters in the whole line.
const (
	maxArgLinux        = 128 << 10
	maxCommandWindows  = 32767
	windowsArgOverhead = 3 // a space and two quotes around each argument
)

// Fits says why the command cannot be started on goos, or nil when it
// can: a prompt too long for one argument is refused with its size
// rather than left to the system's "argument list too long".
func (c Command) Fits(goos string) error {
	if goos == "windows" {
		n := len(c.Program)
		for _, a := range c.Args {
			n += len([]rune(a)) + windowsArgOverhead
		}
		if n > maxCommandWindows {
			return fmt.Errorf("the Copilot CLI command would be %d characters, and Windows starts at most %d: shorten the agent's prompt (the task goes in it) or its tool rules", n, maxCommandWindows)
		}
		return nil
	}
	for _, a := range c.Args {
		if goos == "linux" && len(a) >= maxArgLinux {
			return fmt.Errorf("an argument of the Copilot CLI command (the prompt, with the task in it) is %d bytes, and a program takes at most %d in one: shorten the agent's prompt or the task", len(a), maxArgLinux-1)
		}
	}
	return nil
}
