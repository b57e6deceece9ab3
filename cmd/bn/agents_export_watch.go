package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/export"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/binnacle-dev/bn/watch"
)

// watchRun is one export of export --watch, as it prints it: one line.
type watchRun struct {
	Time    string            `json:"time"`
	Written []string          `json:"written"`
	Held    []export.Widening `json:"held"`
	// Skipped are the agents a target could not be written for
	// (TARGET: AGENT: why); Losses counts the differences in meaning
	// export reported: a watch passes neither over in silence.
	Skipped []string `json:"skipped"`
	Losses  int      `json:"losses"`
	Error   string   `json:"error,omitempty"`
	Command string   `json:"command,omitempty"` // writes what is held, deliberately
	reports []*export.TargetReport
}

// exportWatch exports, then exports again each time a file of the layers
// it reads changes, until SIGINT or SIGTERM. An export under way when the
// signal comes finishes, or, if it has not started writing, is dropped:
// either way no file is left half written.
func exportWatch(opts *ExportOptions) error {
	p, err := opts.F.Paths()
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	scope := exportScope(opts)
	var sources []string // the shared sources' directories, from the last read
	roots := func() []string {
		var dirs []string
		for _, l := range p.Layers(scope) {
			if l.Dir != "" {
				dirs = append(dirs, l.Dir)
			}
		}
		return append(dirs, sources...)
	}
	return watch.Run(ctx, roots, watch.Quiet, func(ctx context.Context) {
		run := reexport(ctx, opts, p, scope, &sources)
		printWatchRun(opts, run)
	})
}

// reexport reads the layers afresh and exports, holding back each file
// that would widen an agent under enforcement.
func reexport(ctx context.Context, opts *ExportOptions, p resolver.Paths, scope resolver.Scope, sources *[]string) watchRun {
	run := watchRun{Time: time.Now().Format(time.TimeOnly), Written: []string{}, Held: []export.Widening{}, Skipped: []string{}}
	fail := func(err error) watchRun {
		run.Error = err.Error()
		return run
	}
	loaded := p.Load(scope, opts.F.Decoder())
	*sources = (*sources)[:0]
	for _, l := range loaded.Layers {
		if l.IsSource() {
			*sources = append(*sources, l.Dir)
		}
	}
	set, err := opts.F.judged(loaded, nil)
	if err != nil {
		return fail(err)
	}
	place := p.RepoRoot
	if opts.Out != "" {
		place = opts.Out
	}
	unlock, err := opts.F.lock(place)
	if err != nil {
		return fail(err)
	}
	defer unlock()
	eopts, err := exportOptions(opts, p)
	if err != nil {
		return fail(err)
	}
	res, err := export.Plan(set, eopts)
	if err != nil {
		return fail(err)
	}
	held, err := res.Widenings()
	if err != nil {
		return fail(err)
	}
	res.Hold(held)
	displayPaths(p.RepoRoot, res)
	for i := range held {
		held[i].Path = displayPath(p.RepoRoot, held[i].Path)
	}
	run.Held = held
	if len(held) > 0 {
		run.Command = heldCommand(opts, held)
	}
	if opts.Strict && res.Differences() > 0 {
		return fail(strictError(res))
	}
	if ctx.Err() != nil {
		return fail(fmt.Errorf("interrupted before writing: nothing written"))
	}
	if err := res.Apply(); err != nil {
		return fail(err)
	}
	for _, rep := range res.Reports {
		for _, f := range rep.Files {
			switch f.Action {
			case emit.Create, emit.Update, emit.Overwrite, emit.Remove:
				run.Written = append(run.Written, f.Path)
			}
		}
		for _, sk := range rep.Skipped {
			run.Skipped = append(run.Skipped, rep.Target+": "+sk.Agent+": "+sk.Reason)
		}
		run.Losses += rep.Counts.Losses
	}
	return run
}

// heldCommand is the plain export that writes the held files, deliberately.
func heldCommand(opts *ExportOptions, held []export.Widening) string {
	var targets []string
	for _, w := range held {
		if !slices.Contains(targets, w.Target) {
			targets = append(targets, w.Target)
		}
	}
	c := export.Command(strings.Join(targets, ","), opts.Prefix, opts.Out, opts.AllLayers)
	if opts.Force {
		c += " --force"
	}
	if opts.Prune {
		c += " --prune"
	}
	return c
}

// printWatchRun prints one export as one line (JSON, or text with -H), and
// with -H each held file on a line of its own.
func printWatchRun(opts *ExportOptions, run watchRun) {
	w := opts.F.IO.Out
	if !opts.F.Human {
		data, _ := json.Marshal(run)
		fmt.Fprintln(w, string(data))
		return
	}
	var also string
	if n := len(run.Skipped); n > 0 {
		also += fmt.Sprintf(", %d skipped", n)
	}
	if run.Losses > 0 {
		also += fmt.Sprintf(", %s reported (export without --watch lists them)", plural(run.Losses, "difference"))
	}
	switch {
	case run.Error != "":
		fmt.Fprintf(w, "%s export failed: %s\n", run.Time, oneLine(run.Error))
	case len(run.Written) == 0 && len(run.Held) == 0:
		fmt.Fprintf(w, "%s export: up to date%s\n", run.Time, also)
	case len(run.Held) == 0:
		fmt.Fprintf(w, "%s export: %s written%s\n", run.Time, plural(len(run.Written), "file"), also)
	default:
		fmt.Fprintf(w, "%s export: %s written, %d held%s\n", run.Time, plural(len(run.Written), "file"), len(run.Held), also)
	}
	for _, sk := range run.Skipped {
		fmt.Fprintf(w, "%s skipped: %s\n", run.Time, sk)
	}
	for _, h := range run.Held {
		fmt.Fprintf(w, "%s held: %s: %s (%s) would widen an agent whose limits bn's hook enforces: %s; to write it, run %s\n",
			run.Time, h.Target, h.Agent, h.Path, strings.Join(h.Grants, ", "), run.Command)
	}
}

// oneLine joins an error's lines into one line: a space after a line
// that ends in a colon (it introduces the next), "; " after any other.
func oneLine(s string) string {
	var b strings.Builder
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l == "" {
			continue
		}
		switch {
		case b.Len() == 0:
		case strings.HasSuffix(b.String(), ":"):
			b.WriteString(" ")
		default:
			b.WriteString("; ")
		}
		b.WriteString(l)
	}
	return b.String()
}
