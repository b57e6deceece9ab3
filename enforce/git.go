package enforce

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// git's global options (before the subcommand). safe: they change
// nothing of what git runs or writes, so an allow for "git diff" still
// matches "git --no-pager diff". value: they take the next word.
var gitGlobals = map[string]struct{ safe, value bool }{
	"-C": {true, true}, "-P": {true, false}, "--no-pager": {true, false}, "-p": {true, false}, "--paginate": {true, false},
	"--bare": {true, false}, "--no-replace-objects": {true, false}, "--literal-pathspecs": {true, false},
	"--glob-pathspecs": {true, false}, "--noglob-pathspecs": {true, false}, "--icase-pathspecs": {true, false},
	"--no-optional-locks": {true, false}, "--no-advice": {true, false}, "--no-lazy-fetch": {true, false},
	"--html-path": {true, false}, "--man-path": {true, false}, "--info-path": {true, false}, "--version": {true, false},
	"-v": {true, false}, "--help": {true, false}, "-h": {true, false}, "--exec-path": {true, false},
	"-c": {false, true}, "--git-dir": {false, true}, "--work-tree": {false, true}, "--namespace": {true, true},
	"--config-env": {false, true}, "--super-prefix": {false, true}, "--attr-source": {true, true}, "--list-cmds": {true, true},
}

// gitPlaceVariables move git's working tree or repository away from
// where the shell runs git, so bn cannot place the files git writes
// there: set before git, exported, or by env.
var gitPlaceVariables = []string{"GIT_WORK_TREE", "GIT_DIR", "GIT_COMMON_DIR", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT"}

// gitSubcommand skips git's global options: all of them for a deny,
// only the safe ones for an allow (an unsafe one stays, so no allow
// matches it).
func gitSubcommand(args []word, safeOnly bool) []word {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.static() {
			return args[i:] // a deny takes it for any word, the subcommand too
		}
		v := a.value()
		if !strings.HasPrefix(v, "-") || v == "-" {
			return args[i:]
		}
		name, _, attached := strings.Cut(v, "=")
		g, known := gitGlobals[name]
		if safeOnly && (!known || !g.safe || name == "--exec-path" && attached) {
			return args[i:]
		}
		if known && g.value && !attached {
			i++
		}
	}
	return nil
}

// git's subcommand options that run a program or write a file, by any
// prefix git accepts for them.
var gitRefused = []opt{
	refuseFlag(0, "ext-diff", "runs the diff program git's configuration names"),
	refuse(0, "upload-pack", "names a program git runs"), refuse(0, "receive-pack", "names a program git runs"),
	refuse(0, "exec", "names a program git runs"), refuse(0, "extcmd", "names a program git runs"),
	{long: "open-files-in-pager", arg: optArg, eff: refuseOpt, why: "runs a pager it names"},
	refuse(0, "sendmail-cmd", "names a program git runs"), refuse(0, "smtp-server", "can name a program git runs"),
	refuse(0, "template", "copies hooks git then runs"), refuse(0, "config", "sets configuration, which can name programs git runs"),
	refuse(0, "output-directory", "writes files in a directory"), writes(0, "output"),
	refuse(0, "tool", "runs a tool it names"), refuse(0, "separate-git-dir", "moves the repository elsewhere"),
}

// git's short options that run a program, per subcommand.
var gitRefusedShort = map[string]string{"rebase": "x", "grep": "O", "clone": "cu", "difftool": "xt", "mergetool": "t", "ls-remote": "u",
	"format-patch": "o", "submodule": "", "fetch": "", "archive": ""}

// git subcommands that run programs by design.
var gitRuns = map[string]string{
	"filter-branch": "runs the commands it is given", "difftool": "runs diff tools", "mergetool": "runs merge tools",
	"instaweb": "starts a web server", "web--browse": "starts a browser", "daemon": "starts a server", "p4": "runs p4", "svn": "runs svn",
	"send-email": "runs a mail program", "credential": "runs credential helpers", "sh-setup": "is a shell library",
}

// gitReads are the subcommands that change no file of the working tree
// (export's honesty about edit limits reads this).
var gitReads = []string{"diff", "log", "show", "status", "blame", "annotate", "grep", "ls-files", "ls-tree", "ls-remote", "rev-parse",
	"rev-list", "describe", "shortlog", "cat-file", "show-ref", "for-each-ref", "merge-base", "name-rev", "whatchanged", "cherry",
	"count-objects", "var", "check-ignore", "check-attr", "check-ref-format", "diff-tree", "diff-files", "diff-index", "range-diff",
	"version", "help", "show-branch", "verify-commit", "verify-tag", "help"}

