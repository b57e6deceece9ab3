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
	"--bare": {false, false}, "--no-replace-objects": {true, false}, "--literal-pathspecs": {true, false},
	"--glob-pathspecs": {true, false}, "--noglob-pathspecs": {true, false}, "--icase-pathspecs": {true, false},
	"--no-optional-locks": {true, false}, "--no-advice": {true, false}, "--no-lazy-fetch": {true, false},
	"--html-path": {true, false}, "--man-path": {true, false}, "--info-path": {true, false}, "--version": {true, false},
	"-v": {true, false}, "--help": {true, false}, "-h": {true, false}, "--exec-path": {true, false},
	"-c": {false, true}, "--git-dir": {false, true}, "--work-tree": {false, true}, "--namespace": {true, true},
	"--config-env": {false, true}, "--super-prefix": {false, true}, "--attr-source": {true, true}, "--list-cmds": {true, true},
}

// gitPlaceVariables move git's working tree or repository away from
// where the shell runs git (what says which), or set git's configuration,
// which may move them too (what ""), so bn cannot place the files git
// writes there: set by the line before git, exported, or by env. The
// environment a decision starts from is read for those that move them
// (gitStart).
var gitPlaceVariables = []struct{ name, what string }{
	{"GIT_WORK_TREE", "working tree"}, {"GIT_DIR", "repository"}, {"GIT_COMMON_DIR", "repository"},
	{"GIT_CONFIG_PARAMETERS", ""}, {"GIT_CONFIG_COUNT", ""}}

// isGitFileVariable says whether name names a file git writes: its
// index (GIT_INDEX_FILE), its traces (GIT_TRACE, GIT_TRACE2_EVENT and
// the others, set to a path).
func isGitFileVariable(name string) bool {
	return name == "GIT_INDEX_FILE" || strings.HasPrefix(name, "GIT_TRACE")
}

// isGitPlaceVariable says whether name is one of gitPlaceVariables.
func isGitPlaceVariable(name string) bool {
	return slices.ContainsFunc(gitPlaceVariables, func(v struct{ name, what string }) bool { return v.name == name })
}

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
	dirWrites(0, "output-directory"), writes(0, "output"),
	refuse(0, "tool", "runs a tool it names"), dirWrites(0, "separate-git-dir"),
}

// git's short options that run a program, per subcommand.
var gitRefusedShort = map[string]string{"rebase": "x", "grep": "O", "clone": "cu", "difftool": "xt", "mergetool": "t", "ls-remote": "u",
	"submodule": "", "fetch": "", "archive": ""}

func dirWrites(short byte, long string) opt {
	return opt{short: short, long: long, arg: needArg, eff: dirWriteOpt}
}

// gitFileOpts are, per subcommand, the options whose value is a file
// (writes) or a directory (dirWrites) git writes, from git's manuals
// (git help -a, each subcommand's OPTIONS), and those the subcommand's
// operands depend on (gitFiles).
var gitFileOpts = map[string][]opt{
	"read-tree":   {writes(0, "index-output")},
	"fast-export": {writes(0, "export-marks"), valued(0, "import-marks"), valued(0, "anonymize-map")},
	"fast-import": {writes(0, "export-marks"), writes(0, "export-pack-edges"), valued(0, "import-marks"), valued(0, "import-marks-if-exists"),
		refuseFlag(0, "allow-unsafe-features", "lets its input name files it reads and writes (feature export-marks, import-marks)")},
	"index-pack":         {writes('o', ""), flagOpt(0, "stdin")},
	"apply":              {writes(0, "build-fake-ancestor")},
	"credential-store":   {writes(0, "file")},
	"credential-cache":   {writes(0, "socket")},
	"interpret-trailers": {flagOpt(0, "in-place"), valued(0, "trailer"), valued(0, "where"), valued(0, "if-exists"), valued(0, "if-missing")},
	"mailinfo":           {valued(0, "encoding"), valued(0, "quoted-cr")},
	"mailsplit":          {dirWrites('o', "")},
	"bugreport":          {dirWrites('o', ""), valued('s', "suffix")},
	"diagnose":           {dirWrites('o', ""), valued('s', "suffix"), valued(0, "mode")},
	"format-patch":       {dirWrites('o', ""), flagOpt(0, "stdout")},
	"pack-objects":       {flagOpt(0, "stdout")},
	"commit-graph":       {dirWrites(0, "object-dir")},
	"multi-pack-index":   {dirWrites(0, "object-dir")},
}

