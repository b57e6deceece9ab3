package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/resolver"
)

// The commands that own the binnacle Copilot files they write; each file's
// marker names its command.
const (
	regenerateCopilotPrompts = "bn session init --write-copilot-prompts"
	regenerateCopilotAgents  = "bn system host-init --write-copilot-agents"
)

// copilotChatAgents are the host-mode interactive agents binnacle offers in
// Copilot chat; worker and free run through bn-agent instead.
var copilotChatAgents = []string{"do", "prd", "buddy", "ask"}

// generated collects what set-up commands write, for one report.
type generated struct {
	root      string // paths inside it are shown relative to it
	check     bool   // write nothing; count what is out of date
	Files     []emit.PlannedFile
	OutOfDate int
}

// agentFiles writes the binnacle Copilot agent files into dir, resolved
// from the layers of scope.
func (g *generated) agentFiles(f *Factory, scope resolver.Scope, dir, ext, regenerate string, force bool) error {
	set, err := f.Agents(scope)
	if err != nil {
		return err
	}
	var wants []emit.Want
	for _, name := range copilotChatAgents {
		a, err := set.Lookup(name)
		if err != nil {
			return err
		}
		prompt, err := a.Prompt()
		if err != nil {
			return err
		}
		def := a.Definition
		def.Prompt = prompt
		content, _, err := emit.CopilotAgentFile(def, regenerate)
		if err != nil {
			return err
		}
		wants = append(wants, emit.Want{Path: filepath.Join(dir, emit.CopilotID(name)+ext), Agent: name, Content: content})
	}
	plan, err := emit.PlanFiles(dir, ext, regenerate, wants, force, false)
	if err != nil {
		return err
	}
	if !g.check {
		if err := plan.Apply(); err != nil {
			return err
		}
	}
	g.add(plan.Files...)
	return nil
}

// mcpConfig merges bn's server into the JSON config at path; perm applies
// if the file is created (user-level configs are private).
func (g *generated) mcpConfig(path string, c emit.MCPConfig, perm os.FileMode) error {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("cannot read %s: %w", path, err)
	}
	content, err := c.Merge(path, old)
	if err != nil {
		return err
	}
	action := emit.Create
	if old != nil {
		action = emit.Update
		if bytes.Equal(old, content) {
			action = emit.Keep
		}
	}
	if !g.check && action != emit.Keep {
		if _, err := emit.WriteFileAtomic(path, content, perm); err != nil {
			return err
		}
	}
	g.add(emit.PlannedFile{Path: path, Action: action})
	return nil
}

func (g *generated) add(files ...emit.PlannedFile) {
	for _, f := range files {
		if f.Action != emit.Keep {
			g.OutOfDate++
		}
		f.Path = displayPath(g.root, f.Path)
		g.Files = append(g.Files, f)
	}
}

// report prints what was (or, with --check, would be) written.
func (g *generated) report(f *Factory, extra map[string]any) error {
	if f.Human {
		for _, file := range g.Files {
			fmt.Fprintf(f.IO.Out, "%-9s %s\n", file.Action, file.Path)
		}
		if g.check && g.OutOfDate > 0 {
			fmt.Fprintf(f.IO.Out, "%d file(s) out of date\n", g.OutOfDate)
		}
	} else {
		out := map[string]any{"files": g.Files, "out_of_date": g.OutOfDate, "written": !g.check}
		for k, v := range extra {
			out[k] = v
		}
		if err := writeJSON(f.IO.Out, out); err != nil {
			return err
		}
	}
	if g.check && g.OutOfDate > 0 {
		return exitError{1}
	}
	return nil
}