// GitReads reports whether a git subcommand changes no file of the
// working tree.
func GitReads(sub string) bool { return slices.Contains(gitReads, sub) }

// gitCall decides git's arguments under patterns: global options that
// run programs or reach other repositories are refused, as are the
// subcommand options that run programs; --output is a write, and git
// config that sets a value a write of the configuration file. Under a
// shell allowed whole, what git runs is the shell's to allow, but the
// files its options write are decided as writes all the same, as other
// programs' are (argWrites), so that edit limits and the guard of what
// defines the agent hold.
func gitCall(w *walker, c call) {
	held := w.mode == limited
	dir := c.d
	args := c.args
	// moved says why the working tree is not where git runs (--work-tree,
	// GIT_DIR=…): bn cannot place what git writes there.
	moved := ""
	if w.gitEnv != "" {
		moved = "the line sets " + w.gitEnv + ", which moves git's working tree or repository"
	}
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !a.static() {
			if held {
				w.refuse(refused(c.text, "git's argument %s is not known before the line runs; write git's options and subcommand out", a.src))
				return
			}
			w.unknownWrite(call{text: c.text, name: "git"}, fmt.Sprintf("git's argument %s is not known before the line runs, and may be a subcommand or option that writes files", a.src))
			return
		}
		v := a.value()
		if !strings.HasPrefix(v, "-") {
			break
		}
		name, _, attached := strings.Cut(v, "=")
		g, known := gitGlobals[name]
		if moved == "" {
			moved = gitMoves(name, v, args[i+1:])
		}
		switch {
		case !known && held:
			w.refuse(refused(c.text, "git %s is an option bn does not know; leave it out", v))
			return
		case held && (!g.safe || name == "--exec-path" && attached):
			w.refuse(refused(c.text, "git %s changes the configuration or the repository git runs with, and configuration can name programs git runs (core.pager, diff.external, alias.*); leave it out", v))
			return
		case name == "-C" && held && (i+1 >= len(args) || !args[i+1].static()):
			w.refuse(refused(c.text, "git -C names a directory not known before the line runs"))
			return
		case name == "-C" && i+1 < len(args):
			_, dir = w.e.cdDirs([]word{literal("cd"), args[i+1]}, dir, false)
		}
		if g.value && !attached {
			i++
		}
	}
	if i >= len(args) {
		return
	}
	if held && !gitDiscovery(w, c, dir) {
		return
	}
	sub := args[i].value()
	rest := args[i+1:]
	if held && !gitRunsRefused(w, c, sub, rest) {
		return
	}
	spec := slices.Clone(gitRefused)
	for _, s := range gitRefusedShort[sub] {
		spec = append(spec, refuse(byte(s), "", "names a program git runs or a place it writes"))
	}
	if sub == "archive" {
		spec = append(spec, writes('o', ""))
	}
	fs, _, maybe := gitOpts(spec, rest)
	sc := call{text: c.text, name: "git " + sub, d: dir}
	switch {
	case held && len(maybe) > 0:
		w.refuse(refused(c.text, "the argument %s is not known before the line runs and may be a git option (--output writes a file, --ext-diff runs a program); write it out, or after --", maybe[0].src))
		return
	case held && !w.options(sc, fs):
		return
	case !held && !gitWrites(w, sc, sub, fs):
		return
	}
	start := len(w.accesses)
	if !gitTree(w, sc, sub, rest, moved) {
		return
	}
	if len(w.accesses) > start && !slices.Contains(gitTreeNoLinks, sub) {
		// What git writes from the repository may be symlinks.
		w.linking(c.text, true, start)
	}
	if !gitNamedUnreadable(w, sc, sub, rest, slices.ContainsFunc(args[:i], func(a word) bool { return a.value() == "--icase-pathspecs" })) {
		return
	}
	if sub == "config" {
		gitConfig(w, c, rest, dir)
	}
}

// gitLFSCall: git-lfs SUB is git lfs SUB, decided as git's subcommands
// are (gitTreeAny says which of lfs's write).
func gitLFSCall(w *walker, c call) {
	c.args = append([]word{literal("lfs")}, c.args...)
	gitCall(w, c)
}

