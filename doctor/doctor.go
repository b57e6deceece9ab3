// Package doctor examines a repository's agents as the tools will load
// them and says, with the fix for each, what is wrong: originals left in
// the tools' directories, other files that shadow bn's, exports out of
// date, a project a tool does not yet trust to load its agents or run
// their hooks, bn missing from the PATH a hook runs with, a definition
// that does not load; and which clients verify would find.
package doctor

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/export"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/importer"
	"github.com/binnacle-dev/bn/resolver"
)

// Problem is one thing doctor found wrong, and how to fix it.
type Problem struct {
	Check   string   `json:"check"`
	Problem string   `json:"problem"`
	Fix     string   `json:"fix"`
	Files   []string `json:"files,omitempty"`
}

// Client is a tool's client as verify would find it.
type Client struct {
	Tool    string `json:"tool"`
	Path    string `json:"path,omitempty"`
	Found   bool   `json:"found"`
	Package string `json:"package"`
}

// Report is doctor's answer: the problems, the checks that passed, the
// tools whose files the repository holds, and the clients.
type Report struct {
	Problems []Problem `json:"problems"`
	Passed   []string  `json:"passed"`
	Tools    []string  `json:"tools"`
	Clients  []Client  `json:"clients"`
}

// Options are what doctor looks at.
type Options struct {
	// Load loads the layers export reads (built-in and project).
	Load     func() (*resolver.Set, error)
	Paths    resolver.Paths
	Registry dialect.Registry
	Home     string
	// LookPath finds a program on the user's PATH, which the tools, and
	// the hooks they run, inherit.
	LookPath func(string) (string, error)
	// FindClient finds a tool's client as verify does (its command is
	// not always the tool's name: claude-plugin's is claude).
	FindClient func(tool string) (string, bool)
	// Self is this bn; IsBn says whether another binary named bn is one
	// (answers bn config agents check), not binnacle's.
	Self string
	IsBn func(path string) bool
	// Display shortens paths for the report.
	Display func(string) string
}

// Check names, for the report.
const (
	CheckLoad      = "definitions"
	CheckOriginals = "originals"
	CheckShadows   = "shadows"
	CheckStale     = "stale"
	CheckTrust     = "trust"
	CheckPath      = "path"
)

