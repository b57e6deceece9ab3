package main

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/export"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/resolver"
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
	// done says what the command did besides the files.
	done []string
	// changes are written together by report: every file, or none.
	changes []emit.Change
	// notes name what needs a person's decision, after the files.
	notes []string
}

// agentFiles writes the binnacle Copilot agent files for the chat agents,
// resolved from the layers of scope, as export writes them.
func (g *generated) agentFiles(f *Factory, scope resolver.Scope, opts export.Options) error {
	set, err := f.Agents(scope)
	if err != nil {
		return err
	}
	d, _ := f.Registry().Lookup(dialect.BinnacleTool)
	opts.Targets, opts.Agents = append(opts.Targets, d), copilotChatAgents
	res, err := export.Plan(set, opts)
	if err != nil {
		return err
	}
	for _, s := range res.Reports[0].Skipped {
		return fmt.Errorf("agent %q: %s", s.Agent, s.Reason)
	}
	changes, err := res.Changes()
	if err != nil {
		return err
	}
	g.changes = append(g.changes, changes...)
	g.add(res.Reports[0].Files...)
	if opts.Root == "" {
		return nil // the retired agents were a repository's (host-init writes the user's)
	}
	retired, err := export.RetiredBinnacleFiles(opts.Root)
	if err != nil {
		return err
	}
	for _, r := range retired {
		if !r.Own {
			g.notes = append(g.notes, fmt.Sprintf("%s: binnacle's retired agent (do, prd, buddy and ask replace it), changed since binnacle wrote it, so left alone; "+
				"Copilot still offers it: remove it, or keep it as an agent of your own", displayPath(g.root, r.Path)))
			continue
		}
		g.changes = append(g.changes, emit.Change{Path: r.Path, Remove: true})
		g.add(emit.PlannedFile{Path: r.Path, Action: emit.Remove})
	}
	return nil
}

// mcpConfig merges bn's server into the JSON config at rel in g.root,
// refused where a symlink on the way (or the file itself) leads out of
// it; perm applies if the file is created (user-level configs are
// private).
func (g *generated) mcpConfig(rel string, c emit.MCPConfig, perm os.FileMode) error {
	path, err := files.Inside(g.root, rel)
	if err != nil {
		return fmt.Errorf("not written: %w", err)
	}
	old, err := files.ReadInDir(g.root, filepath.FromSlash(rel), files.MaxConfigFile)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s %w", path, err)
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
	if action != emit.Keep {
		g.changes = append(g.changes, emit.Change{Path: path, Content: content, Perm: perm})
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

// report writes every planned file as one unit (unless --check), then
// prints what was (or would be) written; with no file asked for, what the
// flags would write.
func (g *generated) report(f *Factory, extra map[string]any, flags [][2]string) error {
	if !g.check {
		// Every file is inside root, and written through its handle: a
		// directory swapped for a symlink out of it after the checks
		// fails the write instead of redirecting it.
		if err := emit.ApplyIn(g.root, g.changes); err != nil {
			return err
		}
	}
	if f.Human {
		for _, d := range g.done {
			fmt.Fprintln(f.IO.Out, d)
		}
		for _, file := range g.Files {
			fmt.Fprintf(f.IO.Out, "%-9s %s\n", file.Action, file.Path)
		}
		for _, n := range g.notes {
			fmt.Fprintf(f.IO.Out, "note: %s\n", n)
		}
		if g.check && g.OutOfDate > 0 {
			fmt.Fprintf(f.IO.Out, "%d file(s) out of date\n", g.OutOfDate)
		}
		if len(g.Files) == 0 && len(flags) > 0 {
			fmt.Fprintln(f.IO.Out, "No files asked for. These flags write them:")
			for _, fl := range flags {
				fmt.Fprintf(f.IO.Out, "  %-26s %s\n", fl[0], fl[1])
			}
		}
	} else {
		out := map[string]any{"files": nonNilFiles(g.Files), "out_of_date": g.OutOfDate, "written": !g.check}
		if len(g.notes) > 0 {
			out["notes"] = g.notes
		}
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

func nonNilFiles(f []emit.PlannedFile) []emit.PlannedFile {
	if f == nil {
		return []emit.PlannedFile{}
	}
	return f
}

// homeDir is $HOME, which user-level files live under.
func (f *Factory) homeDir() (string, error) {
	if h := f.Getenv("HOME"); h != "" {
		return h, nil
	}
	return "", fmt.Errorf("HOME is not set; bn cannot find the user's configuration")
}