// gitMoves says why a global option of git (name, as written v, the
// words after it) moves the working tree away from where git runs:
// --work-tree, --git-dir, or core.worktree set by -c or --config-env;
// "" when it does not.
func gitMoves(name, v string, next []word) string {
	switch name {
	case "--work-tree", "--git-dir":
		return "git " + name + " moves the working tree"
	case "-c", "--config-env":
		value, attached := strings.CutPrefix(v, name+"=")
		if !attached {
			if len(next) == 0 {
				return ""
			}
			value = next[0].value() // "" when not known now: it may set it
		}
		if key, _, _ := strings.Cut(value, "="); value == "" || strings.EqualFold(key, "core.worktree") {
			return "git " + name + " " + value + " may set core.worktree, which moves the working tree"
		}
	}
	return ""
}

// gitRunsRefused refuses, under patterns, the subcommands that run
// programs by design; false when it refused.
func gitRunsRefused(w *walker, c call, sub string, rest []word) bool {
	if why, ok := gitRuns[sub]; ok {
		w.refuse(refused(c.text, "git %s %s; bn refuses it under patterns", sub, why))
		return false
	}
	for _, a := range rest {
		if v := a.value(); a.static() && (sub == "submodule" && v == "foreach" || sub == "bisect" && v == "run") {
			w.refuse(refused(c.text, "git %s %s runs the commands it is given; bn refuses it under patterns", sub, v))
			return false
		}
	}
	return true
}

// gitWrites decides, under a shell allowed whole, the files git's
// options write (--output, archive -o); the patches format-patch writes
// in a directory have names bn does not know before the line runs, so
// they are refused where the rules limit what the agent may create, and
// their directory is recorded for the guard otherwise. false when it
// refused.
func gitWrites(w *walker, c call, sub string, fs []found) bool {
	for _, f := range fs {
		switch {
		case f.o.eff == writeOpt && f.has:
			w.writeArg(c.text, c.name+" "+strings.SplitN(f.src, "=", 2)[0], agents.KindCreate, f.value, c.d)
		case f.has && (f.o.long == "output-directory" || sub == "format-patch" && f.o.short == 'o'):
			if w.e.limits(agents.KindCreate) {
				w.refuse(refused(c.text, "%s %s writes patches in %s under names bn does not know before the line runs, and the rules limit what the agent may create; write each patch with --output=FILE or --stdout > FILE", c.name, strings.SplitN(f.src, "=", 2)[0], f.value.src))
				return false
			}
			w.seen(agents.KindCreate, c.name+" "+strings.SplitN(f.src, "=", 2)[0], f.value, c.d)
		}
		if w.stopped() {
			return false
		}
	}
	return true
}

// gitOpts reads git's options: like getopt, but an option git does not
// take a value for never swallows the next word, and options after the
// first operand still count (git reads them anywhere before "--").
func gitOpts(spec []opt, args []word) (fs []found, ops, maybe []word) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.static() {
			if a.option {
				maybe = append(maybe, a)
			}
			ops = append(ops, a)
			continue
		}
		v := a.value()
		if v == "--" || v == "--end-of-options" {
			return fs, append(ops, args[i+1:]...), maybe
		}
		if !strings.HasPrefix(v, "-") || v == "-" {
			ops = append(ops, a)
			continue
		}
		sub, _, _ := parseOpts(spec, args[i:i+1], false)
		if len(sub) == 1 && sub[0].o.arg == needArg && !sub[0].has && i+1 < len(args) {
			sub[0].value, sub[0].has = args[i+1], true
			i++
		}
		fs = append(fs, sub...)
	}
	return fs, ops, maybe
}

