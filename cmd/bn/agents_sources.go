package main

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/export"
	"github.com/binnacle-dev/bn/importer"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/spf13/cobra"
)

type SourcesOptions struct {
	F     *Factory
	Tools []string
	Trace bool
}

func NewCmdSources(f *Factory, runF func(*SourcesOptions) error) *cobra.Command {
	opts := &SourcesOptions{F: f}
	tools := f.Registry().Names()
	cmd := &cobra.Command{
		Use:   "sources",
		Short: "Show every agent each tool on this machine would see, and which copy wins",
		Long: "For each tool (" + strings.Join(tools, ", ") + "), read its project directories (the\n" +
			"nearest, walking up from the working directory to the repository root) and user\n" +
			"directories, in the tool's own precedence: which file wins for each name, what it\n" +
			"shadows (OpenCode merges instead), which files the tool would reject and why, and whether\n" +
			"files bn generated still match what bn would write now. Missing directories are normal.",
		Example: "  bn config agents sources -H\n  bn config agents sources --tool claude --trace -H",
		Args:    exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, t := range opts.Tools {
				if !slices.Contains(tools, t) {
					return usagef("--tool %q: use one of %s%s", t, strings.Join(tools, ", "), suggest(t, tools))
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return sourcesRun(opts)
		},
	}
	cmd.Flags().StringArrayVar(&opts.Tools, "tool", nil, "only `TOOL` (repeatable)")
	cmd.Flags().BoolVar(&opts.Trace, "trace", false, "list every directory searched, in order")
	cmd.RegisterFlagCompletionFunc("tool", fixedCompletion(tools...))
	return cmd
}

type sourcesOutput struct {
	Tools  []importer.ToolView       `json:"tools"`
	Counts map[string]map[string]int `json:"counts"`
}

func sourcesRun(opts *SourcesOptions) error {
	p, err := opts.F.Paths()
	if err != nil {
		return err
	}
	// Project directories are searched from the working directory up to
	// the repository root; from the root itself when -C points elsewhere.
	cwd, err := filepath.EvalSymlinks(opts.F.Cwd)
	if rel, relErr := filepath.Rel(p.RepoRoot, cwd); err != nil || relErr != nil || strings.HasPrefix(rel, "..") {
		cwd = p.RepoRoot
	}
	env := dialect.Env{Cwd: cwd, RepoRoot: p.RepoRoot, Home: opts.F.Getenv("HOME"),
		XDGConfigHome: opts.F.Getenv("XDG_CONFIG_HOME"), CopilotHome: opts.F.Getenv("COPILOT_HOME")}
	reg := opts.F.Registry()
	tools := opts.Tools
	if len(tools) == 0 {
		tools = reg.Names()
	}
	set, err := opts.F.LoadAgents(resolver.AllLayers)
	if err != nil {
		return err
	}
	load := func(scope resolver.Scope) (*resolver.Set, error) { return opts.F.Agents(scope) }
	// The agents export writes: a file that is not bn's yet defines one
	// of them is flagged (a broken layer flags nothing: validate says why).
	committed, _ := opts.F.Agents(resolver.Committed)
	out := sourcesOutput{Counts: map[string]map[string]int{"tools": {}, "locations": {}, "tags": {}}}
	for _, tool := range tools {
		d, _ := reg.Lookup(tool)
		view := importer.Discover(d, env, reg, set.Catalog(), nil)
		var ids map[string]string
		if committed != nil {
			ids = export.IDs(committed, d)
		}
		for i := range view.Agents {
			a := &view.Agents[i]
			a.Shadows = shadows(d.Info(), p.RepoRoot, ids, a)
			if a.Active {
				out.Counts["tools"][tool]++
				out.Counts["locations"][string(a.Location)]++
				for _, tag := range a.Def.Tags {
					out.Counts["tags"][tag]++
				}
			}
			if a.Generated != nil {
				a.Drift = export.Drift(load, reg, relativeToDir(view.Dirs, a.File), a.Generated)
			}
			a.File = displayPath(p.RepoRoot, a.File)
			a.ShadowedBy = displayPath(p.RepoRoot, a.ShadowedBy)
		}
		for i := range view.Dirs {
			view.Dirs[i].Path = displayPath(p.RepoRoot, view.Dirs[i].Path)
		}
		for i := range view.Invalid {
			view.Invalid[i].File = displayPath(p.RepoRoot, view.Invalid[i].File)
		}
		for i := range view.Deprecated {
			view.Deprecated[i] = displayPath(p.RepoRoot, view.Deprecated[i])
		}
		out.Tools = append(out.Tools, view)
	}
	if !opts.F.Human {
		return writeJSON(opts.F.IO.Out, out)
	}
	printSources(opts, out)
	return nil
}

// shadows says what a file that is not bn's does to an agent bn writes
// for the tool: it stands where bn writes the agent, or the tool reads it
// as that agent beside bn's file (in the repository; from the user's
// directories only where the tool merges same-named agents).
func shadows(info *dialect.Info, root string, ids map[string]string, a *importer.Found) string {
	agent, ok := ids[a.Name]
	if !ok || a.Generated != nil {
		return ""
	}
	if a.File == filepath.Join(root, filepath.FromSlash(info.Dir), filepath.FromSlash(a.Name)+info.Ext) {
		return fmt.Sprintf("not bn's, where bn writes agent %s: export leaves it alone until it is moved aside (or --force)", agent)
	}
	if a.Location != dialect.ProjectLocation && !info.Merges {
		return ""
	}
	return fmt.Sprintf("not bn's, and defines agent %s too: %s", agent, export.ShadowEffect(info))
}

// relativeToDir is a file's path in the directory it was found in.
func relativeToDir(dirs []dialect.SourceDir, file string) string {
	for _, d := range dirs {
		if rel, err := filepath.Rel(d.Path, file); err == nil && !strings.HasPrefix(rel, "..") {
			return rel
		}
	}
	return filepath.Base(file)
}

func printSources(opts *SourcesOptions, out sourcesOutput) {
	w := opts.F.IO.Out
	for _, v := range out.Tools {
		shadowed := 0
		for _, a := range v.Agents {
			if !a.Active {
				shadowed++
			}
		}
		fmt.Fprintf(w, "%s: %s, %d shadowed, %d invalid, %d deprecated\n", v.Tool, plural(out.Counts["tools"][v.Tool], "agent"), shadowed, len(v.Invalid), len(v.Deprecated))
		if opts.Trace {
			for _, d := range v.Dirs {
				state := "missing"
				if d.Exists {
					state = "read"
				}
				fmt.Fprintf(w, "  searched %-7s %-8s %s (%s)\n", d.Location, state, d.Path, d.Format)
			}
		}
		for _, a := range v.Agents {
			if a.Shadows != "" {
				fmt.Fprintf(w, "  %-8s %-24s %-7s %s  (%s)\n", "foreign", a.Name, a.Location, a.File, a.Shadows)
				continue
			}
			switch {
			case a.Active && a.Drift != "":
				fmt.Fprintf(w, "  %-8s %-24s %-7s %s  [%s]\n", "active", a.Name, a.Location, a.File, a.Drift)
			case a.Active:
				fmt.Fprintf(w, "  %-8s %-24s %-7s %s\n", "active", a.Name, a.Location, a.File)
			case v.Merged:
				fmt.Fprintf(w, "  %-8s %-24s %-7s %s  (merged under %s)\n", "merged", a.Name, a.Location, a.File, a.ShadowedBy)
			default:
				fmt.Fprintf(w, "  %-8s %-24s %-7s %s  (shadowed by %s)\n", "shadowed", a.Name, a.Location, a.File, a.ShadowedBy)
			}
		}
		for _, bad := range v.Invalid {
			fmt.Fprintf(w, "  invalid  %s: %s\n", bad.File, bad.Reason)
		}
		for _, dep := range v.Deprecated {
			fmt.Fprintf(w, "  skipped  %s (deprecated)\n", dep)
		}
	}
	fmt.Fprintf(w, "total: %d project, %d user\n", out.Counts["locations"]["project"], out.Counts["locations"]["user"])
	if tags := out.Counts["tags"]; len(tags) > 0 {
		var parts []string
		for _, t := range slices.Sorted(maps.Keys(tags)) {
			parts = append(parts, fmt.Sprintf("%s %d", t, tags[t]))
		}
		fmt.Fprintf(w, "tags: %s\n", strings.Join(parts, ", "))
	}
}
