package enforce

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// Advisory says why one of an agent's rules cannot hold, however well
// each call is decided, against what else the agent may do: a limit a
// call walks around with another the rules allow. rule is one of
// tools.Deny (deny) or tools.Allow; "" means the engine holds it (a
// refusal of every call that breaks it). Export reports such a limit as
// advisory, never as enforced; check says so of a deny it applied.
//
// A shell deny cannot hold under a shell allowed whole (a script, an
// interpreter or sh -c runs what no check of the line sees), nor beside
// a pattern that allows an interpreter. A read limit cannot hold beside
// any shell (cat, grep and git read the files their arguments name,
// which bn does not check); an edit limit cannot hold beside a shell
// allowed whole or a pattern for a program that writes files bn does not
// check. An allow for a program that runs code (python3, make, npm)
// limits nothing; nor does one for git where the agent may edit the
// repository's configuration, which names programs git runs.
func Advisory(tools agents.Tools, rule string, deny bool) string {
	p, err := agents.ParseToolPattern(rule)
	if err != nil {
		return ""
	}
	e := newEngine(tools, Context{Root: advisoryRoot, FS: noFS{}})
	kinds := p.Kinds()
	if slices.Contains(kinds, agents.KindShell) && p.HasArg && p.Arg != "*" {
		if deny {
			return e.shellDenyHolds(compileShellPattern(p))
		}
		if m, _, done := e.shellMode(); done || m != limited {
			return "" // the shell is allowed whole or denied: the pattern limits nothing
		}
		return e.shellAllowHolds(compileShellPattern(p))
	}
	for _, k := range kinds {
		if !deny && (!p.HasArg || p.Arg == "*" || e.wholeKind(k)) {
			continue // grants the kind whole, or another rule does: no limit
		}
		if why := e.kindHolds(k); why != "" {
			return why
		}
	}
	return ""
}

// advisoryRoot is where Advisory places the repository: its decisions
// are of the rules alone, not of a file system.
var advisoryRoot, _ = filepath.Abs(string(filepath.Separator) + "repository")

// noFS is a file system where nothing exists: no symlink to follow.
type noFS struct{}

func (noFS) Lstat(string) (fs.FileInfo, error)     { return nil, fs.ErrNotExist }
func (noFS) Readlink(string) (string, error)       { return "", fs.ErrNotExist }
func (noFS) ReadDir(string) ([]fs.DirEntry, error) { return nil, fs.ErrNotExist }
func (noFS) Open(string) (fs.File, error)          { return nil, fs.ErrNotExist }

// wholeKind reports whether the rules allow every use of k, with no deny
// of part of it.
func (e *engine) wholeKind(k agents.Kind) bool {
	whole := e.all || slices.ContainsFunc(e.allow, func(r rule) bool { return r.whole(k) })
	return whole && !slices.ContainsFunc(e.deny, func(r rule) bool { return slices.Contains(r.kinds, k) })
}

// shellPrograms are the allow patterns of the shell that name part of
// it, and whether one allows it whole.
func (e *engine) shellPrograms() (patterns []rule, open bool) {
	m, _, done := e.shellMode()
	if done {
		return nil, false
	}
	if m != limited {
		return nil, true
	}
	for _, r := range e.allow {
		if !r.bad && r.sh.set && !r.sh.whole {
			patterns = append(patterns, r)
		}
	}
	return patterns, false
}

// shellDenyHolds: a deny of part of the shell (sp) holds only where
// every command the shell runs is one the patterns name and none of them
// runs code; a deny of a git subcommand that writes, only where no
// pattern allows git's plumbing, which does the same piece by piece (of
// push and fetch, the plumbing is matched as they are: gitTwin).
func (e *engine) shellDenyHolds(sp shellPattern) string {
	patterns, open := e.shellPrograms()
	if open {
		return "the shell is allowed whole, so a script, an interpreter or sh -c (sh script.sh, python3 -c …) runs commands no check of the command line sees"
	}
	for _, r := range patterns {
		if why := r.sh.runsCode(); why != "" {
			return fmt.Sprintf("allow %q lets it run them anyway: %s", r.text, why)
		}
	}
	name, sub := sp.program()
	if name != "git" || sub == "" || GitReads(sub) || sub == "push" || sub == "fetch" {
		return ""
	}
	for _, r := range patterns {
		if n, s := r.sh.program(); n == "git" && (s == "" || slices.Contains(gitPlumbing, s)) {
			return fmt.Sprintf("allow %q lets git's plumbing (commit-tree, update-ref, update-index, read-tree) do what git %s does, piece by piece, which no deny of a subcommand names", r.text, sub)
		}
	}
	return ""
}