// gitConfig: git config that sets, adds, renames or removes a value is
// a write of the configuration file, decided as an edit of it.
func gitConfig(w *walker, c call, rest []word, d dirs) {
	read, write := false, false
	file := ""
	operands := 0
	for i, a := range rest {
		v := a.value()
		switch {
		case !a.static():
			operands++
		case slices.Contains([]string{"--get", "--get-all", "--get-regexp", "--get-urlmatch", "--get-color", "--get-colorbool", "-l", "--list", "get", "list"}, v):
			read = true
		case slices.Contains([]string{"--add", "--unset", "--unset-all", "--replace-all", "--rename-section", "--remove-section", "-e", "--edit", "set", "unset", "rename-section", "remove-section", "edit"}, v):
			write = true
		case v == "--global":
			if w.e.ctx.Home == "" {
				if w.mode != limited && !w.e.limits(agents.KindEdit) {
					return // nothing to decide, and no file to record
				}
				w.refuse(refused(c.text, "git config --global writes a file in the home directory, which bn does not know here"))
				return
			}
			file = filepath.Join(w.e.ctx.Home, ".gitconfig")
		case v == "--system":
			if w.mode != limited && !w.e.limits(agents.KindEdit) {
				return // the system's configuration is no file of the agent's
			}
			w.refuse(refused(c.text, "git config --system writes the system's git configuration"))
			return
		case (v == "-f" || v == "--file") && i+1 < len(rest):
			file = rest[i+1].value()
		case strings.HasPrefix(v, "--file="):
			file = strings.TrimPrefix(v, "--file=")
		case !strings.HasPrefix(v, "-"):
			operands++
		}
	}
	if !write && (read || operands == 1) {
		return // git config NAME reads it
	}
	if file == "" {
		file = filepath.Join(w.e.ctx.Root, ".git", "config")
	}
	w.file(agents.KindEdit, "git config", literal(file), d, false)
}

// gitEntries are what makes a directory a repository to git's discovery:
// a .git (a directory, or a file naming one elsewhere) with its
// configuration, or the directory itself as a bare repository (HEAD and
// config beside objects and refs, which an agent that may create HEAD
// may create too). The first two are the repository root's own.
var gitEntries = []string{filepath.Join(".git", "config"), ".git", "HEAD", "config"}

// gitPlantable finds an entry of entries in dir that the rules let the
// agent create or change, with the decision that lets it (or the refusal
// of a path bn could not resolve); "" when none.
func (e *engine) gitPlantable(dir string, entries []string) (entry string, d Decision) {
	for _, name := range entries {
		pl, err := e.locate(filepath.Join(dir, name), "")
		if err != nil {
			return name, refused("", "bn could not resolve %s (%v)", filepath.Join(dir, name), err)
		}
		for _, k := range []agents.Kind{agents.KindCreate, agents.KindEdit} {
			if d := e.access(k, pl); d.Allowed {
				return name, d
			}
		}
	}
	return "", Decision{}
}

// gitDiscovery decides where git looks for its repository. Run from a
// directory below the repository root (cd, pushd, -C) or outside it, git
// takes the first directory on the way up that holds a repository, and a
// repository's configuration names programs git runs (core.pager,
// diff.external): where the agent may create one on that way, an allowed
// "git diff" runs what the agent chose. Decided from the rules alone, not
// from what is on disk now, which another call may change meanwhile.
// Outside the project, or in a directory bn cannot follow, any
// repository may be there: git is refused.
func gitDiscovery(w *walker, c call, d dirs) bool {
	root := w.e.rootResolved()
	for _, dir := range d {
		if dir == "" {
			w.refuse(refused(c.text, "git runs in a directory bn cannot follow (after a cd it cannot read, or the found file's directory under find -execdir or -okdir), which may be outside the project or where the agent may be able to create a repository, and a repository's configuration names programs git runs (core.fsmonitor, core.pager, diff.external); run git from the repository root"))
			return false
		}
		pl, err := w.e.locate(dir, "")
		if err != nil {
			w.refuse(refused(c.text, "bn could not resolve git's directory %s (%v); run git from the repository root", dir, err))
			return false
		}
		if root != "" && !inside(pl.resolved, root) {
			w.refuse(refused(c.text, "git runs in %s, outside the project (%s), and takes the repository there or above it, whose configuration can name programs git runs (core.fsmonitor, core.pager, diff.external); bn refuses git outside the project under patterns; run git inside the project", dir, root))
			return false
		}
		for at := pl.resolved; at != root; at = filepath.Dir(at) {
			if name, dec := w.e.gitPlantable(at, gitEntries); name != "" {
				why := "the agent may create or change " + filepath.Join(at, name)
				if dec.Rule != "" {
					why += " (allow " + fmt.Sprintf("%q", dec.Rule) + ")"
				}
				if !dec.Allowed {
					why = dec.Reason
				}
				w.refuse(refused(c.text, "git runs in %s and looks for its repository from there up to the repository root; %s, and git would take it for a repository whose configuration names programs git runs (core.pager, diff.external); run git from the repository root, without cd or -C", dir, why))
				return false
			}
			if filepath.Dir(at) == at {
				break // the file system's root: the way up ends here
			}
		}
	}
	return true
}
