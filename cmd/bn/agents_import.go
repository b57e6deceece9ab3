package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/importer"
	"github.com/spf13/cobra"
)

type ImportOptions struct {
	F      *Factory
	Paths  []string
	From   string
	Layer  string
	Output string
	DryRun bool
	Force  bool
}

func NewCmdImport(f *Factory, runF func(*ImportOptions) error) *cobra.Command {
	opts := &ImportOptions{F: f}
	formats := importer.FormatChoices()
	cmd := &cobra.Command{
		Use:   "import PATH...",
		Short: "Import agent files from other tools into a layer's config.kdl",
		Long: "Import agent files (a directory of them, or single files) into one config.kdl, with each\n" +
			"prompt in prompts/NAME.md beside it. Each agent keeps every field bn models; the rest is\n" +
			"reported. Files the owning tool would reject, duplicates and invalid names are skipped,\n" +
			"each with its reason. Agents the config.kdl already defines are kept unless --force.",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("import needs at least one PATH (a directory of agent files, or a file)")
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Paths = args
			if !slices.Contains(formats, opts.From) {
				return usagef("--from %q: use one of %s", opts.From, strings.Join(formats, ", "))
			}
			if !slices.Contains([]string{"project", "system", "session"}, opts.Layer) {
				return usagef("--layer %q: use project, system or session", opts.Layer)
			}
			if opts.Output != "" && cmd.Flags().Changed("layer") {
				return usagef("--layer and -o/--output cannot be used together")
			}
			if runF != nil {
				return runF(opts)
			}
			return importRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&opts.From, "from", "auto", "`FORMAT` of the files: "+strings.Join(formats, ", ")+" (auto: by location)")
	fl.StringVar(&opts.Layer, "layer", "project", "`LAYER` whose config.kdl receives the agents: project, system or session")
	fl.StringVarP(&opts.Output, "output", "o", "", "write to `FILE` instead of a layer's config.kdl")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "write nothing; show what would be imported")
	fl.BoolVar(&opts.Force, "force", false, "replace agents and prompt files that already exist")
	return cmd
}

type importedJSON struct {
	Name   string   `json:"name"`
	File   string   `json:"file"`
	Format string   `json:"format"`
	Notes  []string `json:"notes"`
}

type skippedJSON struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

type importOutput struct {
	Config   string         `json:"config"`
	Written  bool           `json:"written"`
	Imported []importedJSON `json:"imported"`
	Skipped  []skippedJSON  `json:"skipped"`
}

// importSource is a file to import and its path under the directory given.
type importSource struct{ path, rel string }

