package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/importer"
	"github.com/binnacle-dev/bn/kdl"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/binnacle-dev/bn/tally"
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
	Move       bool
	Verbose    bool
	Strict     bool
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
			"node (comments and its KDL version kept) and written with the prompts as one unit.\n\n" +
			"An agent named as one a lower layer defines (a built-in) replaces it whole (replace #true),\n" +
			"since the file says all it means. imports.lock, beside the config.kdl, records each\n" +
			"agent's original file and its SHA-256: diff compares bn's files with these originals, and\n" +
			"export refuses while one remains where a tool loads it beside bn's file.\n" +
			"--move-originals moves them out of the tools' directories to " + importer.OriginalsDir + "/\n" +
			"(nothing is deleted); without PATH it moves those an earlier import recorded.",
		Example: "  bn config agents import .claude/agents -H\n  bn config agents import .claude/agents .opencode/agent --move-originals -H\n" +
			"  bn config agents import ~/.copilot/agents --layer system --dry-run -H\n" +
			"  bn config agents import agents/ --from opencode -o team.kdl",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 && !opts.Move {
				return usagef("import needs at least one PATH (a directory of agent files, or a file), or --move-originals to move aside the originals an import recorded")
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
	fl.BoolVar(&opts.Move, "move-originals", false, "move the imported files out of the tools' directories to "+importer.OriginalsDir+"/, so no tool loads them beside bn's (nothing is deleted)")
	fl.BoolVarP(&opts.Verbose, "verbose", "v", false, "with -H, list every agent and note even when there are many (without it, a long report is summed up)")
	fl.BoolVar(&opts.Strict, "strict", false, "refuse, writing nothing, when any agent is imported widened (holding more than its file's tool let it use)")
	fl.IntVar(&opts.KDLVersion, "kdl-version", 2, "KDL `VERSION` of a new config.kdl: 1 or 2 (an existing file keeps its own)")
	cmd.RegisterFlagCompletionFunc("from", fixedCompletion(formats...))
	cmd.RegisterFlagCompletionFunc("layer", fixedCompletion(layerChoices...))
	cmd.RegisterFlagCompletionFunc("kdl-version", fixedCompletion("2", "1"))
	return cmd
}