// git subcommands that run programs by design.
var gitRuns = map[string]string{
	"filter-branch": "runs the commands it is given", "difftool": "runs diff tools", "mergetool": "runs merge tools",
	"difftool--helper": "runs diff tools", "instaweb": "starts a web server", "web--browse": "starts a browser",
	"daemon": "starts a server", "http-backend": "is a server (a CGI program)", "fsmonitor--daemon": "starts a daemon",
	"p4": "runs p4", "svn": "runs svn", "send-email": "runs a mail program", "imap-send": "runs the program imap.tunnel names",
	"credential": "runs credential helpers", "credential-cache": "starts a credential daemon", "credential-cache--daemon": "is a credential daemon",
	"credential-store": "writes credentials in the home directory", "sh-setup": "is a shell library",
	"upload-pack":            "is the serving end of a fetch, run on a repository it names (outside the project too), whose configuration it follows",
	"upload-archive":         "is the serving end of git archive --remote, run on a repository it names",
	"upload-archive--writer": "is the serving end of git archive --remote, run on a repository it names",
	"receive-pack":           "is the receiving end of a push: it writes the repository it names and runs the hooks of the repository it names",
	"shell":                  "runs the commands it is given (git shell -c)",
	"hook":                   "runs the repository's hooks",
	"for-each-repo":          "runs git commands in every repository its configuration lists",
	"maintenance":            "runs maintenance tasks and registers them with the system's scheduler (crontab, systemd, launchctl)",
	"merge-index":            "runs the merge program it is given",
	"submodule--helper":      "is git submodule's helper, which runs the commands it is given (foreach)",
	"bisect--helper":         "is git bisect's helper, which runs the commands it is given (bisect run)",
	"checkout--worker":       "is git checkout's internal worker, which writes the files its input names",
}

// gitCommands are git's own commands (git --list-cmds=main of git 2.39,
// and those later versions added); for any other name git runs
// git-NAME from PATH, or an alias from its configuration.
var gitCommands = strings.Fields(`add am annotate apply archive backfill bisect bisect--helper blame branch bugreport bundle
	cat-file check-attr check-ignore check-mailmap check-ref-format checkout checkout--worker checkout-index cherry cherry-pick
	clean clone column commit commit-graph commit-tree config count-objects credential credential-cache credential-cache--daemon
	credential-store daemon describe diagnose diff diff-files diff-index diff-pairs diff-tree difftool difftool--helper
	env--helper fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg for-each-ref for-each-repo format-patch
	fsck fsck-objects fsmonitor--daemon gc get-tar-commit-id grep hash-object help hook http-backend http-fetch http-push
	imap-send index-pack init init-db instaweb interpret-trailers last-modified log ls-files ls-remote ls-tree mailinfo
	mailsplit maintenance merge merge-base merge-file merge-index merge-octopus merge-one-file merge-ours merge-recursive
	merge-recursive-ours merge-recursive-theirs merge-resolve merge-subtree merge-tree mergetool mktag mktree
	multi-pack-index mv name-rev notes pack-objects pack-redundant pack-refs patch-id pickaxe prune prune-packed pull push
	quiltimport range-diff read-tree rebase receive-pack reflog refs remote repack replace replay repo request-pull
	rerere reset restore rev-list rev-parse revert rm send-pack sh-i18n--envsubst shell shortlog show show-branch show-index
	show-ref sparse-checkout stage stash status stripspace submodule submodule--helper switch symbolic-ref tag
	unpack-file unpack-objects update-index update-ref update-server-info upload-archive upload-archive--writer upload-pack
	var verify-commit verify-pack verify-tag version web--browse whatchanged worktree write-tree`)

// gitAliases are git's other names for its subcommands: git runs the
// same command under both (git.c), so bn reads each as the subcommand
// it names everywhere (gitCall), and a deny of that one holds against
// it (gitTwin).
var gitAliases = map[string][2]string{
	"init-db": {"init", "makes a repository"}, "stage": {"add", "adds"}, "fsck-objects": {"fsck", "checks"},
}