func collectSources(paths []string, cwd string) ([]importSource, error) {
	var out []importSource
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		fi, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", p, unwrapPathErr(err))
		}
		if !fi.IsDir() {
			out = append(out, importSource{p, filepath.Base(p)})
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			isAgent := strings.HasSuffix(d.Name(), ".md") || strings.HasSuffix(d.Name(), ".toml")
			if d.IsDir() || !isAgent || strings.EqualFold(d.Name(), "README.md") {
				return nil
			}
			rel, _ := filepath.Rel(p, path)
			out = append(out, importSource{path, rel})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

func unwrapPathErr(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}

func importRun(opts *ImportOptions) error {
	configPath := opts.Output
	if configPath == "" {
		p, err := opts.F.Paths()
		if err != nil {
			return err
		}
		configPath = filepath.Join(layerDir(p, opts.Layer), "config.kdl")
	} else if !filepath.IsAbs(configPath) {
		configPath = filepath.Join(opts.F.Cwd, configPath)
	}
	existing, err := os.ReadFile(configPath)
	if err != nil && !os.IsNotExist(err) {
		return fmt.Errorf("cannot read %s: %w", configPath, err)
	}
	current := agents.DecodeKDL(configPath, existing)
	if errs := current.Diags.Errors(); len(errs) > 0 {
		return fmt.Errorf("%s does not load; fix it before importing into it:\n%v", configPath, errs)
	}
	defined := map[string]agents.Pos{}
	for _, s := range current.Specs {
		defined[s.Name] = s.Pos
	}
	sources, err := collectSources(opts.Paths, opts.F.Cwd)
	if err != nil {
		return err
	}
	out := importOutput{Config: configPath, Imported: []importedJSON{}, Skipped: []skippedJSON{}}
	skip := func(file, reason string) { out.Skipped = append(out.Skipped, skippedJSON{file, reason}) }
	dir := filepath.Dir(configPath)
	text := string(existing)
	var prompts []emit.Want
	seen := map[string]string{}
	for _, src := range sources {
		format := importer.Format(opts.From)
		if opts.From == "auto" {
			format = importer.Detect(src.path)
		}
		data, err := os.ReadFile(src.path)
		if err != nil {
			skip(src.path, err.Error())
			continue
		}
		a, err := importer.Read(src.path, src.rel, data, format)
		if err != nil {
			skip(src.path, err.Error())
			continue
		}
		if first, dup := seen[a.Name]; dup {
			skip(src.path, fmt.Sprintf("agent %q was already imported from %s", a.Name, first))
			continue
		}
		if pos, ok := defined[a.Name]; ok {
			if !opts.Force {
				skip(src.path, fmt.Sprintf("agent %q is already defined at %s; --force replaces it", a.Name, pos))
				continue
			}
			text = removeAgentNode(text, a.Name)
		}
		promptRel := "prompts/" + a.Name + ".md"
		promptPath := filepath.Join(dir, filepath.FromSlash(promptRel))
		if old, err := os.ReadFile(promptPath); err == nil && string(old) != a.Prompt+"\n" && !opts.Force {
			skip(src.path, fmt.Sprintf("%s already exists with other text; --force replaces it", promptPath))
			continue
		}
		seen[a.Name] = src.path
		var b strings.Builder
		agents.WriteKDLAgent(&b, agents.KDLAgent{Definition: agents.Definition{
			Name: a.Name, Description: a.Description, Model: a.Model, ReasoningEffort: a.ReasoningEffort,
			Hidden: a.Hidden, Tags: a.Tags, Tools: agents.Tools{Allow: a.Allow, Deny: a.Deny},
		}, PromptFile: promptRel, NoRuntimeFlags: true})
		if text != "" && !strings.HasSuffix(text, "\n") {
			text += "\n"
		}
		text += b.String()
		prompts = append(prompts, emit.Want{Path: promptPath, Content: []byte(a.Prompt + "\n")})
		out.Imported = append(out.Imported, importedJSON{Name: a.Name, File: src.path, Format: string(format), Notes: nonNil(a.Notes)})
	}
	// What bn writes it must read back: a failure here is a bn bug, and
	// nothing is written.
	if errs := agents.DecodeKDL(configPath, []byte(text)).Diags.Errors(); len(errs) > 0 {
		return fmt.Errorf("internal error: the generated %s does not load: %v", configPath, errs)
	}
	if !opts.DryRun && len(out.Imported) > 0 {
		for _, w := range prompts {
			if _, err := emit.WriteFileAtomic(w.Path, w.Content, 0o644); err != nil {
				return err
			}
		}
		if _, err := emit.WriteFileAtomic(configPath, []byte(text), 0o644); err != nil {
			return err
		}
		out.Written = true
	}
	return printImport(opts, out)
}

// removeAgentNode cuts the top-level agent node named name out of a
// config.kdl, from its line to the next top-level node.
func removeAgentNode(text, name string) string {
	lines := strings.SplitAfter(text, "\n")
	start := -1
	header := "agent " + agents.QuoteKDL(name)
	for i, l := range lines {
		if start < 0 && strings.HasPrefix(l, header) {
			start = i
			continue
		}
		if start >= 0 && strings.HasPrefix(l, "agent ") {
			return strings.Join(append(lines[:start:start], lines[i:]...), "")
		}
	}
	if start < 0 {
		return text
	}
	return strings.Join(lines[:start], "")
}

func printImport(opts *ImportOptions, out importOutput) error {
	if !opts.F.Human {
		return writeJSON(opts.F.IO.Out, out)
	}
	w := opts.F.IO.Out
	for _, a := range out.Imported {
		fmt.Fprintf(w, "imported %s (%s, %s)\n", a.Name, a.Format, a.File)
		for _, n := range a.Notes {
			fmt.Fprintf(w, "  note: %s\n", n)
		}
	}
	for _, s := range out.Skipped {
		fmt.Fprintf(w, "skipped  %s: %s\n", s.File, s.Reason)
	}
	verb := "into"
	if !out.Written {
		verb = "nothing written to"
	}
	fmt.Fprintf(w, "%d imported, %d skipped, %s %s\n", len(out.Imported), len(out.Skipped), verb, out.Config)
	return nil
}
