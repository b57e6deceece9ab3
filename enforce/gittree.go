package enforce

import (
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// git's subcommands that write files of the working tree. Those that
// write the paths they are given (checkout and restore of paths, mv, rm)
// are decided path by path; the others write whatever the commits,
// patches or stashes they take hold (reset --hard, merge, apply), which
// bn cannot know before the line runs.

// gitTreeAny says why a git subcommand (with its arguments) writes files
// of the working tree bn cannot name, or "" when it writes none or only
// the paths it is given.
func gitTreeAny(sub string, flags, ops []string) string {
	has := func(names ...string) bool { return gitHas(flags, names...) }
	first := ""
	if len(ops) > 0 {
		first = ops[0]
	}
	switch sub {
	case "apply":
		if has("--cached") && !has("--index") || !has("--apply") && has("--check", "--stat", "--numstat", "--summary") {
			return ""
		}
		return "git apply writes whatever files its patch names"
	case "am":
		if has("--show-current-patch") {
			return ""
		}
		return "git am writes whatever files its patches name"
	case "reset":
		if has("--hard", "--merge", "--keep") {
			return "git reset --hard (--merge, --keep) writes every file that differs from the commit it resets to"
		}
		return ""
	case "stash":
		switch first {
		case "list", "show", "drop", "clear", "create", "store":
			return ""
		}
		return "git stash writes the files it saves or brings back"
	case "merge", "pull", "cherry-pick", "revert", "rebase":
		return "git " + sub + " writes whatever files the commits it takes change"
	case "merge-recursive", "merge-recursive-ours", "merge-recursive-theirs", "merge-subtree", "merge-resolve", "merge-octopus":
		// git merge's back ends, run on their own.
		return "git " + sub + " writes whatever files the commits it merges change"
	case "quiltimport":
		if has("-n", "--dry-run") {
			return ""
		}
		return "git quiltimport writes whatever files its patches name"
	case "clean":
		if has("-n", "--dry-run") {
			return ""
		}
		return "git clean removes files it finds untracked, which bn does not know before the line runs"
	case "bisect":
		switch first {
		case "log", "visualize", "view", "terms", "help":
			return ""
		}
		return "git bisect checks out the commits it tries"
	case "read-tree":
		if has("-u") {
			return "git read-tree -u writes the files of the tree it reads"
		}
		return ""
	case "checkout-index":
		return "git checkout-index writes the files of the index"
	case "sparse-checkout":
		if first == "list" {
			return ""
		}
		return "git sparse-checkout adds and removes files of the working tree"
	case "submodule":
		switch first {
		case "", "status", "summary", "foreach":
			return ""
		}
		return "git submodule " + first + " writes the submodules' files"
	case "worktree":
		switch first {
		case "list", "lock", "unlock", "prune", "repair":
			return ""
		}
		return "git worktree " + first + " writes a working tree's files"
	case "merge-file":
		if has("-p", "--stdout") {
			return ""
		}
		return "git merge-file writes the merge into its first file"
	case "lfs":
		switch {
		case slices.Contains([]string{"", "ls-files", "status", "env", "version", "help", "logs", "locks", "ext", "pointer", "fsck"}, first),
			first == "track" && len(ops) == 1:
			return ""
		}
		return "git lfs " + first + " writes git's configuration, hooks, .gitattributes or files of the working tree"
	case "filter-repo", "filter-branch":
		return "git " + sub + " rewrites history and the files checked out"
	}
	return ""
}

// gitTree decides the files of the working tree a git subcommand writes:
// the paths checkout, restore, mv and rm are given, as writes of those
// paths (a directory: of every file under it), and what the others write
// (gitTreeAny), which bn cannot name: refused where the rules limit
// edits, recorded for the hook's guard otherwise. rest are the words
// after the subcommand; moved says why the working tree is not where git
// runs (--work-tree, GIT_WORK_TREE=…), "" when it is. false when it
// refused.
func gitTree(w *walker, c call, sub string, rest []word, moved string) bool {
	var flags []string
	var ops []word
	dashed, dashAt := false, 0 // after "--": operands only, from ops[dashAt]
	valued := false            // the word is the value of the option before it
	for _, a := range rest {
		if valued {
			valued = false
			continue
		}
		// A word with a pattern character is still one word here (HEAD~1):
		// as a path it is decided below as a pattern.
		known := len(a.vals) == 1
		v := ""
		if known {
			v = a.vals[0]
		}
		switch {
		case dashed:
			ops = append(ops, a)
		case !known && a.option && gitTreeSubs[sub]:
			return w.unknownWrite(c, fmt.Sprintf("the argument %s of git %s is not known before the line runs and may be an option that writes files", a.src, sub))
		case !known:
			ops = append(ops, a)
		case v == "--":
			dashed, dashAt = true, len(ops)
		case strings.HasPrefix(v, "-") && v != "-":
			fl := gitFlags(sub, v)
			flags = append(flags, fl...)
			// An option that takes the next word when none is glued: a
			// start point after it is then read as the operand it is.
			valued = slices.Contains(gitValued[sub], fl[len(fl)-1])
		default:
			ops = append(ops, a)
		}
	}
	opValues := make([]string, len(ops))
	for i, o := range ops {
		if len(o.vals) == 1 {
			opValues[i] = o.vals[0]
		}
	}
	has := func(names ...string) bool { return gitHas(flags, names...) }
	var paths []word
	why := gitTreeAny(sub, flags, opValues)
	switch sub {
	case "checkout":
		// git checkout BRANCH switches; git checkout [REV] [--] PATH…
		// writes the paths. Without "--", one operand may be either.
		switch {
		case has("--pathspec-from-file"):
			why = "git checkout --pathspec-from-file writes the paths a file names"
		case dashed:
			paths = ops[dashAt:] // a commit may stand before "--"
		case len(ops) >= 2:
			// The first is a commit, or a path where it names none (git
			// refuses a name that is both): a name too many is checked,
			// unless it is written as a commit (HEAD~1, main^).
			paths = ops
			if strings.ContainsAny(opValues[0], "~^") {
				paths = ops[1:]
			}
		case len(ops) == 0 && has("-b", "-B", "--orphan") && !has("-f", "--force"):
			// A new branch where HEAD is: no file changes. Forced, git
			// still discards every local change.
		case len(ops) == 0 && has("-f", "--force", "-m", "--merge"):
			why = gitLine(sub, rest) + " writes every file that differs from HEAD"
		case len(ops) == 1 || has("-b", "-B", "--orphan", "--detach"):
			why = gitLine(sub, rest) + " may switch branches, which writes every file that differs there"
		}
	case "switch":
		// A new branch where HEAD is (-c, -C) changes no file unless
		// forced; --orphan, unlike checkout's, empties the working tree.
		switch {
		case len(ops) > 0 || !has("-c", "-C", "--create", "--force-create"):
			why = "git switch writes every file that differs on the branch it switches to"
		case has("-f", "--force", "--discard-changes"):
			why = gitLine(sub, rest) + " writes every file that differs from HEAD"
		}
	case "restore":
		switch {
		case has("--pathspec-from-file"):
			why = "git restore --pathspec-from-file writes the paths a file names"
		case has("-S", "--staged") && !has("-W", "--worktree"):
		default:
			paths = ops
		}
	case "mv":
		if !has("-n", "--dry-run") {
			paths = ops
		}
	case "rm":
		if !has("-n", "--dry-run", "--cached") {
			paths = ops
		}
	case "clone":
		// git clone REPO [DIR]: DIR, or a directory named after REPO,
		// and its .git (a bare clone is DIR itself); REPO is only read.
		// Read with clone's table, which names every option that takes a
		// value (one it does not name is refused under patterns). With an
		// option it does not name, or a word not known now that may be
		// one, a value may read as an operand: every operand, and the
		// name each would give the clone, is written.
		spec := gitTable("clone")
		_, cops, maybe := gitOpts(spec, rest)
		_, _, _, unknown := scanOpts(spec, rest, false, false)
		var made []word
		switch {
		case len(maybe) == 0 && len(unknown) == 0 && len(cops) == 2:
			made = cops[1:]
		case len(maybe) == 0 && len(unknown) == 0 && len(cops) == 1:
			made = []word{cops[0]}
			if len(cops[0].vals) == 1 {
				made[0] = literal(cloneName(cops[0].vals[0], has("--bare", "--mirror")))
			}
		default:
			for _, o := range ops {
				made = append(made, o)
				if len(o.vals) == 1 {
					made = append(made, literal(cloneName(o.vals[0], has("--bare", "--mirror"))))
				}
			}
		}
		for _, m := range made {
			if len(m.vals) != 1 {
				paths = append(paths, m) // refused as a name bn does not know
				continue
			}
			v := strings.TrimRight(filepath.ToSlash(m.vals[0]), "/")
			paths = append(paths, literal(v))
			if !has("--bare", "--mirror") {
				paths = append(paths, literal(path.Join(v, ".git")))
			}
		}
	case "init":
		// git init [DIR]: its repository, .git in DIR or here (with
		// --bare, DIR itself).
		for _, o := range ops {
			switch {
			case has("--bare"):
				paths = append(paths, o)
			case len(o.vals) == 1:
				paths = append(paths, literal(path.Join(filepath.ToSlash(o.vals[0]), ".git")))
			default:
				paths = append(paths, o) // refused as a name bn does not know
			}
		}
		if len(ops) == 0 {
			paths = []word{literal(".git")}
		}
	}
	if sub == "init" || sub == "clone" {
		// --separate-git-dir=DIR (by any prefix git takes) makes the
		// repository in DIR, or moves it there; given as the next word,
		// DIR is one of the operands, each then written whole.
		for _, f := range flags {
			name, v, hasVal := strings.Cut(f, "=")
			if len(name) < 4 || !strings.HasPrefix("--separate-git-dir", name) {
				continue
			}
			if hasVal {
				paths = append(paths, literal(v))
				continue
			}
			paths = append(paths, ops...)
		}
	}
	switch sub {
	case "bundle":
		if len(opValues) >= 2 && opValues[0] == "create" {
			paths = ops[1:2]
		}
	case "merge-one-file":
		// git merge-one-file ORIG OURS THEIRS PATH MODES…: the merge into PATH.
		if len(ops) < 4 {
			why = "git merge-one-file writes the path it is given, which bn does not see here"
		} else {
			paths = ops[3:4]
		}
	}
	if why == "" && moved != "" && len(paths) > 0 {
		why = moved + ", so bn cannot tell where " + c.name + " writes its paths"
	}
	if moved == "" && (why != "" || len(paths) > 0) {
		// Moved where the line starts, git writes there whatever it writes.
		if start := w.e.gitStart(); start != "" {
			why = start
		}
	}
	if why != "" {
		return w.unknownWrite(c, why)
	}
	for _, p := range paths {
		v := ""
		if len(p.vals) == 1 {
			v = p.vals[0]
		}
		if v == "" || strings.HasPrefix(v, ":") || strings.ContainsAny(v, "*?[") || p.glob && strings.ContainsAny(p.src, "*?[") {
			if !w.unknownWrite(c, fmt.Sprintf("%s writes the files the pathspec %s matches, which bn does not know before the line runs", c.name, p.src)) {
				return false
			}
			continue
		}
		if !w.treeWrite(c, literal(v)) {
			return false
		}
	}
	return true
}

// gitFlags is the option v of git's subcommand sub as git reads it with
// the subcommand's table (gitOptionTables): a long option by the prefix
// written (git reset --har is --hard), a cluster of letters as each
// letter up to one that takes a value, written with the rest of the word
// as its value after '=' (git read-tree -mu is -m -u, git restore -WsHEAD
// is -W -s=HEAD); v itself for a subcommand with no table.
func gitFlags(sub, v string) []string {
	table := gitTable(sub)
	if table == nil {
		return []string{v}
	}
	if long, ok := strings.CutPrefix(v, "--"); ok {
		name, value, valued := strings.Cut(long, "=")
		if o := matchLong(table, name); o != nil {
			v = "--" + o.long
			if valued {
				v += "=" + value
			}
		}
		return []string{v}
	}
	var out []string
	for i := 1; i < len(v); i++ {
		f := "-" + v[i:i+1]
		if o := matchShort(table, v[i]); o != nil && o.arg != noArg {
			if i+1 < len(v) {
				f += "=" + v[i+1:]
			}
			return append(out, f)
		}
		out = append(out, f)
	}
	return out
}

// gitLine is git's subcommand sub with its arguments as written, for a
// reason.
func gitLine(sub string, rest []word) string {
	line := "git " + sub
	for _, a := range rest {
		line += " " + a.src
	}
	return line
}

// gitHas says whether flags hold one of names: a letter also in a
// cluster of a subcommand with no table (gitFlags splits the others).
func gitHas(flags []string, names ...string) bool {
	return slices.ContainsFunc(flags, func(f string) bool {
		name, _, _ := strings.Cut(f, "=")
		return slices.Contains(names, name) || len(name) > 1 && name[1] != '-' && slices.ContainsFunc(names, func(n string) bool {
			return len(n) == 2 && n[1] != '-' && strings.ContainsRune(name[1:], rune(n[1]))
		})
	})
}

// cloneName is the directory git clone makes for a repository it is
// given no directory for, as git's git_url_basename guesses it: the last
// part of its path or URL (after a "/" or, host:path, a ":") once a
// trailing "/.git" is cut (r/.git makes r), without ".git" or ".bundle";
// a bare clone's (--bare, --mirror) ends in ".git".
func cloneName(repo string, bare bool) string {
	v := strings.TrimRight(filepath.ToSlash(repo), "/")
	v = strings.TrimRight(strings.TrimSuffix(v, "/.git"), "/")
	if i := strings.LastIndexAny(v, "/:"); i >= 0 {
		v = v[i+1:]
	}
	if name, ok := strings.CutSuffix(v, ".git"); ok {
		v = name
	} else {
		v = strings.TrimSuffix(v, ".bundle")
	}
	if bare {
		v += ".git"
	}
	return v
}

// gitTreeSubs are the subcommands whose options decide whether, or
// which, files of the working tree they write.
var gitTreeSubs = map[string]bool{"checkout": true, "restore": true, "mv": true, "rm": true, "reset": true, "apply": true, "am": true, "quiltimport": true,
	"stash": true, "clean": true, "read-tree": true, "merge-file": true, "bisect": true, "sparse-checkout": true, "submodule": true, "worktree": true}

// gitTreeNoLinks are the subcommands that write the working tree but
// bring no link into it: they remove files, or write a repository or a
// merge of text.
var gitTreeNoLinks = []string{"rm", "clean", "init", "bundle", "merge-file"}

// unknownWrite is a write of working-tree files git makes that bn
// cannot name (unnamedWrite).
func (w *walker) unknownWrite(c call, why string) bool {
	return w.unnamedWrite(c, why, "files of the working tree",
		"run it where the agent may change every file, or name the files (git checkout REV -- FILE, git show REV:FILE > FILE)")
}

// treeWrite is a write of a path git is given: a file, or every file
// under a directory.
func (w *walker) treeWrite(c call, p word) bool {
	for _, dir := range c.d.at {
		if dir == "" {
			if !w.unknownWrite(c, fmt.Sprintf("%s writes %s, a relative path after a cd bn cannot follow", c.name, p.src)) {
				return false
			}
			continue
		}
		pl, err := w.e.locate(p.value(), dir)
		if err != nil {
			w.refuse(refused(c.text, "bn could not resolve %s (%v), so %s is refused", p.value(), err, c.name))
			return false
		}
		fi, err := w.e.ctx.FS.Lstat(pl.resolved)
		if err != nil || !fi.IsDir() {
			if w.file(agents.KindEdit, c.name, p, dirsOf(dir), false); w.stopped() {
				return false
			}
			continue
		}
		if w.e.limits(agents.KindEdit) || w.e.limits(agents.KindCreate) {
			w.refuse(refused(c.text, "%s writes every file under %s, which bn does not list before the line runs, and the rules limit what the agent may change; name the files", c.name, p.value()))
			return false
		}
		w.accesses = append(w.accesses, Access{Kind: agents.KindEdit, Path: p.value(), Resolved: pl.resolved, Tree: true})
	}
	return true
}