// Run examines the repository.
func Run(opts Options) Report {
	rep := Report{Problems: []Problem{}, Passed: []string{}, Tools: []string{}, Clients: clients(opts)}
	pass := func(check, what string) { rep.Passed = append(rep.Passed, check+": "+what) }
	fail := func(p Problem) { rep.Problems = append(rep.Problems, p) }
	display := opts.Display
	if display == nil {
		display = func(s string) string { return s }
	}
	root := opts.Paths.RepoRoot

	recordPath := filepath.Join(opts.Paths.ProjectDir, importer.RecordFile)
	record, err := importer.ReadRecord(recordPath)
	if err != nil {
		fail(Problem{Check: CheckOriginals, Problem: err.Error(), Fix: "import the agents again, which writes the record anew"})
	}
	// An original is left where import read it, or was put back there
	// after it was moved aside.
	var left, back []string
	for _, o := range record.Originals {
		file := filepath.FromSlash(o.File)
		if filepath.IsAbs(file) || o.Companion != "" {
			continue // a companion goes with its agent's file, which is checked
		}
		path := filepath.Join(root, file)
		if _, err := os.Lstat(path); err == nil {
			if ownFile(path, o) {
				continue
			}
			if o.Moved == "" {
				left = append(left, o.File)
			} else {
				back = append(back, o.File)
			}
		}
	}
	if len(left)+len(back) > 0 {
		fix := "bn config agents import --move-originals (moves them to " + importer.OriginalsDir + "/, nothing deleted)"
		if len(left) == 0 {
			fix = "remove: import moved each aside already, to " + importer.OriginalsDir + "/"
		} else if len(back) > 0 {
			fix += "; remove " + strings.Join(back, ", ") + ": moved aside already, to " + importer.OriginalsDir + "/"
		}
		fail(Problem{Check: CheckOriginals, Files: append(left, back...),
			Problem: plural(len(left)+len(back), "original") + " that import recorded still in the tools' directories, beside bn's files",
			Fix:     fix})
	} else {
		pass(CheckOriginals, "no original left in the tools' directories")
	}

	set, err := opts.Load()
	if err != nil {
		fail(Problem{Check: CheckLoad, Problem: "the definitions do not load: " + err.Error(),
			Fix: "fix what it names (bn config agents validate -H lists every problem); the checks of the exported files wait for it"})
		return rep
	}
	pass(CheckLoad, "every layer loads")
	// Each tool is planned on its own: one whose files bn refuses to
	// write (a policy it cannot say) matters only where the repository
	// has that tool's agents.
	var reports []*export.TargetReport
	for _, d := range opts.Registry.Exporters() {
		res, err := export.Plan(set, export.Options{Targets: dialect.Registry{d}, Root: root, Record: record, Registry: opts.Registry})
		switch {
		case err == nil:
			reports = append(reports, res.Reports...)
		case hasAgentsDir(root, d):
			fail(Problem{Check: CheckStale, Problem: "the export to " + d.Info().Name + " cannot be planned: " + err.Error(), Fix: "fix what it names"})
			return rep
		}
	}
	var shadows, stale, trust []string
	var staleFix, trustFix []string
	hooks := false
	used := &export.Result{}
	for _, tr := range reports {
		if !inUse(tr) {
			continue
		}
		used.Reports = append(used.Reports, tr)
		rep.Tools = append(rep.Tools, tr.Target)
		if needsTrust(opts.Registry, tr) {
			trustFix = append(trustFix, tr.Target)
		}
		for _, s := range tr.Shadowing {
			if !s.Original {
				shadows = append(shadows, fmt.Sprintf("%s (agent %s: %s)", display(s.File), s.Agent, s.Effect))
			}
		}
		for _, f := range tr.Files {
			switch f.Action {
			case emit.Conflict:
				if _, original := record.ByPath(root, f.Path); !original {
					shadows = append(shadows, fmt.Sprintf("%s (not bn's, where bn writes agent %s)", display(f.Path), f.Agent))
				}
			case emit.Create, emit.Update, emit.Edited, emit.Stale:
				stale = append(stale, fmt.Sprintf("%s (%s)", display(f.Path), f.Action))
				if !slices.Contains(staleFix, tr.Target) {
					staleFix = append(staleFix, tr.Target)
				}
			}
		}
		hooks = hooks || tr.Counts.Enforced > 0
	}
	if len(shadows) > 0 {
		fail(Problem{Check: CheckShadows, Files: shadows,
			Problem: plural(len(shadows), "agent file") + " bn did not write, defining bn's agents in the tools' directories: the tools load them instead of bn's, or merge them in",
			Fix:     "move each out of the tool's directories (or import it: bn config agents import FILE --move-originals)"})
	} else {
		pass(CheckShadows, "no other file defines bn's agents in the tools' directories")
	}
	if len(stale) > 0 {
		fail(Problem{Check: CheckStale, Files: stale,
			Problem: plural(len(stale), "exported file") + " out of date with the definitions (edited: changed by hand since export; stale: no agent wants it)",
			Fix:     "bn config agents export --target " + strings.Join(staleFix, ",") + " (--force for edited files, --prune for stale ones)"})
	} else {
		pass(CheckStale, "the exported files match the definitions")
	}

	if opts.Home != "" {
		changes, err := used.TrustChanges(opts.Registry, root, opts.Home)
		if err != nil {
			fail(Problem{Check: CheckTrust, Problem: err.Error(), Fix: "fix the file it names"})
		}
		for _, c := range changes {
			trust = append(trust, display(c.Path))
		}
	}
	if len(trust) > 0 {
		fail(Problem{Check: CheckTrust, Files: trust,
			Problem: "a tool does not yet trust this repository, so it leaves out its agents or skips the hooks that enforce their limits",
			Fix:     "bn config agents export --target " + strings.Join(trustFix, ",") + " --trust (it edits the files above, in your home directory)"})
	} else {
		pass(CheckTrust, "every tool that needs it trusts this repository")
	}

	if hooks {
		bn, err := opts.LookPath("bn")
		switch {
		case err != nil:
			fail(Problem{Check: CheckPath,
				Problem: "the hooks export wrote run `bn config agents check`, and no bn is on the PATH the tools run them with: every call they guard is refused",
				Fix:     "put bn on your PATH (make install puts it in $(go env GOPATH)/bin)"})
		case !same(bn, opts.Self) && opts.IsBn != nil && !opts.IsBn(bn):
			fail(Problem{Check: CheckPath, Files: []string{bn},
				Problem: "the first bn on the PATH is another program (binnacle's?) with no `config agents check`, which the hooks export wrote run: every call they guard is refused",
				Fix:     "put this bn first on the PATH the tools see, by the name bn: the hooks run `bn config agents check`, whatever name you run bn by"})
		default:
			pass(CheckPath, "the hooks find bn on the PATH ("+bn+")")
		}
	}
	return rep
}

// inUse says the repository holds bn's files for the tool: what doctor
// judges, leaving out tools never exported to.
func inUse(tr *export.TargetReport) bool {
	for _, f := range tr.Files {
		switch f.Action {
		case emit.Keep, emit.Update, emit.Edited, emit.Stale:
			return true
		}
	}
	return false
}

// ownFile says whether the file at an original's recorded path is bn's
// own, which export writes where the original was whenever the file's
// name is its agent's: it carries bn's marker, as export requires before
// it replaces a file, and is no longer the original import read (its
// recorded hash). A file over a config's size is neither.
func ownFile(path string, o importer.Original) bool {
	data, err := files.Read(path, files.MaxConfigFile)
	return err == nil && importer.Hash(data) != o.SHA256 && emit.IsGenerated(data)
}

// hasAgentsDir says the repository has the directory d reads its agents
// from, with something in it.
func hasAgentsDir(root string, d dialect.Dialect) bool {
	if d.Info().Dir == "" {
		return false
	}
	entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(d.Info().Dir)))
	return err == nil && len(entries) > 0
}

// needsTrust says the tool loads agents, or runs their hooks, only in a
// project it trusts.
func needsTrust(reg dialect.Registry, tr *export.TargetReport) bool {
	d, ok := reg.Lookup(tr.Target)
	return ok && (d.Info().Trust != nil || d.Info().Hook != nil && d.Info().Hook.Trust != nil && tr.Counts.Enforced > 0)
}

// clients are the tools' clients verify would run, as it finds them.
func clients(opts Options) []Client {
	var out []Client
	for _, name := range opts.Registry.Verifiable() {
		d, _ := opts.Registry.Lookup(name)
		c := Client{Tool: name, Package: d.Info().Client}
		c.Path, c.Found = opts.FindClient(name)
		out = append(out, c)
	}
	return out
}

// same says two paths name one file.
func same(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	if errors.Is(err1, fs.ErrNotExist) || errors.Is(err2, fs.ErrNotExist) || err1 != nil || err2 != nil {
		return a == b
	}
	return os.SameFile(fa, fb)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