// gitAlias is the subcommand sub is another name of, or sub itself.
func gitAlias(sub string) string {
	if a, ok := gitAliases[sub]; ok {
		return a[0]
	}
	return sub
}

// gitTwins are git subcommands that do what another does, so that a
// deny of the other holds against them: plumbing that pushes or
// fetches, and commands that do another's work. Every remote helper
// (remote-NAME) pushes as push does.
var gitTwins = map[string][2]string{
	"send-pack": {"push", "pushes"}, "http-push": {"push", "pushes"}, "fetch-pack": {"fetch", "fetches"},
	"http-fetch": {"fetch", "fetches"}, "annotate": {"blame", "blames"}, "pickaxe": {"blame", "blames"},
	"quiltimport": {"am", "applies patches"}, "whatchanged": {"log", "shows the log"},
	"merge-recursive": {"merge", "merges"}, "merge-recursive-ours": {"merge", "merges"}, "merge-recursive-theirs": {"merge", "merges"},
	"merge-subtree": {"merge", "merges"}, "merge-resolve": {"merge", "merges"}, "merge-octopus": {"merge", "merges"}, "merge-ours": {"merge", "merges"},
}

// gitTwin is the subcommand whose deny holds against sub, and what both
// do; ok false when none.
func gitTwin(sub string) (twin, does string, ok bool) {
	sub = strings.ToLower(sub)
	if strings.HasPrefix(sub, "remote-") {
		return "push", "pushes", true
	}
	t, ok := gitTwins[sub]
	if !ok {
		t, ok = gitAliases[sub]
	}
	return t[0], t[1], ok
}

// gitPlumbing are the subcommands that change refs, the index and the
// working tree piece by piece: with them an agent does what a denied
// git commit, reset, tag or checkout does, which no list of twins can
// name.
var gitPlumbing = []string{"commit-tree", "update-ref", "update-index", "read-tree", "write-tree", "checkout-index",
	"symbolic-ref", "hash-object", "mktag", "mktree", "fast-import", "apply", "merge-tree", "unpack-objects", "replace"}

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
		case held && name == "--bare":
			w.refuse(refused(c.text, "git --bare takes the directory it runs in for the repository, and its configuration from ./config there, a file of the working tree the agent may be able to write, whose settings name programs git runs (diff.external, core.fsmonitor); bn refuses it under patterns; leave it out"))
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
	sub := gitAlias(args[i].value())
	rest := args[i+1:]
	if held && !gitRunsRefused(w, c, sub, rest) {
		return
	}
	spec := slices.Clone(gitRefused)
	for _, s := range gitRefusedShort[sub] {
		spec = append(spec, refuse(byte(s), "", "names a program git runs or a place it writes"))
	}
	if sub == "grep" { // -O takes its pager glued on only: git grep -O PATTERN
		spec = slices.Insert(spec, 0, opt{short: 'O', arg: optArg, eff: refuseOpt, why: "runs a pager it names, or the one git's configuration names"})
	}
	if sub == "archive" {
		spec = append(spec, writes('o', ""))
	}
	spec = append(spec, gitFileOpts[sub]...)
	fs, ops, maybe := gitOpts(spec, rest)
	sc := call{text: c.text, name: "git " + sub, d: dir}
	switch {
	case held && len(maybe) > 0:
		w.refuse(refused(c.text, "the argument %s is not known before the line runs and may be a git option (--output writes a file, --ext-diff runs a program); write it out, or after --", maybe[0].src))
		return
	case held && !w.options(sc, fs):
		return
	case held && w.gitOptionsUnknown(sc, sub, spec, rest):
		return
	case held && !gitRemoteRefused(w, sc, sub, rest):
		return
	case !held && !gitWrites(w, sc, fs):
		return
	case !held && sub == "grep" && !gitGrepPager(w, sc, fs, maybe):
		return
	case !gitFiles(w, sc, sub, fs, ops):
		return
	}
	if w.gitFileEnv != "" && !w.unnamedWrite(sc, "the line sets "+w.gitFileEnv+", which may name a file git writes (its index, its trace)", "files",
		"run git without it, or set it to a number (a trace to a file descriptor)") {
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
// are: refused under patterns (gitRunsRefused), and where the shell is
// allowed whole gitTreeAny says which of lfs's commands write.
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
	why, ok := gitRuns[sub]
	switch {
	case ok:
	case sub == "lfs":
		why = "is git-lfs, a program apart from git, whose commands' options (which change between its versions) bn has no table of, and one bn has not read in its manual may write a file or run a program (allow the shell whole to run it)"
	case strings.HasPrefix(sub, "remote-"):
		why = "is a remote helper: it runs the commands it is given (remote-ext), or git runs git-" + sub + " from PATH, and it pushes and fetches past git push's and git fetch's options"
	case !slices.Contains(gitCommands, sub) && w.lookup("git-"+sub) == nil: // git-lfs bn decides as git lfs
		why = fmt.Sprintf("is not one of git's own commands: git runs git-%s from PATH, or an alias from its configuration (alias.%s, which can run any command)", sub, sub)
	default:
		why = gitEditor(sub, rest)
	}
	if why != "" {
		w.refuse(refused(c.text, "git %s %s; bn refuses it under patterns", sub, why))
		return false
	}
	if src, name := gitStrategy(sub, rest); src != "" {
		w.refuse(refused(c.text, "git %s %s names a merge strategy that is not git's own: git runs git-merge-%s from PATH; bn refuses it under patterns; use one of %s", sub, src, name, strings.Join(gitStrategies, ", ")))
		return false
	}
	for _, a := range rest {
		v := a.value()
		switch {
		case !a.static():
		case sub == "submodule" && v == "foreach" || sub == "bisect" && v == "run":
			w.refuse(refused(c.text, "git %s %s runs the commands it is given; bn refuses it under patterns", sub, v))
			return false
		case sub == "bisect" && (v == "view" || v == "visualize"):
			w.refuse(refused(c.text, "git bisect %s runs gitk, or git log with its pager; bn refuses it under patterns; run git log", v))
			return false
		}
	}
	return true
}