// shellAllowHolds: a pattern limits the shell only when its program
// does no more than the pattern says.
func (e *engine) shellAllowHolds(sp shellPattern) string {
	if why := sp.runsCode(); why != "" {
		return why
	}
	name, sub := sp.program()
	if name == "git" {
		// Below the root the engine refuses git where the agent may make
		// a repository (gitDiscovery); the root's own it cannot refuse.
		if entry, d := e.gitPlantable(e.ctx.Root, gitEntries[:2]); entry != "" && d.Allowed {
			_, note := ProgramClass("git")
			return fmt.Sprintf("the agent may create or change %s (allow %q), and %s", filepath.ToSlash(entry), d.Rule, note)
		}
	}
	if e.wholeKind(agents.KindEdit) && e.wholeKind(agents.KindCreate) {
		return ""
	}
	return writesUnchecked(name, sub)
}

// kindHolds: a limit of a file kind (or of the web) holds only where
// the shell cannot reach past it.
func (e *engine) kindHolds(k agents.Kind) string {
	patterns, open := e.shellPrograms()
	switch k {
	case agents.KindRead, agents.KindList, agents.KindGlob, agents.KindGrep:
		switch {
		case open:
			return "the shell is allowed whole: a script, an interpreter or a file name made when the line runs reads any file, and a check of the command line sees only the files it names"
		case len(patterns) > 0:
			return fmt.Sprintf("allow %q runs a program that reads the files its arguments name, which bn checks against deny rules only as the line names them, and not against allow rules; a reader of the whole project (grep -r X ., rg X) reads every file", patterns[0].text)
		}
	case agents.KindEdit, agents.KindCreate, agents.KindNotebook:
		if open {
			return "the shell is allowed whole: cp, mv, an interpreter or a script writes files a check of the command line does not see (bn sees redirections and the options of programs it knows)"
		}
		for _, r := range patterns {
			if why := r.sh.runsCode(); why != "" {
				return fmt.Sprintf("allow %q: %s", r.text, why)
			}
			if why := writesUnchecked(r.sh.program()); why != "" {
				return fmt.Sprintf("allow %q: %s", r.text, why)
			}
		}
	case agents.KindWebFetch:
		if open {
			return "the shell is allowed whole: curl, wget or a script fetches any address"
		}
		for _, r := range patterns {
			if name, _ := r.sh.program(); name == "curl" || name == "wget" {
				return fmt.Sprintf("allow %q fetches the addresses its arguments name", r.text)
			}
		}
	}
	return ""
}

// tools is the rules the engine was made from.
func (e *engine) tools() agents.Tools {
	t := agents.Tools{All: e.all}
	for _, r := range e.allow {
		t.Allow = append(t.Allow, r.text)
	}
	for _, r := range e.deny {
		t.Deny = append(t.Deny, r.text)
	}
	return t
}

// program is the command word a shell pattern names, as the engine
// looks it up, and its first operand (git's subcommand); "" when the
// pattern's command word is a glob.
func (sp shellPattern) program() (name, sub string) {
	words := sp.words
	if sp.glob != "" {
		words = strings.Fields(sp.glob)
	}
	if len(words) == 0 || strings.ContainsAny(words[0], "*?[") {
		return "", ""
	}
	name = baseName(words[0])
	if len(words) > 1 && !strings.ContainsAny(words[1], "*?[") {
		sub = words[1]
	}
	return name, sub
}

// runsCode says how a pattern's program runs code the pattern does not
// name: an interpreter, a shell, a build tool, or a command word that is
// a glob.
func (sp shellPattern) runsCode() string {
	name, _ := sp.program()
	if name == "" {
		return "its command word is a glob, which matches shells and interpreters too"
	}
	if class, note := ProgramClass(name); class == Runs {
		return note
	}
	return ""
}

// writesUnchecked says how a program writes files bn does not check
// against edit rules: cp, tar, and git subcommands that change the
// working tree.
func writesUnchecked(name, sub string) string {
	if name == "git-lfs" { // git-lfs SUB is git lfs SUB
		name, sub = "git", "lfs"
	}
	class, note := ProgramClass(name)
	switch {
	case class == Writes:
		return note
	case name == "git" && !GitReads(sub):
		what := "git " + sub
		if sub == "" {
			what = "git with any subcommand"
		}
		return what + " changes files of the working tree (checkout, apply, stash), which bn does not check against edit rules"
	}
	return ""
}
