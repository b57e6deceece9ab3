package verify

import (
	"path/filepath"
	"regexp"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/enforce"
	"github.com/binnacle-dev/bn/probe"
)

// leads are harmless commands that succeed anywhere, tried in turn as the
// head of the chained line and of the redirection verify asks for: an
// agent whose shell is limited to patterns is asked to chain, and to
// redirect, a command it may run.
var leads = []string{"echo bn", "printf bn", "pwd", "ls", "true", "date"}

// unsafe are the characters a file name of verify's own does not take.
var unsafe = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// uses are what verify asks an agent to do, one after another: a command
// (probe.ShellProbe), the command chained after one the agent may run, a
// redirection of that one into a new file, and writing a new file at the
// project's top, outside any path an edit rule names. Each agent's files
// are its own, as many agents run side by side in one project.
func uses(def agents.Definition, id string) []probe.Use {
	lead := leads[0]
	root := filepath.Join(string(filepath.Separator), "bn-verify")
	for _, l := range leads {
		if enforce.Decide(def.Tools, agents.ToolPattern{Kind: string(agents.KindShell), Arg: l, HasArg: true}, enforce.Context{Root: root}).Allowed {
			lead = l
			break
		}
	}
	slug := unsafe.ReplaceAllString(id, "-")
	return []probe.Use{
		{Command: probe.ShellProbe},
		{Command: lead + " && " + probe.ShellProbe},
		{Command: lead + " > bn-verify-" + slug + ".txt"},
		{Path: "bn-verify-" + slug + "-new.txt"},
	}
}