// gitStrategies are the merge strategies built into git; for any other
// name, -s NAME runs git-merge-NAME from PATH.
var gitStrategies = []string{"ort", "recursive", "resolve", "octopus", "ours", "subtree"}

// gitStrategy finds a merge strategy, given to a subcommand that merges,
// that is not git's own: the option as written and the name; "" when
// none (or the name is not known before the line runs, which gitCall
// refuses as an argument that may be an option).
func gitStrategy(sub string, rest []word) (src, name string) {
	spec := []opt{valued(0, "strategy")}
	switch sub {
	case "merge", "pull", "rebase":
		spec = append(spec, valued('s', "strategy")) // cherry-pick's and revert's -s is --signoff
	case "cherry-pick", "revert":
	default:
		return "", ""
	}
	fs, _, _ := gitOpts(spec, rest)
	for _, f := range fs {
		if v := f.value.value(); f.has && f.value.static() && !slices.Contains(gitStrategies, v) {
			return f.src, v
		}
	}
	return "", ""
}

// gitEditing are the options of git's subcommands that say whether it
// starts an editor (core.editor, GIT_EDITOR: a program bn does not
// check) or asks which hunks to take (whose answer "e" starts one);
// gitEditingOwn those that mean so in some subcommands only (elsewhere
// -i is --include, -s --signoff).
var gitEditing = []opt{
	valued('m', "message"), valued('F', "file"), valued('C', "reuse-message"), valued('c', "reedit-message"),
	flagOpt('e', "edit"), flagOpt(0, "no-edit"), valued(0, "fixup"), flagOpt(0, "dry-run"), flagOpt('p', "patch"),
	flagOpt(0, "interactive"), flagOpt(0, "edit-todo"), flagOpt(0, "edit-description"), flagOpt(0, "continue"), valued(0, "ref"),
}

var gitEditingOwn = map[string][]opt{
	"add": {flagOpt('i', "interactive")}, "rebase": {flagOpt('i', "interactive")}, "am": {flagOpt('i', "interactive")},
	"help": {flagOpt('w', "web"), flagOpt('i', "info")},
	"tag": {flagOpt('a', "annotate"), flagOpt('s', "sign"), valued('u', "local-user"), flagOpt('l', "list"),
		flagOpt('d', "delete"), flagOpt('v', "verify")},
}

