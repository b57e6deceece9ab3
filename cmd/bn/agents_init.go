package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/embedded"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/spf13/cobra"
)

type InitOptions struct {
	F     *Factory
	Layer string
	Name  string
	Force bool
}

func NewCmdInit(f *Factory, runF func(*InitOptions) error) *cobra.Command {
	opts := &InitOptions{F: f}
	cmd := &cobra.Command{
		Use:   "init [NAME]",
		Short: "Scaffold a config.kdl, or copy a resolved agent into a layer for editing",
		Long: "Without NAME, write a commented config.kdl into the layer directory.\n" +
			"With NAME, add the resolved agent to the layer's config.kdl (its tools block starts with\n" +
			"reset, so the copy is the whole list) and its prompt to NAME/prompt.md, ready to edit.",
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
			if !slices.Contains([]string{"project", "system", "session"}, opts.Layer) {
				return usagef("--layer %q: use project, system or session", opts.Layer)
			}
			if runF != nil {
				return runF(opts)
			}
			return initRun(opts)
		},
	}
	cmd.Flags().StringVar(&opts.Layer, "layer", "project", "`LAYER` to write: project, system or session")
	cmd.Flags().BoolVar(&opts.Force, "force", false, "replace existing files")
	return cmd
}

type fileAction struct {
	Path   string `json:"path"`
	Action string `json:"action"`
}

func layerDir(p resolver.Paths, layer string) string {
	switch layer {
	case "system":
		return p.SystemDir
	case "session":
		return p.SessionDir
	}
	return p.ProjectDir
}

func initRun(opts *InitOptions) error {
	p, err := opts.F.Paths()
	if err != nil {
		return err
	}
	dir := layerDir(p, opts.Layer)
	configPath := filepath.Join(dir, "config.kdl")
	var actions []fileAction
	write := func(path string, data []byte) error {
		res, err := emit.WriteFileAtomic(path, data, 0o644)
		if err != nil {
			return err
		}
		actions = append(actions, fileAction{Path: path, Action: res.String()})
		return nil
	}
	if opts.Name == "" {
		if _, err := os.Stat(configPath); err == nil && !opts.Force {
			return fmt.Errorf("%s already exists; edit it, or pass --force to replace it with the scaffold", configPath)
		}
		if err := write(configPath, embedded.Scaffold()); err != nil {
			return err
		}
	} else if err := initAgent(opts, dir, configPath, write); err != nil {
		return err
	}
	if opts.F.Human {
		for _, a := range actions {
			fmt.Fprintf(opts.F.IO.Out, "%s %s\n", a.Action, a.Path)
		}
		return nil
	}
	return writeJSON(opts.F.IO.Out, map[string]any{"layer": opts.Layer, "files": actions})
}

func initAgent(opts *InitOptions, dir, configPath string, write func(string, []byte) error) error {
	a, prompt, err := opts.F.AgentWithPrompt(opts.Name)
	if err != nil {
		return err
	}
	existing, err := os.ReadFile(configPath)
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("cannot read %s: %w", configPath, err)
	}
	for _, s := range agents.DecodeKDL(configPath, existing).Specs {
		if s.Name == a.Name {
			return fmt.Errorf("%s already defines agent %q (at %s); edit it there", configPath, a.Name, s.Pos)
		}
	}
	promptRel := a.Name + "/prompt.md"
	promptPath := filepath.Join(dir, a.Name, "prompt.md")
	if _, err := os.Stat(promptPath); err == nil && !opts.Force {
		return fmt.Errorf("%s already exists; pass --force to replace it", promptPath)
	}
	var b strings.Builder
	b.Write(existing)
	if len(existing) > 0 && !strings.HasSuffix(string(existing), "\n") {
		b.WriteString("\n")
	}
	if len(existing) > 0 {
		b.WriteString("\n")
	}
	agents.WriteKDLAgent(&b, agents.KDLAgent{Definition: a.Definition, ResetTools: true, PromptFile: promptRel})
	if err := write(promptPath, []byte(prompt+"\n")); err != nil {
		return err
	}
	return write(configPath, []byte(b.String()))
}
