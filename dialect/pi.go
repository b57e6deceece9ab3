package dialect

import (
	"os"
	"path/filepath"

	"github.com/binnacle-dev/bn/agents"
)

// pi is Pi with the subagent extension its documentation names (the
// example that ships in its package, examples/extensions/subagent):
// markdown agents in ~/.pi/agent/agents and, when the subagent tool is
// asked for project agents too, the nearest .pi/agents up from the
// working directory (a project agent then replaces a user one of its
// name). name and description are required (a file without them is
// skipped); tools is a comma string of Pi's tool names, passed to the
// agent's own pi process as --tools (a YAML list makes the extension
// fail); without it, or empty, the agent gets Pi's default tools, read,
// bash, edit and write, and the extension's subagent, and a name Pi does not know gives nothing. model
// is passed as --model. Per the extension's sources (agents.ts, index.ts)
// in Pi 0.73 and what the probes saw.
type pi struct{}

var piInfo = &Info{
	Name: "pi", Title: "Pi", Dir: ".pi/agents", Ext: ".md", ReadExts: []string{".md"},
	Marks: []string{".pi/agents/", ".pi/agent/agents/"},
	Doc:   "`~/.pi/agent/agents/*.md`, and the nearest `.pi/agents` up from the working directory when the subagent tool is asked for project agents (which then win); known by `name`",
	Dirs: func(env Env) []SourceDir {
		var out []SourceDir
		for _, d := range nearestDirs(env, ".pi/agents", "pi") {
			if fi, err := os.Stat(d.Path); err == nil && fi.IsDir() {
				out = append(out, d)
				break
			}
		}
		return append(out, userDir(filepath.Join(env.Home, ".pi", "agent", "agents"), "pi"))
	},
	Vocabulary: []Word{
		{Name: "read", Kinds: []agents.Kind{agents.KindRead}, Write: true},
		{Name: "ls", Kinds: []agents.Kind{agents.KindList}, Write: true},
		{Name: "find", Kinds: []agents.Kind{agents.KindGlob}, Write: true},
		{Name: "grep", Kinds: []agents.Kind{agents.KindGrep}, Write: true},
		{Name: "edit", Kinds: []agents.Kind{agents.KindEdit}, Write: true},
		{Name: "write", Kinds: []agents.Kind{agents.KindCreate}, Write: true},
		{Name: "bash", Kinds: []agents.Kind{agents.KindShell}, Write: true},
		// The extension's own tool, in every pi process that loads it.
		{Name: "subagent", Kinds: []agents.Kind{agents.KindAgent}, Write: true},
	},
	Fields: []FieldSpec{
		{Key: "tools", Hint: true, Check: checkString}, {Key: "model", Hint: true, Check: checkString},
	},
	Setup: "Pi's subagent extension reads a project's .pi/agents only when its tool is called with agentScope \"both\" or \"project\" " +
		"(by default it reads ~/.pi/agent/agents only), and asks before it runs a project agent",
	ModelsAs:   "opencode",
	Partial:    "widen",
	PartialWhy: "Pi's tool lists hold tool names only: a name grants the whole tool",
	Client:     "@mariozechner/pi-coding-agent@0.73.1",
	Exports:    true,
}

var piFile = &listFile{info: piInfo, tools: "tools", model: "model", comma: true, defaults: []string{"read", "bash", "edit", "write", "subagent"}}

func (pi) Info() *Info { return piInfo }

func (pi) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	return piFile.read(src, cat, nil)
}

func (pi) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	return piFile.render(def, id, marker, cat, nil)
}