func importRun(opts *ImportOptions) error {
	p, err := opts.F.Paths()
	if err != nil {
		return err
	}
	configPath := opts.Output
	if configPath == "" {
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
	// An agent a lower layer defines is replaced, not merged into: the
	// file said all it means. With -o, the file stands apart from the
	// layers: only the built-ins are below it.
	into := resolver.LayerName(opts.Layer)
	if opts.Output != "" {
		into = resolver.System
	}
	replaces := func(name string) string {
		switch l, ok := set.DefinedBelow(name, into); {
		case !ok:
			return ""
		case l == resolver.Embedded:
			return "the built-in agent"
		default:
			return fmt.Sprintf("the %s layer's agent", l)
		}
	}
	// A dry run leaves the cache as it was: a marketplace's plugins in
	// git are fetched into a directory of its own, removed at the end.
	cacheDir := p.CacheDir
	if opts.DryRun {
		tmp, err := os.MkdirTemp("", "bn-import-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		cacheDir = tmp
	}
	res, err := importer.Plan(importer.Options{Paths: opts.Paths, Cwd: opts.F.Cwd, From: from, Config: configPath, Force: opts.Force,
		Registry: opts.F.Registry(), Catalog: set.Catalog(), Decoder: opts.F.Decoder(), Version: kdl.Version(opts.KDLVersion),
		Root: p.RepoRoot, Replaces: replaces, CacheDir: cacheDir})
	if err != nil {
		return err
	}
	if opts.Strict {
		var widened []string
		for _, a := range res.Imported {
			if a.Widened != "" {
				widened = append(widened, fmt.Sprintf("%s (%s): %s", a.Name, a.File, a.Widened))
			}
		}
		if len(widened) > 0 {
			return fmt.Errorf("nothing written: --strict refuses %s imported widened:\n  %s", plural(len(widened), "agent"), strings.Join(widened, "\n  "))
		}
	}
	if !opts.DryRun {
		if err := res.Apply(); err != nil {
			return err
		}
	}
	var moveErr error
	if opts.Move {
		layers, err := resolver.LayerDirs(set.Layers)
		if err != nil {
			return err
		}
		moveErr = res.MoveOriginals(p.RepoRoot, layers, opts.F.Registry(), opts.DryRun)
	}
	if !opts.F.Human {
		if err := writeJSON(opts.F.IO.Out, res); err != nil {
			return err
		}
		return moveErr
	}
	w := opts.F.IO.Out
	// A long report is summed up on a terminal: the moves too, which
	// the count line below names.
	listAll := opts.Verbose || importLines(res)+len(res.Moved) <= summaryLines
	if listAll {
		for _, a := range res.Imported {
			printImported(w, a)
		}
		for _, s := range res.Skipped {
			fmt.Fprintf(w, "skipped  %s: %s\n", s.File, s.Reason)
		}
	} else {
		printImportSummary(w, res)
	}
	verb, dest := "into", res.Config
	switch {
	case !res.Written:
		verb = "nothing written to"
	case len(res.Imported) == 0:
		verb, dest = "recorded in", res.Record
	}
	if len(opts.Paths) > 0 {
		widened := ""
		if n := len(slices.DeleteFunc(slices.Clone(res.Imported), func(a importer.Imported) bool { return a.Widened == "" })); n > 0 {
			widened = fmt.Sprintf(" (%d widened)", n)
		}
		fmt.Fprintf(w, "%d imported%s, %d skipped, %s %s\n", len(res.Imported), widened, len(res.Skipped), verb, displayPath(p.RepoRoot, dest))
	}
	moved := 0
	for _, m := range res.Moved {
		switch {
		case m.Left != "":
			fmt.Fprintf(w, "left     %s (%s): %s\n", m.From, m.Agent, m.Left)
		default:
			moved++
			if listAll {
				fmt.Fprintf(w, "moved    %s -> %s\n", m.From, m.To)
			}
		}
	}
	switch {
	case moveErr != nil: // the error says what moved, if anything
	case opts.Move && opts.DryRun:
		fmt.Fprintf(w, "dry run: %s would move to %s/\n", plural(moved, "original"), importer.OriginalsDir)
	case opts.Move && !listAll:
		fmt.Fprintf(w, "%s moved to %s/ (commit the move; nothing was deleted; --verbose lists each)\n", plural(moved, "original"), importer.OriginalsDir)
	case opts.Move:
		fmt.Fprintf(w, "%s moved to %s/ (commit the move; nothing was deleted)\n", plural(moved, "original"), importer.OriginalsDir)
	case !opts.DryRun && opts.Output == "" && opts.Layer == "project" && slices.ContainsFunc(res.Imported, func(a importer.Imported) bool { return !filepath.IsAbs(displayPath(p.RepoRoot, a.File)) }):
		fmt.Fprintf(w, "originals recorded in %s; before exporting to their tools, move them aside: bn config agents import --move-originals\n",
			displayPath(p.RepoRoot, res.Record))
	}
	return moveErr
}

func printImported(w io.Writer, a importer.Imported) {
	fmt.Fprintf(w, "imported %s (%s, %s)\n", a.Name, a.Format, a.File)
	for _, n := range a.Notes {
		fmt.Fprintf(w, "  note: %s\n", n)
	}
	printWidened(w, a)
}

// printWidened warns, never sums up, that a is imported widened.
func printWidened(w io.Writer, a importer.Imported) {
	if a.Widened != "" {
		fmt.Fprintf(w, "  warning: WIDENED: %s\n", a.Widened)
	}
}

// importLines is how many lines -H --verbose prints for res.
func importLines(res *importer.Result) int {
	n := len(res.Imported) + len(res.Skipped)
	for _, a := range res.Imported {
		n += len(a.Notes)
	}
	return n
}

// printImportSummary sums a long import up as export's summary does: a
// line per format, the most frequent notes each with how many agents it
// concerns and the first few (a collection repeats a few messages for
// most of its agents), the first skips, and what was left out. An agent
// that replaces a lower layer's is listed whole, since its notes say that
// nothing of the agent it replaces is merged in.
func printImportSummary(w io.Writer, res *importer.Result) {
	var rest []importer.Imported
	for _, a := range res.Imported {
		switch {
		case a.Replaces != "" || a.Widened != "":
			printImported(w, a)
		default:
			rest = append(rest, a)
		}
	}
	for _, g := range tally.Of(len(rest), func(i int) (string, string) { return rest[i].Format, rest[i].Name }) {
		fmt.Fprintf(w, "imported %s (%s)\n", plural(len(g.Items), "agent"), g.Text)
	}
	type note struct{ agent, text string }
	var notes []note
	for _, a := range rest {
		for _, n := range a.Notes {
			notes = append(notes, note{a.Name, n})
		}
	}
	kinds := tally.Of(len(notes), func(i int) (string, string) { return notes[i].text, notes[i].agent })
	for _, g := range kinds[:min(len(kinds), summaryGroups)] {
		fmt.Fprintf(w, "  note: %s\n", groupText(g.Text, g.Items, len(rest)))
	}
	for _, s := range res.Skipped[:min(len(res.Skipped), summarySkips)] {
		fmt.Fprintf(w, "skipped  %s: %s\n", s.File, s.Reason)
	}
	var left []string
	if more := len(kinds) - summaryGroups; more > 0 {
		left = append(left, fmt.Sprintf("%d more kinds of note", more))
	}
	if more := len(res.Skipped) - summarySkips; more > 0 {
		left = append(left, fmt.Sprintf("%d more skipped", more))
	}
	if len(left) > 0 {
		fmt.Fprintf(w, "… %s; %s and %s in all: add --verbose to list each, or --json\n",
			strings.Join(left, " and "), plural(len(notes), "note"), plural(len(res.Skipped), "skip"))
	}
}
