package main

import (
	"fmt"

	"github.com/binnacle-dev/bn/team"
	"github.com/spf13/cobra"
)

type FetchOptions struct {
	F     *Factory
	Check bool
}

func NewCmdFetch(f *Factory, runF func(*FetchOptions) error) *cobra.Command {
	opts := &FetchOptions{F: f}
	cmd := &cobra.Command{
		Use:   "fetch",
		Short: "Pin the shared sources config.kdl names: resolve each ref with git, cache the files, write sources.lock",
		Long: `Fetch resolves the ref of every source the system and project config.kdl name to a commit,
stores the files under the source's path in bn's cache ($BN_CACHE_DIR, else $XDG_CACHE_HOME/bn)
and records URL, ref, commit and a hash of the files in sources.lock beside the config.kdl.
Commit the lock: every other command reads the cache, verifies the hash and never runs git.
A source that fails leaves the cache and every lock as they were.`,
		Example: `  bn config agents fetch -H
  bn config agents fetch --check      # exit 1 when a ref has moved on (CI)`,
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			if runF != nil {
				return runF(opts)
			}
			return fetchRun(opts)
		},
	}
	cmd.Flags().BoolVar(&opts.Check, "check", false, "write nothing; exit 1 when a source's ref names another commit than the lock")
	return cmd
}

type fetchOutput struct {
	Sources []team.Fetched `json:"sources"`
	Written bool           `json:"written"`
}

func fetchRun(opts *FetchOptions) error {
	p, err := opts.F.Paths()
	if err != nil {
		return err
	}
	declared, err := team.Declarations([]string{p.SystemDir, p.ProjectDir}, opts.F.Decoder())
	if err != nil {
		return err
	}
	if len(declared) == 0 {
		return fmt.Errorf("no config.kdl names a source; add one, like source team { url \"…\"; ref v1; path agents }")
	}
	res, err := team.Fetch(team.FetchOptions{Sources: declared, CacheDir: p.CacheDir, Check: opts.Check})
	if err != nil {
		return err
	}
	out := fetchOutput{Sources: res, Written: !opts.Check}
	stale := 0
	for i := range out.Sources {
		out.Sources[i].Lock = displayPath(p.RepoRoot, out.Sources[i].Lock)
		if out.Sources[i].Action == "out of date" {
			stale++
		}
	}
	if !opts.F.Human {
		if err := writeJSON(opts.F.IO.Out, out); err != nil {
			return err
		}
	} else {
		for _, s := range out.Sources {
			line := fmt.Sprintf("%-11s %s  %s at %s: %s", s.Action, s.Name, s.URL, s.Ref, team.Short(s.Commit))
			if s.Was != "" && s.Was != s.Commit {
				line += " (was " + team.Short(s.Was) + ")"
			}
			fmt.Fprintln(opts.F.IO.Out, line)
		}
		if opts.Check && stale > 0 {
			fmt.Fprintf(opts.F.IO.Out, "%s out of date; run bn config agents fetch\n", plural(stale, "source"))
		}
	}
	if opts.Check && stale > 0 {
		return exitError{1}
	}
	return nil
}
