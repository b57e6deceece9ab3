package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/export"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/importer"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/binnacle-dev/bn/tally"
	"github.com/spf13/cobra"
)

type ExportOptions struct {
	F         *Factory
	Targets   []string
	Out       string
	Check     bool
	DryRun    bool
	Force     bool
	Prune     bool
	Strict    bool
	Trust     bool
	Prefix    string
	Agents    []string
	AllLayers bool
	Watch     bool
	Verbose   bool
}

func NewCmdExport(f *Factory, runF func(*ExportOptions) error) *cobra.Command {
	opts := &ExportOptions{F: f}
	names := f.Registry().Exporters().Names()
	cmd := &cobra.Command{
		Use:   "export --target TARGET",
		Short: "Write every resolved agent in other tools' formats",
		Long: "Write each resolved agent as the target tools' agent files (" + strings.Join(names, ", ") + "),\n" +
			"and report every way a file differs from the definition: what the tool cannot hold\n" +
			"(dropped), where it grants more (widened), limits the agent can walk around with another\n" +
			"tool it has (advisory), names changed, built-in agents replaced.\n" +
			"An agent a tool would ignore or never run is skipped with the reason; every other file\n" +
			"is written. Conflicts with files bn did not write refuse the export before anything is\n" +
			"written; the write itself is one unit across every target. With --strict any skip or\n" +
			"loss is an error and nothing is written.\n\n" +
			"Files are written only when they change and carry a generated-by-bn marker naming the\n" +
			"command that regenerates them; files no longer wanted are removed only with --prune.\n" +
			"Definitions come from the built-in and project layers (and the shared sources the project's\n" +
			"config.kdl names), so private layers never reach committed files; --all-layers includes\n" +
			"the system and session layers.",
		Example: "  bn config agents export --target claude -H\n  bn config agents export --target all --check\n" +
			"  bn config agents export --target copilot,opencode --strict\n  bn config agents export --target gemini,codex --trust -H",
		Args: exactArgs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			targets, err := expandTargets(f.Registry(), opts.Targets)
			if err != nil {
				return err
			}
			opts.Targets = targets
			if opts.Out != "" && len(targets) > 1 {
				return usagef("--out takes one --target; each tool has its own directory")
			}
			if opts.Check && opts.DryRun {
				return usagef("--check and --dry-run cannot be used together")
			}
			if opts.Watch && (opts.Check || opts.DryRun) {
				return usagef("--watch writes each change; it cannot be used with --check or --dry-run")
			}
			if runF != nil {
				return runF(opts)
			}
			if opts.Watch {
				return exportWatch(opts)
			}
			return exportRun(opts)
		},
	}
	fl := cmd.Flags()
	fl.StringSliceVar(&opts.Targets, "target", nil, "`TARGET` tool: "+strings.Join(names, ", ")+", or all (repeatable, or comma-separated)")
	fl.StringVar(&opts.Out, "out", "", "write into `DIR` instead of the target's directory in the repository, nothing outside it (Mistral Vibe and a Claude Code plugin: their tree inside DIR)")
	fl.BoolVar(&opts.Check, "check", false, "write nothing; exit 1 if any file is out of date or an agent is skipped (for CI)")
	fl.BoolVar(&opts.DryRun, "dry-run", false, "write nothing; print what would change")
	fl.BoolVar(&opts.Force, "force", false, "overwrite files bn did not generate")
	fl.BoolVar(&opts.Prune, "prune", false, "remove generated files of agents that no longer exist")
	fl.BoolVar(&opts.Strict, "strict", false, "refuse, writing nothing, when any agent is skipped or any file differs from its definition")
	fl.BoolVar(&opts.Trust, "trust", false, "also mark this repository trusted for the Codex and Gemini CLIs, which load project agents only then, and for Claude Code and Qwen Code when bn wrote hooks, which they run only then")
	fl.StringVar(&opts.Prefix, "prefix", "", "prefix every agent's name with `P` (for example bn-)")
	fl.StringArrayVar(&opts.Agents, "agent", nil, "export only agent `NAME` (repeatable)")
	fl.BoolVar(&opts.AllLayers, "all-layers", false, "include the system and session layers")
	fl.BoolVarP(&opts.Verbose, "verbose", "v", false, "with -H, list every file, skip and difference even when there are many (without it, a long report is summed up)")
	fl.BoolVar(&opts.Watch, "watch", false, "export again whenever a layer or prompt file changes, until interrupted; a change that would widen an agent whose file carries bn's hook is reported, not written")
	cmd.MarkFlagRequired("target")
	cmd.RegisterFlagCompletionFunc("target", listCompletion(append(names, "all")...))
	cmd.RegisterFlagCompletionFunc("agent", completeAgentFlag(f))
	return cmd
}

