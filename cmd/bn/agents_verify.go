package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/spf13/cobra"
)

type VerifyOptions struct {
	F         *Factory
	Targets   []string
	Agents    []string
	ClientDir string
}

// verifyBinary runs the clients: a binary of its own, so that the
// stand-in model server stays off every other command's start-up.
const verifyBinary = "bn-verify"

// verifyTargets are the tools whose clients verify runs, sorted: found
// when verify's command is built, not as bn starts, since it reads every
// dialect.
func verifyTargets() []string {
	out := dialect.All().Verifiable()
	slices.Sort(out)
	return out
}

func NewCmdVerify(f *Factory, runF func(*VerifyOptions) error) *cobra.Command {
	opts := &VerifyOptions{F: f}
	targets := verifyTargets()
	cmd := &cobra.Command{
		Use:   "verify",
		Short: "Ask the tools' own clients what they grant each exported agent",
		Long: "For each tool whose client is installed (Claude Code, the Copilot CLI, OpenCode: on PATH, or\n" +
			"in --client-dir), render each agent as export would, run the client offline as that agent\n" +
			"against a stand-in for its model API on 127.0.0.1, and compare the tools it offers (and\n" +
			"whether it runs a shell command the agent may not run) with the definition. Nothing is\n" +
			"written in the repository or your home; no API key is used.\n\n" +
			"Exit status: 0 when every agent verified means what its definition says, 1 when one\n" +
			"differs, 3 when nothing was verified (no client found).",
		Example: "  bn config agents verify -H\n" +
			"  bn config agents verify --target claude --agent reviewer -H\n" +
			"  bn config agents verify --client-dir ./node_modules/.bin",
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			for _, t := range opts.Targets {
				for p := range strings.SplitSeq(t, ",") {
					if !slices.Contains(targets, p) {
						return usagef("--target %q: verify runs %s%s", p, strings.Join(targets, ", "), suggest(p, targets))
					}
				}
			}
			if runF != nil {
				return runF(opts)
			}
			return verifyRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&opts.Targets, "target", nil, "verify only `TARGET`: "+strings.Join(targets, ", ")+" (repeatable)")
	fl.StringArrayVar(&opts.Agents, "agent", nil, "verify only agent `NAME` (repeatable)")
	fl.StringVar(&opts.ClientDir, "client-dir", "", "find the clients in `DIR` (or DIR/node_modules/.bin) instead of on PATH")
	cmd.RegisterFlagCompletionFunc("target", listCompletion(targets...))
	cmd.RegisterFlagCompletionFunc("agent", completeAgentFlag(f))
	return cmd
}

// verifyRun hands over to bn-verify for the repository bn resolved, and
// passes its exit status on. On Unix bn becomes bn-verify, so a signal
// meant for bn (or bn's killing) is bn-verify's, which then stops the
// clients it runs, each with the processes it started.
func verifyRun(opts *VerifyOptions) error {
	p, err := opts.F.Paths()
	if err != nil {
		return err
	}
	bin, err := findBeside(verifyBinary)
	if err != nil {
		return err
	}
	args := []string{"--repo", p.RepoRoot}
	for _, t := range opts.Targets {
		args = append(args, "--target", t)
	}
	for _, a := range opts.Agents {
		args = append(args, "--agent", a)
	}
	if opts.ClientDir != "" {
		dir := opts.ClientDir
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(opts.F.Cwd, dir)
		}
		args = append(args, "--client-dir", dir)
	}
	if opts.F.Human {
		args = append(args, "-H")
	}
	return handOff(opts.F, bin, append([]string{verifyBinary}, args...))
}

// findBeside looks for one of bn's own binaries beside the bn executable,
// then on PATH.
func findBeside(name string) (string, error) {
	if self, err := os.Executable(); err == nil {
		// Windows names programs by their suffix and has no execute bits.
		windows := runtime.GOOS == "windows"
		if windows {
			name += ".exe"
		}
		candidate := filepath.Join(filepath.Dir(self), name)
		if fi, err := os.Stat(candidate); err == nil && fi.Mode().IsRegular() && (windows || fi.Mode()&0o111 != 0) {
			return candidate, nil
		}
	}
	if path, err := exec.LookPath(name); err == nil {
		return path, nil
	}
	return "", errors.New(name + " is not beside bn nor on PATH; install bn's binaries with `make install` (or go install ./cmd/...)")
}
