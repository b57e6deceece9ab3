package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/embedded"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/kdl"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/spf13/cobra"
)

type InitOptions struct {
	F          *Factory
	Layer      string
	Name       string
	Force      bool
	KDLVersion int
}

func NewCmdInit(f *Factory, runF func(*InitOptions) error) *cobra.Command {
	opts := &InitOptions{F: f}
	cmd := &cobra.Command{
		Use:   "init [NAME]",
		Short: "Scaffold a config.kdl, or copy a resolved agent into a layer for editing",
		Long: "Without NAME, write a commented config.kdl (KDL 2.0) into the layer directory.\n" +
			"With NAME, add the resolved agent to the layer's config.kdl (its tools block starts with\n" +
			"reset, so the copy is the whole list) and its prompt to NAME/prompt.md, ready to edit;\n" +
			"an existing config.kdl keeps its KDL version and comments, and both files are written\n" +
			"as one unit.",
		Example:           "  bn config agents init\n  bn config agents init ask --layer system\n  bn config agents init --layer session -H",
		ValidArgsFunction: completeAgents(f),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("init takes at most one argument, the agent NAME (got %d)", len(args))
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.Name = args[0]
			}
			if !slices.Contains(layerChoices, opts.Layer) {
				return usagef("--layer %q: use project, system or session%s", opts.Layer, suggest(opts.Layer, layerChoices))
			}
			if opts.KDLVersion != 1 && opts.KDLVersion != 2 {
				return usagef("--kdl-version %d: use 1 or 2", opts.KDLVersion)
			}
			if runF != nil {
				return runF(opts)
			}
			return initRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Layer, "layer", "project", "`LAYER` to write: project, system or session")
	cmd.Flags().BoolVar(&opts.Force, "force", false, "replace existing files")
	cmd.Flags().IntVar(&opts.KDLVersion, "kdl-version", 2, "KDL `VERSION` of a new config.kdl with NAME: 1 or 2")
	cmd.RegisterFlagCompletionFunc("layer", fixedCompletion(layerChoices...))
	return cmd
}

type fileAction struct {
	Path   string `json:"path"`
	Action string `json:"action"`
}

// layerDir is the directory of the layer bn writes to. The project
// layer's is inside the repository, and bn writes there only while no
// symlink on the way (a committed .binnacle, say) leads out of it.
func layerDir(p resolver.Paths, layer string) (string, error) {
	switch layer {
	case "system":
		return p.SystemDir, nil
	case "session":
		return p.SessionDir, nil
	}
	rel, err := filepath.Rel(p.RepoRoot, p.ProjectDir)
	if err != nil {
		return "", err
	}
	if _, err := files.Inside(p.RepoRoot, filepath.ToSlash(rel)); err != nil {
		return "", fmt.Errorf("the project layer is not written: %w", err)
	}
	return p.ProjectDir, nil
}

func initRun(opts *InitOptions) error {
	p, err := opts.F.Paths()
	if err != nil {
		return err
	}
	dir, err := layerDir(p, opts.Layer)
	if err != nil {
		return err
	}
	configPath := filepath.Join(dir, "config.kdl")
	unlock, err := opts.F.lock(dir)
	if err != nil {
		return err
	}
	defer unlock()
	var changes []emit.Change
	if opts.Name == "" {
		if _, err := os.Stat(configPath); err == nil && !opts.Force {
			return fmt.Errorf("%s already exists; edit it, or pass --force to replace it with the scaffold", configPath)
		}
		changes = append(changes, emit.Change{Path: configPath, Content: embedded.Scaffold(), Perm: 0o644, Sync: true})
	} else {
		changes, err = initAgent(opts, dir, configPath)
		if err != nil {
			return err
		}
	}
	actions := make([]fileAction, len(changes))
	for i, c := range changes {
		actions[i] = fileAction{Path: c.Path, Action: "created"}
		if old, err := os.ReadFile(c.Path); err == nil {
			actions[i].Action = "updated"
			if string(old) == string(c.Content) {
				actions[i].Action = "unchanged"
			}
		}
	}
	if err := writeLayer(p, dir, changes); err != nil {
		return err
	}
	if opts.F.Human {
		for _, a := range actions {
			path := a.Path
			if dir == p.ProjectDir { // the repository's own files, as export shows them
				path = displayPath(p.RepoRoot, path)
			}
			fmt.Fprintf(opts.F.IO.Out, "%s %s\n", a.Action, path)
		}
		return nil
	}
	return writeJSON(opts.F.IO.Out, map[string]any{"layer": opts.Layer, "files": actions})
}

func initAgent(opts *InitOptions, dir, configPath string) ([]emit.Change, error) {
	a, prompt, err := opts.F.AgentWithPrompt(opts.Name)
	if err != nil {
		return nil, err
	}
	doc, err := opts.F.Decoder().Edit(configPath, kdl.Version(opts.KDLVersion))
	if err != nil {
		return nil, err
	}
	if line := doc.AgentLine(a.Name); line > 0 {
		return nil, fmt.Errorf("%s:%d already defines agent %q; edit it there", configPath, line, a.Name)
	}
	promptRel := a.Name + "/prompt.md"
	promptPath, err := files.Inside(dir, promptRel)
	if err != nil {
		return nil, fmt.Errorf("not written: %w", err)
	}
	if _, err := os.Stat(promptPath); err == nil && !opts.Force {
		return nil, fmt.Errorf("%s already exists; pass --force to replace it", promptPath)
	}
	node := config.AgentNode(a.Definition, config.NodeOptions{ResetTools: true, PromptFile: promptRel, Runtime: true})
	if err := doc.SetAgent(a.Name, node); err != nil {
		return nil, err
	}
	return []emit.Change{
		{Path: promptPath, Content: []byte(prompt + "\n"), Perm: 0o644, Sync: true},
		{Path: configPath, Content: doc.Bytes(), Perm: 0o644, Sync: true},
	}, nil
}

// writeLayer writes changes to the layer in dir through directories opened
// from the repository (from the layer's own, for a layer outside it), as
// export writes: a directory swapped for a symlink out of it after
// layerDir checked it fails the write instead of redirecting it.
func writeLayer(p resolver.Paths, dir string, changes []emit.Change) error {
	base := dir
	if dir == p.ProjectDir {
		base = p.RepoRoot
	}
	return emit.ApplyIn(base, changes)
}