// expandTargets checks --target values; "all" means every target.
func expandTargets(reg dialect.Registry, values []string) ([]string, error) {
	names := reg.Exporters().Names()
	var out []string
	for _, v := range values {
		list := []string{v}
		if v == "all" {
			list = names
		} else if !slices.Contains(names, v) {
			return nil, usagef("--target %q: use one of %s, or all%s", v, strings.Join(names, ", "), suggest(v, append(names, "all")))
		}
		for _, n := range list {
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out, nil
}

func exportRun(opts *ExportOptions) error {
	p, err := opts.F.Paths()
	if err != nil {
		return err
	}
	set, err := opts.F.Agents(exportScope(opts))
	if err != nil {
		return err
	}
	if !opts.Check && !opts.DryRun {
		// Exports into one repository run one at a time, so that what
		// each plans from the files on disk is what it replaces.
		place := p.RepoRoot
		if opts.Out != "" {
			place = opts.Out
		}
		unlock, err := opts.F.lock(place)
		if err != nil {
			return err
		}
		defer unlock()
	}
	eopts, err := exportOptions(opts, p)
	if err != nil {
		return err
	}
	res, err := export.Plan(set, eopts)
	if err != nil {
		return err
	}
	displayPaths(p.RepoRoot, res)
	var failure error
	var trusted []string // files --trust edited, outside the repository
	var home string
	switch {
	case opts.Strict && res.Differences() > 0:
		failure = strictError(res)
	case opts.Check || opts.DryRun:
	default:
		if err := res.Apply(); err != nil {
			failure = err
			break
		}
		if opts.Trust {
			if home, err = opts.F.homeDir(); err != nil {
				return err
			}
			if trusted, err = res.Trust(opts.F.Registry(), p.RepoRoot, home); err != nil {
				return err
			}
		}
	}
	dirs := []string{}
	if failure == nil && !opts.Check && !opts.DryRun {
		if dirs, err = commitDirs(res, p.RepoRoot, p.ProjectDir, eopts.Record); err != nil {
			return err
		}
	}
	if err := printExport(opts, res, exportWhere{Outside: append([]string{}, trusted...), Commit: dirs}); err != nil {
		return err
	}
	if opts.F.Human && failure == nil && !opts.Check && !opts.DryRun {
		for _, t := range trusted {
			fmt.Fprintf(opts.F.IO.Out, "%-9s %s (outside the repository, for --trust)\n", "edited", homePath(home, t))
		}
		if len(dirs) > 0 {
			fmt.Fprintf(opts.F.IO.Out, "commit them with the definitions: git add %s\n", strings.Join(dirs, " "))
		}
	}
	if failure != nil {
		return failure
	}
	if bad := res.OverLimit(); len(bad) > 0 {
		return fmt.Errorf("%s not exported, over bn's limits: %s (the reasons are above); fix each, then export again (bn config agents validate lists every problem)",
			plural(len(bad), "agent"), strings.Join(bad, ", "))
	}
	if skips, _, _ := res.Refused(); opts.Check && skips > 0 {
		return skipError(res, skips)
	} else if opts.Check && res.OutOfDate() > 0 {
		return exitError{1}
	}
	return nil
}

// skipError is --check's failure when export cannot write an agent: it
// leads with the first skip's reason and fix, which a long report would
// otherwise bury among the tools' lines.
func skipError(res *export.Result, skips int) error {
	var first string
	for _, rep := range res.Reports {
		if len(rep.Skipped) > 0 {
			var b strings.Builder
			printSkip(&b, rep.Target, rep.Skipped[0])
			first = strings.TrimSuffix(b.String(), "\n")
			break
		}
	}
	if skips > 1 {
		first += fmt.Sprintf(" (and %d more skipped, each on its line above)", skips-1)
	}
	return fmt.Errorf("%s; export cannot write it, so the check fails until the definition changes", first)
}

// strictError is --strict's refusal of what res reports.
func strictError(res *export.Result) error {
	skips, losses, stale := res.Refused()
	var what []string
	for _, c := range []struct {
		n    int
		noun string
	}{{skips, "skip"}, {losses, "difference"}, {stale, "stale accept"}} {
		if c.n > 0 {
			what = append(what, plural(c.n, c.noun))
		}
	}
	if n := len(what); n > 1 {
		what = append(what[:n-2], what[n-2]+" and "+what[n-1])
	}
	return fmt.Errorf("nothing written: --strict refuses the %s reported; change the definitions, "+
		"accept a reviewed difference in its agent (accept \"FINGERPRINT\", as printed after it), or export without --strict to write them with these differences",
		strings.Join(what, ", "))
}

// exportScope is the layers an export reads.
func exportScope(opts *ExportOptions) resolver.Scope {
	if opts.AllLayers {
		return resolver.AllLayers
	}
	return resolver.Committed
}

func exportOptions(opts *ExportOptions, p resolver.Paths) (export.Options, error) {
	record, err := importer.ReadRecord(filepath.Join(p.ProjectDir, importer.RecordFile))
	if err != nil {
		return export.Options{}, err
	}
	eopts := export.Options{Root: p.RepoRoot, Agents: opts.Agents, Prefix: opts.Prefix, Force: opts.Force, Prune: opts.Prune, AllLayers: opts.AllLayers,
		Record: record, Registry: opts.F.Registry()}
	for _, t := range opts.Targets {
		d, _ := opts.F.Registry().Lookup(t)
		eopts.Targets = append(eopts.Targets, d)
	}
	if opts.Out != "" {
		eopts.Out = opts.Out
		if !filepath.IsAbs(eopts.Out) {
			eopts.Out = filepath.Join(opts.F.Cwd, eopts.Out)
		}
	}
	return eopts, nil
}

// displayPaths shows a report's paths inside the repository relative to it.
func displayPaths(root string, res *export.Result) {
	res.Display = func(s string) string { return displayPath(root, s) }
	for _, rep := range res.Reports {
		rep.Dir = displayPath(root, rep.Dir)
		for i := range rep.Files {
			rep.Files[i].Path = displayPath(root, rep.Files[i].Path)
		}
		for i := range rep.Shadowing {
			rep.Shadowing[i].File = displayPath(root, rep.Shadowing[i].File)
		}
		for i := range rep.Copies {
			rep.Copies[i].Dir = displayPath(root, rep.Copies[i].Dir)
		}
	}
}

// exportWhere is what an export's JSON says beside the reports: the files
// it edited outside the repository (--trust), and the directories to
// commit (commitDirs).
type exportWhere struct {
	Outside []string `json:"outside_repository"`
	Commit  []string `json:"commit"`
}

// printExport prints one target's report as an object, or several as
// {"exports": [...]}, with where's keys beside the report's; with -H, the files, a summary per target, and every
// skip and difference on stderr, or, when that would be longer than
// summaryLines without --verbose or --strict, a summary (printSummary).
func printExport(opts *ExportOptions, res *export.Result, where exportWhere) error {
	if !opts.F.Human {
		if len(res.Reports) == 1 {
			return writeJSON(opts.F.IO.Out, struct {
				*export.TargetReport
				exportWhere
			}{res.Reports[0], where})
		}
		return writeJSON(opts.F.IO.Out, struct {
			Exports []*export.TargetReport `json:"exports"`
			exportWhere
		}{res.Reports, where})
	}
	// --strict refuses each difference: it lists them all.
	full := opts.Verbose || opts.Strict || reportLines(res) <= summaryLines
	// The summary's examples fill what the lines above them leave of
	// summaryLines, however many targets there are.
	lines := &lineCount{}
	w, e := io.MultiWriter(opts.F.IO.Out, lines), io.MultiWriter(opts.F.IO.ErrOut, lines)
	if len(res.LeftOut) > 0 {
		fmt.Fprintf(e, "note: built-in agents %s left out: binnacle does not track this repository, and their prompts run its commands; "+
			"to export them, add export { built-in-agents #true } to .binnacle/agents/config.kdl\n", strings.Join(res.LeftOut, ", "))
	}
	if len(res.LayersLeftOut) > 0 {
		var which []string
		for _, a := range res.LayersLeftOut {
			which = append(which, fmt.Sprintf("%s (%s layer)", a.Agent, a.Layer))
		}
		fmt.Fprintf(e, "note: left out, from a layer export does not read: %s; export reads the built-in and project layers, so that a private layer never reaches committed files: "+
			"pass --all-layers to export the system and session layers' agents too, or copy each into the project (bn config agents init --layer project NAME)\n", strings.Join(which, ", "))
	}
	var unverified []string
	for _, rep := range res.Reports {
		// A refused export lists no file: it made none of them, and its
		// line below says nothing was written.
		switch {
		case !rep.Written && !opts.Check && !opts.DryRun:
		case full:
			for _, f := range rep.Files {
				fmt.Fprintf(w, "%-9s %s\n", f.Action, f.Path)
			}
		default:
			printFileGroups(w, rep.Files)
		}
		for _, s := range rep.Shadowing {
			fix := "move it out of the tool's directories"
			if s.Original {
				fix = "an original import recorded: bn config agents import --move-originals moves it aside"
			}
			fmt.Fprintf(w, "%-9s %s: agent %s too, and %s; %s\n", "shadowing", s.File, s.Agent, s.Effect, fix)
		}
		printTargetLine(w, opts, rep)
		if rep.Setup != "" && (!opts.Trust || !trusts(opts.F.Registry(), rep.Target)) {
			fmt.Fprintf(w, "%s: note: %s\n", rep.Target, rep.Setup)
		}
		if rep.Verified == dialect.NotVerified {
			if !full && len(res.Reports) > 1 {
				unverified = append(unverified, rep.Target)
				continue
			}
			fmt.Fprintf(w, "%s: note: %s: bn writes these files from the tool's documentation and sources\n", rep.Target, dialect.NotVerified)
		}
		if full {
			for _, s := range rep.Skipped {
				printSkip(e, rep.Target, s)
			}
			for _, l := range rep.Losses {
				fmt.Fprintf(e, "%s: %s: %s %s: %s%s\n", rep.Target, l.Agent, l.Field, l.Kind, l.Detail, fingerprintNote(l))
			}
		}
		printStaleAccepts(e, rep)
	}
	if !full {
		if len(unverified) > 0 {
			fmt.Fprintf(w, "note: %s: %s: bn writes their files from the tools' documentation and sources\n", dialect.NotVerified, strings.Join(unverified, ", "))
		}
		// Two lines stay for the summary's last line and the commit hint.
		printSummary(e, res, max(summaryGroupsLeast, summaryLines-lines.n-2))
	}
	return nil
}

// lineCount counts the lines written through it.
type lineCount struct{ n int }

func (c *lineCount) Write(p []byte) (int, error) {
	c.n += bytes.Count(p, []byte{'\n'})
	return len(p), nil
}

// summaryLines is the longest report -H prints in full without
// --verbose: 150 agents exported to every tool make thousands of lines,
// which nobody reads on a terminal.
const summaryLines = 60

// reportLines is how many lines -H --verbose prints for res.
func reportLines(res *export.Result) int {
	n := 0
	for _, rep := range res.Reports {
		n += 2 + len(rep.Files) + len(rep.Shadowing) + len(rep.Skipped) + len(rep.Losses)
	}
	return n
}

func printTargetLine(w io.Writer, opts *ExportOptions, rep *export.TargetReport) {
	c := rep.Counts
	state := "written"
	switch {
	case opts.Check && len(rep.Shadowing) > 0:
		state = fmt.Sprintf("%s in the way (move them aside, above)", plural(len(rep.Shadowing), "file"))
		if n := rep.OutOfDate - len(rep.Shadowing); n > 0 {
			state = fmt.Sprintf("%d file(s) out of date, and %s", n, state)
		}
	case opts.Check && rep.OutOfDate > 0:
		state = fmt.Sprintf("%d file(s) out of date; run %s", rep.OutOfDate, export.Command(rep.Target, opts.Prefix, opts.Out, opts.AllLayers))
		if c.Skipped > 0 {
			state += fmt.Sprintf(", which cannot write %s (skipped, below)", plural(c.Skipped, "agent"))
		}
	case opts.Check && c.Skipped > 0:
		// The tool lacks an agent the definitions have: not up to date,
		// and no export makes it so until the agent changes.
		state = fmt.Sprintf("not up to date: export cannot write %s (skipped, below); fix each as its line says", plural(c.Skipped, "agent"))
	case opts.Check:
		state = "up to date"
	case opts.DryRun:
		state = "dry run, nothing written"
	case !rep.Written:
		state = "nothing written"
	case rep.Unchanged():
		// Every file already held what the export writes.
		state = "unchanged"
	}
	if len(rep.Copies) > 0 {
		// On the tool's line, which a summary keeps.
		var dirs []string
		tools := []string{rep.Target}
		for _, c := range rep.Copies {
			dirs = append(dirs, fmt.Sprintf("%s (%s's)", c.Dir, c.Target))
			tools = append(tools, c.Target)
		}
		state += fmt.Sprintf("; %s also reads %s, which this export writes, so it finds each agent %d times, each copy written for its own tool (which it loads is not documented): "+
			"to give it one, export only one of %s and %s", rep.Target, strings.Join(dirs, " and "), len(tools), strings.Join(tools[:len(tools)-1], ", "), tools[len(tools)-1])
	}
	if c.Skipped > 0 && !opts.Check && !opts.DryRun && rep.Written {
		// What --check will say of it.
		state += fmt.Sprintf(", but %s skipped (below): export --check fails until each is fixed", plural(c.Skipped, "agent"))
	}
	enforced := ""
	if c.Enforced > 0 {
		enforced = ", " + plural(c.Enforced, "limit") + " enforced by hooks"
	}
	advisory := ""
	if c.Advisory > 0 {
		advisory = fmt.Sprintf(", %d advisory", c.Advisory)
	}
	if c.Accepted > 0 {
		advisory += fmt.Sprintf(", %d accepted", c.Accepted)
	}
	fmt.Fprintf(w, "%s: %s (%d overriding a built-in, %d renamed), %d skipped, %s (%d widened%s)%s: %s\n",
		rep.Target, plural(c.Agents, "agent"), c.Overridden, c.Renamed, c.Skipped, plural(c.Losses, "difference"), c.Widened, advisory, enforced, state)
}

// fingerprintNote is what -H prints after a difference: the fingerprint
// an accept node copies, and whether one does.
func fingerprintNote(l export.AgentLoss) string {
	switch {
	case l.Accepted:
		return " [" + l.Fingerprint + ", accepted]"
	case l.Fingerprint != "":
		return " [" + l.Fingerprint + "]"
	}
	return ""
}

// printStaleAccepts warns of accept nodes that accept nothing.
func printStaleAccepts(e io.Writer, rep *export.TargetReport) {
	for _, s := range rep.StaleAccepts {
		fmt.Fprintf(e, "%s: warning: %s: agent %s: accept %q %s\n", rep.Target, s.Where, s.Agent, s.Fingerprint, s.Reason)
	}
}

func printSkip(e io.Writer, target string, s export.Skip) {
	fmt.Fprintf(e, "%s: %s: skipped: %s", target, s.Agent, s.Reason)
	if s.Fix != "" {
		fmt.Fprintf(e, " (%s)", s.Fix)
	}
	fmt.Fprintln(e)
}

// printFileGroups prints a target's files as a line per action and
// directory ("create    158 files in .claude/agents"); a group of one
// names its file, as --verbose does.
func printFileGroups(w io.Writer, files []emit.PlannedFile) {
	groups := tally.Of(len(files), func(i int) (string, string) {
		return string(files[i].Action) + "\x00" + path.Dir(files[i].Path), files[i].Path
	})
	for _, g := range groups {
		action, dir, _ := strings.Cut(g.Text, "\x00")
		if len(g.Items) == 1 {
			fmt.Fprintf(w, "%-9s %s\n", action, g.Items[0])
			continue
		}
		fmt.Fprintf(w, "%-9s %d files in %s/\n", action, len(g.Items), dir)
	}
}

// Of a long report, summaryGroups kinds of difference are shown, and
// summarySkips skips; a kind shows the first summaryAgents agents it
// concerns.
const (
	summaryGroups      = 12 // an import's kinds of note
	summaryGroupsLeast = 3  // an export's kinds of difference, however long the rest
	summarySkips       = 5
	summaryAgents      = 3
)

// printSummary prints the first skips, then the most frequent kinds of
// difference (a field and detail), each with how many agents it concerns:
// each target's most frequent first, then each one's second, and so on,
// so that one tool's many does not hide the others', within budget
// lines. Last, what was left out and how to see it.
func printSummary(e io.Writer, res *export.Result, budget int) {
	skipLines := &lineCount{}
	se := io.MultiWriter(e, skipLines)
	skips, shown := 0, 0
	for _, rep := range res.Reports {
		skips += len(rep.Skipped)
		groups := tally.Of(len(rep.Skipped), func(j int) (string, string) {
			s := rep.Skipped[j]
			if s.Fix != "" {
				return s.Reason + " (" + s.Fix + ")", s.Agent
			}
			return s.Reason, s.Agent
		})
		for _, g := range groups {
			if shown < summarySkips {
				fmt.Fprintf(se, "%s: %s\n", rep.Target, groupText("skipped: "+g.Text, g.Items, rep.Counts.Agents+rep.Counts.Skipped))
				shown += len(g.Items)
			}
		}
	}
	if skips > shown {
		fmt.Fprintf(se, "… and %d more skipped\n", skips-shown)
	}
	kinds := make([][]tally.Group, len(res.Reports))
	losses, total := 0, 0
	for i, rep := range res.Reports {
		kinds[i] = tally.Of(len(rep.Losses), func(j int) (string, string) {
			l := rep.Losses[j]
			return fmt.Sprintf("%s %s: %s", l.Field, l.Kind, l.Detail), l.Agent
		})
		losses += len(rep.Losses)
		total += len(kinds[i])
	}
	picks := make([]int, len(res.Reports))
	budget = max(summaryGroupsLeast, budget-skipLines.n)
	for more := true; budget > 0 && more; {
		more = false
		for i := range kinds {
			if picks[i] < len(kinds[i]) && budget > 0 {
				picks[i]++
				budget--
				more = true
			}
		}
	}
	for i, rep := range res.Reports {
		for _, g := range kinds[i][:picks[i]] {
			fmt.Fprintf(e, "%s: %s\n", rep.Target, groupText(g.Text, g.Items, rep.Counts.Agents))
		}
		total -= picks[i]
	}
	if total > 0 || skips > shown {
		fmt.Fprintf(e, "… %s of difference; %s and %s in all: add --verbose to list each, or --json\n",
			plural(total, "more kind"), plural(losses, "difference"), plural(skips, "skip"))
	}
}

// groupText is a message with the agents it concerns: one is named before
// it, as --verbose does, more are counted after it with the first few.
func groupText(text string, agents []string, of int) string {
	switch {
	case len(agents) == 1:
		return agents[0] + ": " + text
	case len(agents) >= of:
		return fmt.Sprintf("%s (all %d agents)", text, len(agents))
	}
	some := strings.Join(agents[:min(len(agents), summaryAgents)], ", ")
	if len(agents) > summaryAgents {
		some += ", …"
	}
	return fmt.Sprintf("%s (%d agents: %s)", text, len(agents), some)
}

// commitDirs are the directories inside the repository (root) that hold
// what the export wrote, or removed, with the project layer's (project,
// when it exists), and, when import moved originals aside, where they
// were (the move takes them out of a tool's directory: a clone without
// that change would still load them) and where they are now: the tools
// read the files from the commit, so all of them belong in it.
// Directories within another listed are left out. The record is a
// committed file anyone may edit: ReadRecord holds a moved original's
// file to a plain relative path, and its directories are probed only
// inside the repository, through no symlink that leads out.
func commitDirs(res *export.Result, root, project string, record importer.Record) ([]string, error) {
	dirs := []string{}
	if files.Within(root, project) && files.Exists(project) {
		dirs = append(dirs, displayPath(root, project))
	}
	repo, err := files.OpenDir(root)
	if err != nil {
		return nil, err
	}
	for _, o := range record.Originals {
		if o.Moved == "" {
			continue
		}
		// Its directory, or the nearest one still there: git add
		// takes the removal from it.
		d := path.Dir(o.File)
		for d != "." {
			p, err := repo.Join(d)
			var link *files.LinkOutError
			if errors.As(err, &link) {
				// Say what is missing: a directory where the link is.
				dir, out := path.Dir(o.File), displayPath(root, link.Link)
				what := "the directory " + out
				if out != dir {
					what += ", with " + dir + " in it,"
				}
				return nil, fmt.Errorf("the agents are exported, but %s names agent %s's original %s, moved aside from %s, which bn does not look into: %s is a symlink that leads out of the repository (or nowhere); put %s back in the link's place, so that the commit takes the original's removal, or remove that entry",
					importer.RecordFile, o.Agent, o.File, dir, out, what)
			}
			if err != nil {
				return nil, fmt.Errorf("the agents are exported, but %s names agent %s's original %s, moved aside from a directory bn does not look into: %w, or remove that entry",
					importer.RecordFile, o.Agent, o.File, err)
			}
			if files.Exists(p) {
				break
			}
			d = path.Dir(d)
		}
		for _, p := range []string{d, importer.OriginalsDir} {
			if p != "." && !slices.Contains(dirs, p) {
				dirs = append(dirs, p)
			}
		}
	}
	for _, rep := range res.Reports {
		if !rep.Written {
			continue
		}
		for _, f := range rep.Files {
			if path.IsAbs(f.Path) || filepath.IsAbs(f.Path) || f.Path == ".." || strings.HasPrefix(f.Path, "../") {
				continue // --out elsewhere
			}
			if d := path.Dir(f.Path); !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
	}
	slices.Sort(dirs)
	return slices.DeleteFunc(dirs, func(d string) bool {
		return slices.ContainsFunc(dirs, func(o string) bool { return o != d && strings.HasPrefix(d, o+"/") })
	}), nil
}

// homePath shows a path in the home directory as ~/… .
func homePath(home, p string) string {
	if rel, ok := relInside(home, p); ok {
		return "~/" + rel
	}
	return p
}

// displayPath shows paths inside the repo relative to it (a directory
// named ..foo in it is inside).
func displayPath(root, path string) string {
	if rel, ok := relInside(root, path); ok {
		return rel
	}
	return path
}

// relInside is p relative to dir with forward slashes, and whether p
// is dir or inside it (filepath.IsLocal: no .. step out, not absolute).
func relInside(dir, p string) (string, bool) {
	rel, err := filepath.Rel(dir, p)
	if err != nil || !filepath.IsLocal(rel) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// trusts says whether export --trust does the setting up a tool needs
// (Kiro asks the user itself).
func trusts(reg dialect.Registry, tool string) bool {
	d, ok := reg.Lookup(tool)
	return ok && (d.Info().Trust != nil || d.Info().Hook != nil && d.Info().Hook.Trust != nil)
}
