package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/importer"
	"github.com/binnacle-dev/bn/kdl"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/spf13/cobra"
)

type ImportOptions struct {
	F          *Factory
	Paths      []string
	From       string
	Layer      string
	Output     string
	DryRun     bool
	Force      bool
	KDLVersion int
}

var layerChoices = []string{"project", "system", "session"}

func NewCmdImport(f *Factory, runF func(*ImportOptions) error) *cobra.Command {
	opts := &ImportOptions{F: f}
	formats := append([]string{"auto"}, f.Registry().Names()...)
	cmd := &cobra.Command{
		Use:   "import PATH...",
		Short: "Import agent files from other tools into a layer's config.kdl",
		Long: "Import agent files (directories of them, or single files) into one config.kdl, with each\n" +
			"prompt in prompts/NAME.md beside it. Each agent keeps what it means: its tools (mapped to\n" +
			"bn's kinds, the tool's own spelling kept for writing back), its model (the catalog's id),\n" +
			"every field bn models, and the tool's own fields in the tool's section. Files the owning\n" +
			"tool would reject, duplicates and special files are skipped, each with its reason; agents\n" +
			"the config.kdl already defines are kept unless --force. The config.kdl is edited node by\n" +
			"node (comments and its KDL version kept) and written with the prompts as one unit.",
		Example: "  bn config agents import .claude/agents -H\n  bn config agents import ~/.copilot/agents --layer system --dry-run -H\n" +
			"  bn config agents import agents/ --from opencode -o team.kdl",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("import needs at least one PATH (a directory of agent files, or a file)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			if !slices.Contains(formats, opts.From) {
				return usagef("--from %q: use one of %s%s", opts.From, strings.Join(formats, ", "), suggest(opts.From, formats))
			}
			if !slices.Contains(layerChoices, opts.Layer) {
				return usagef("--layer %q: use project, system or session%s", opts.Layer, suggest(opts.Layer, layerChoices))
			}
			if opts.Output != "" && cmd.Flags().Changed("layer") {
				return usagef("--layer and -o/--output cannot be used together")
			}
			if opts.KDLVersion != 1 && opts.KDLVersion != 2 {
				return usagef("--kdl-version %d: use 1 or 2", opts.KDLVersion)
			}
			if runF != nil {
				return runF(opts)
			}
			return importRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.From, "from", "auto", "`FORMAT` of the files: "+strings.Join(formats, ", ")+" (auto: by location, then by the keys only one tool uses)")
	fl.StringVar(&opts.Layer, "layer", "project", "`LAYER` whose config.kdl receives the agents: project, system or session")
	fl.StringVarP(&opts.Output, "output", "o", "", "write to `FILE` instead of a layer's config.kdl")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "write nothing; show what would be imported")
	fl.BoolVar(&opts.Force, "force", false, "replace agents and prompt files that already exist")
	fl.IntVar(&opts.KDLVersion, "kdl-version", 2, "KDL `VERSION` of a new config.kdl: 1 or 2 (an existing file keeps its own)")
	cmd.RegisterFlagCompletionFunc("from", fixedCompletion(formats...))
	cmd.RegisterFlagCompletionFunc("layer", fixedCompletion(layerChoices...))
	cmd.RegisterFlagCompletionFunc("kdl-version", fixedCompletion("2", "1"))
	return cmd
}

func importRun(opts *ImportOptions) error {
	configPath := opts.Output
	if configPath == "" {
		p, err := opts.F.Paths()
		if err != nil {
			return err
		}
		dir, err := layerDir(p, opts.Layer)
		if err != nil {
			return err
		}
		configPath = filepath.Join(dir, "config.kdl")
	} else if !filepath.IsAbs(configPath) {
		configPath = filepath.Join(opts.F.Cwd, configPath)
	}
	if !opts.DryRun {
		// Imports into one layer run one at a time: each reads the
		// config.kdl the one before wrote.
		unlock, err := opts.F.lock(filepath.Dir(configPath))
		if err != nil {
			return err
		}
		defer unlock()
	}
	var from dialect.Dialect
	if opts.From != "auto" {
		from, _ = opts.F.Registry().Lookup(opts.From)
	}
	set, err := opts.F.LoadAgents(resolver.AllLayers)
	if err != nil {
		return err
	}
	res, err := importer.Plan(importer.Options{Paths: opts.Paths, Cwd: opts.F.Cwd, From: from, Config: configPath, Force: opts.Force,
		Registry: opts.F.Registry(), Catalog: set.Catalog(), Decoder: opts.F.Decoder(), Version: kdl.Version(opts.KDLVersion)})
	if err != nil {
		return err
	}
	if !opts.DryRun {
		if err := res.Apply(); err != nil {
			return err
		}
	}
	if !opts.F.Human {
		return writeJSON(opts.F.IO.Out, res)
	}
	w := opts.F.IO.Out
	for _, a := range res.Imported {
		fmt.Fprintf(w, "imported %s (%s, %s)\n", a.Name, a.Format, a.File)
		for _, n := range a.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
	}
	for _, s := range res.Skipped {
		fmt.Fprintf(w, "skipped  %s: %s\n", s.File, s.Reason)
	}
	verb := "into"
	if !res.Written {
		verb = "nothing written to"
	}
	fmt.Fprintf(w, "%d imported, %d skipped, %s %s\n", len(res.Imported), len(res.Skipped), verb, res.Config)
	return nil
}