// gitEditors are the subcommands whose -e (--edit) and like options
// start an editor (elsewhere -e is --regexp, --exclude or an option of
// its own).
var gitEditors = []string{"merge", "pull", "revert", "cherry-pick", "add", "config", "notes", "rebase", "branch", "am", "replace"}

// gitHunks are the subcommands whose -p (--patch) asks which hunks to
// take (elsewhere it shows a patch).
var gitHunks = []string{"add", "checkout", "reset", "restore", "stash", "commit"}

const (
	gitEditorStarts = "starts an editor (core.editor, GIT_EDITOR), a program bn does not check"
	gitAsksHunks    = "asks which hunks to take, and its answer e starts an editor (core.editor), a program bn does not check; name the files instead"
)

// gitEditor says what of git's subcommand sub starts an editor, asks
// which hunks to take, or starts a browser or info (git help); "" when
// nothing does.
func gitEditor(sub string, rest []word) string {
	fs, ops, _ := gitOpts(append(slices.Clone(gitEditing), gitEditingOwn[sub]...), rest)
	has := map[string]string{}
	for _, f := range fs {
		name := f.o.long
		if v := f.value.value(); name == "fixup" && (strings.HasPrefix(v, "amend:") || strings.HasPrefix(v, "reword:")) {
			name = "edit" // they edit the message
		}
		has[name] = f.src
	}
	first := func(names ...string) string {
		for _, n := range names {
			if src, ok := has[n]; ok {
				return src
			}
		}
		return ""
	}
	op := ""
	if len(ops) > 0 && ops[0].static() {
		op = ops[0].value()
	}
	message := first("message", "file", "reuse-message")
	edit := first("edit", "edit-description", "edit-todo")
	switch {
	case (sub == "commit" || sub == "notes") && edit == "":
		edit = first("reedit-message") // elsewhere -c copies (branch -c)
	case sub == "config" && op == "edit":
		edit = op
	case sub == "merge" && edit == "":
		edit = first("continue") // it commits with the message it made, in an editor
	case (sub == "rebase" || sub == "am") && edit == "":
		edit = first("interactive")
	}
	hunks := first("patch", "interactive")
	if sub == "stash" && op != "" && op != "push" && op != "save" {
		hunks = "" // stash show -p shows a patch
	}
	switch {
	case sub == "help" && first("web") != "":
		return first("web") + " starts a browser (help.browser, web.browser), a program bn does not check"
	case sub == "help" && first("info") != "":
		return first("info") + " runs info"
	case sub == "notes" && op == "edit":
		return "edit " + gitEditorStarts + "; use git notes add -f -m"
	case sub == "notes" && op != "add" && op != "append":
	case edit != "" && (sub == "commit" || sub == "tag"):
		return edit + " " + gitEditorStarts + "; give the message with -m or -F"
	case edit != "" && slices.Contains(gitEditors, sub):
		return edit + " " + gitEditorStarts
	case slices.Contains(gitHunks, sub) && hunks != "":
		return hunks + " " + gitAsksHunks
	case sub == "notes" && message == "":
		return op + " without -m, -F or -C " + gitEditorStarts + "; give the note with -m or -F"
	case sub == "commit" && message == "" && first("no-edit", "fixup", "dry-run") == "":
		return "without -m, -F or -C " + gitEditorStarts + "; give the message with -m or -F"
	case sub == "tag" && message == "" && first("annotate", "sign", "local-user") != "" && first("list", "delete", "verify") == "":
		return first("annotate", "sign", "local-user") + " without -m or -F " + gitEditorStarts + "; give the message with -m or -F"
	}
	return ""
}

// gitGrepPager: git grep -O/--open-files-in-pager runs its pager on the
// files it found, through the shell, as sh -c runs a line: under a shell
// allowed whole the pager it names is decided as a line of its own.
// Without one it runs the pager git's configuration names, which git's
// note reports. An -O word not known before the line runs is refused.
// false when it refused.
func gitGrepPager(w *walker, c call, fs []found, maybe []word) bool {
	for _, m := range maybe {
		if strings.HasPrefix(m.src, "-O") || strings.HasPrefix(m.src, "--o") {
			w.refuse(refused(c.text, "%s %s may run a pager not known before the line runs, which %s could refuse; name the pager", c.name, m.src, w.holds()))
			return false
		}
	}
	for _, f := range fs {
		if f.o.long != "open-files-in-pager" && f.o.short != 'O' || !f.has {
			continue
		}
		line, ok := joinStatic([]word{f.value})
		if !ok {
			w.refuse(refused(c.text, "%s %s runs a pager not known before the line runs, which %s could refuse; name the pager", c.name, spelt(f), w.holds()))
			return false
		}
		if w.subline(line, c.text, c.d); w.stopped() {
			return false
		}
	}
	return true
}

// gitWrites decides, under a shell allowed whole, the files git's
// options write (--output, archive -o). Under patterns options decided
// these.
func gitWrites(w *walker, c call, fs []found) bool {
	for _, f := range fs {
		if f.o.eff == writeOpt && f.has {
			w.writeArg(c.text, c.name+" "+strings.SplitN(f.src, "=", 2)[0], agents.KindCreate, f.value, c.d)
		}
		if w.stopped() {
			return false
		}
	}
	return true
}

// gitFiles decides the files git's subcommands write through their
// operands and the directories they write files in (format-patch -o,
// mailsplit -o, bugreport, commit-graph --object-dir), under patterns
// and under a shell allowed whole alike. false when it refused.
func gitFiles(w *walker, c call, sub string, fs []found, ops []word) bool {
	has := func(long string) bool {
		return slices.ContainsFunc(fs, func(f found) bool { return f.o.long == long })
	}
	here := true // the subcommand writes in the working directory when no option names one
	for _, f := range fs {
		if f.o.eff == dirWriteOpt && f.has {
			here = false
			if !gitDirWrite(w, c, c.name+" "+spelt(f), "in "+f.value.src, f.value) {
				return false
			}
		}
	}
	switch {
	case sub == "mailinfo":
		// git mailinfo MSG PATCH: the message and the patch it reads from
		// its input.
		for _, op := range ops[:min(2, len(ops))] {
			w.writeArg(c.text, c.name, agents.KindCreate, op, c.d)
		}
	case sub == "interpret-trailers" && has("in-place"):
		for _, op := range ops {
			w.writeArg(c.text, c.name+" --in-place", agents.KindEdit, op, c.d)
		}
	case sub == "index-pack":
		// Beside PACK: its index, reverse index, .keep and .promisor, and
		// PACK itself when it reads the pack from its input.
		for _, op := range ops {
			base, ok := strings.CutSuffix(op.value(), ".pack")
			if !op.static() || !ok {
				w.writeArg(c.text, c.name, agents.KindCreate, op, c.d)
				continue
			}
			exts := []string{".idx", ".rev", ".keep", ".promisor"}
			if slices.ContainsFunc(fs, func(f found) bool { return f.o.short == 'o' }) { // it names the index, and the reverse index beside it
				exts = exts[2:]
			}
			if has("stdin") {
				w.writeArg(c.text, c.name, agents.KindCreate, op, c.d)
			}
			for _, ext := range exts {
				w.writeArg(c.text, c.name, agents.KindCreate, literal(base+ext), c.d)
			}
		}
	case sub == "pack-objects" && !has("stdout") && len(ops) > 0:
		return gitDirWrite(w, c, c.name, "whose names start with "+ops[0].src+"-", ops[0])
	case here && (sub == "format-patch" && !has("stdout") || sub == "bugreport" || sub == "diagnose" || sub == "unpack-file"):
		return gitDirWrite(w, c, c.name, "in .", literal("."))
	}
	return !w.stopped()
}

// gitDirWrite: git writes files in a directory, or beside a name (where
// says which), under names bn does not know before the line runs:
// refused where the rules limit what the agent may create, recorded for
// the hook's guard as a write of dir otherwise. false when it refused.
func gitDirWrite(w *walker, c call, what, where string, dir word) bool {
	if w.e.limits(agents.KindCreate) {
		w.refuse(refused(c.text, "%s writes files %s under names bn does not know before the line runs, and the rules limit what the agent may create; write to standard output (--stdout) and redirect it to a file, or run it where the agent may create every file", what, where))
		return false
	}
	w.seen(agents.KindCreate, what, dir, c.d)
	return !w.stopped()
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
	for _, dir := range d.at {
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
