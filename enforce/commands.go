package enforce

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"mvdan.cc/sh/v3/syntax"
)

// call walks a simple command: its assignments, its words, then the
// decision on it; it returns the directories it leaves the shell in (cd).
func (w *walker) call(c *syntax.CallExpr, d dirs) (ok, all dirs) {
	for _, a := range c.Assigns {
		w.assign(a)
	}
	if w.stopped() {
		return d, d
	}
	if len(c.Args) == 0 {
		w.cmds++
		if w.mode == limited {
			w.fail("%s sets a variable, which can change what later commands run; the patterns do not name it", w.src(c))
		}
		return d, d
	}
	words := make([]word, len(c.Args))
	for i, a := range c.Args {
		r := argWord
		if i == 0 {
			r = commandWord
		}
		words[i] = w.word(a, r)
	}
	if w.stopped() {
		return d, d
	}
	w.cmds++
	text := w.src(c)
	w.setsByCommand(words)
	switch w.mode {
	case limited:
		for _, a := range c.Assigns {
			if !safeAssignment(a) {
				w.refuse(refused(text, "%s before the command can change what it runs (GIT_EXTERNAL_DIFF, PAGER, LD_PRELOAD, …); under patterns bn allows only %s there",
					w.src(a), strings.Join(safeAssignmentNames, ", ")))
				return d, d
			}
		}
		w.limitedCommand(text, words, d, false)
	case open:
		w.openCommand(text, words, d, 0)
	case free:
		w.freeCommand(text, words, d)
	}
	if w.stopped() {
		return d, d
	}
	if w.movesUnseen(words) {
		return unknownDirs(), d.union(unknownDirs())
	}
	if to := cdProcess(words, d); to != "" && (w.mode == limited || w.limitsReads()) {
		w.refuse(refused(text, "cd %s goes to a directory of the shell's own process (/proc/self, /dev/fd), which bn cannot place, so what the line names after it is not checked against the rules; cd to the directory itself", to))
		return d, d
	}
	return w.e.cdDirs(words, d, w.cdpath)
}

// cdProcess is the directory a cd or pushd goes to through /proc/self,
// /proc/PID or /dev/fd (processPath), or "".
func cdProcess(words []word, d dirs) string {
	if v := words[0].value(); v != "cd" && v != "pushd" {
		return ""
	}
	for _, a := range words[1:] {
		for _, x := range d.at {
			if full, ok := absolute(a.value(), x); ok && a.static() && processPath(filepath.Clean(full)) {
				return a.value()
			}
		}
	}
	return ""
}

// define notes a function or alias the line makes.
func (w *walker) define(name string) {
	if w.defined == nil {
		w.defined = map[string]bool{}
	}
	w.defined[name] = true
}

// movesUnseen says whether a command may change the shell's directory
// by a road cdDirs does not follow: eval, source and trap run lines
// (a DEBUG trap before every later command), command and builtin run
// cd, and a function or alias the line made runs what it holds. The
// directory after it is one bn cannot know.
func (w *walker) movesUnseen(words []word) bool {
	name := baseName(words[0].value())
	if name == "alias" {
		for _, a := range words[1:] {
			if n, _, ok := strings.Cut(a.value(), "="); ok {
				w.define(n)
			}
		}
	}
	switch name {
	case "eval", "source", ".", "trap":
		return true
	case "command", "builtin":
		for i, a := range words[1:] {
			if !a.static() || !strings.HasPrefix(a.value(), "-") {
				return w.movesUnseen(words[1+i:]) || slices.Contains([]string{"cd", "pushd", "popd"}, a.value())
			}
		}
	}
	return !words[0].static() || w.defined[words[0].value()]
}

// freeCommand finds, under a shell allowed whole with nothing of it
// denied and no write limited, the files a command writes through
// arguments bn knows, as a walk under denies does (through runners,
// sh -c, sed -i, cp's operands): the rules limit no write, but the
// hook's guard sees them. It refuses only what a deny rule names, which
// here is a deny of reading a file the command names (cat .env, git
// show HEAD:.env): nothing a command could hide is denied.
func (w *walker) freeCommand(text string, words []word, d dirs) {
	sub := &walker{e: w.e, mode: open, line: w.line, dflt: w.dflt, depth: w.depth, gitEnv: w.gitEnv, goEnv: w.goEnv, gitFileEnv: w.gitFileEnv, backupEnv: w.backupEnv, cdpath: w.cdpath, defined: w.defined}
	sub.openCommand(text, words, d, 0)
	if sub.stop != nil && sub.stop.List == "deny" {
		w.refuse(*sub.stop)
		return
	}
	for _, l := range sub.links {
		own := make([]int, len(l.own))
		for i, o := range l.own {
			own[i] = len(w.accesses) + o
		}
		l.own = own
		w.links = append(w.links, l)
	}
	w.accesses = append(w.accesses, sub.accesses...)
}

// setsByCommand notes the variables builtins set from input or words:
// read, mapfile, getopts, printf -v, select, set -- (the positional
// parameters).
func (w *walker) setsByCommand(words []word) {
	switch words[0].value() {
	case "unset", "let", "integer", "float", "typeset", "declare", "local", "export", "readonly":
		w.namedSets = true
	case "read", "mapfile", "readarray", "getopts", "printf", "print", "vared", "select":
		w.namedSets = true
		for _, a := range words[1:] {
			if v := a.value(); syntax.ValidName(v) {
				w.setsText(v)
			}
		}
		w.setsText("REPLY")
	case "set":
		w.setsText("1")
	}
}

// safeAssignmentNames may be set before a command under patterns: they
// change how a program prints, not what it runs.
var safeAssignmentNames = []string{"LC_ALL", "LANG", "LANGUAGE", "TZ", "NO_COLOR", "TERM", "COLUMNS", "LINES", "GIT_PAGER=cat", "PAGER=cat"}

// plainValue says whether a value holds only letters, digits and
// _.@:+- (a locale, a time zone, a terminal name, a number).
func plainValue(s string) bool {
	for _, c := range []byte(s) {
		ok := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_.@:+-", c) >= 0
		if !ok {
			return false
		}
	}
	return true
}

func safeAssignment(a *syntax.Assign) bool {
	if a.Name == nil || a.Index != nil || a.Array != nil || a.Append || a.Naked {
		return false
	}
	v := ""
	if a.Value != nil {
		var ok bool
		if v, ok = staticLit(a.Value); !ok {
			return false
		}
	}
	return safeEnv(a.Name.Value, v)
}

// staticLit is a word's value when it is plain text, quoted or not.
func staticLit(wd *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range wd.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			if strings.ContainsAny(x.Value, "\\*?[~$") {
				return "", false
			}
			b.WriteString(x.Value)
		case *syntax.SglQuoted:
			if x.Dollar {
				return "", false
			}
			b.WriteString(x.Value)
		default:
			return "", false
		}
	}
	return b.String(), true
}

// cdDirs follows cd, pushd and popd: a cd to a word bn knows moves the
// shell there if it succeeds; anything else leaves it unknown. cd -P
// goes where the symlinks on the way lead (.. taken after them), plain
// cd and cd -L take .. off the path as written, as bash and zsh do.
// cdpath: a CDPATH may be set, and a relative name other than ./x or
// ../x is looked for there first.
func (e *engine) cdDirs(words []word, d dirs, cdpath bool) (ok, all dirs) {
	switch words[0].value() {
	case "cd", "pushd":
	case "popd":
		return unknownDirs(), d.union(unknownDirs())
	default:
		return d, d
	}
	args := words[1:]
	physical := false
	for len(args) > 0 && args[0].static() && (args[0].value() == "-L" || args[0].value() == "-P" || args[0].value() == "-e") {
		physical = physical || args[0].value() == "-P"
		args = args[1:]
	}
	if len(args) > 0 && args[0].value() == "--" {
		args = args[1:]
	}
	var to string
	switch {
	case len(args) == 0:
		to = e.ctx.Home
	case len(args) == 1 && args[0].static() && args[0].value() != "-" && !strings.HasPrefix(args[0].value(), "+") && !strings.HasPrefix(args[0].value(), "-"):
		to = args[0].value()
	default:
		return unknownDirs(), d.union(unknownDirs())
	}
	if to == "" || cdpath && !filepath.IsAbs(to) && !dotted(to) {
		return unknownDirs(), d.union(unknownDirs())
	}
	// The directory a cd leaves is the previous one ("~-") once it
	// succeeds.
	next := dirs{prev: d.at}
	for _, x := range d.at {
		full, ok := absolute(to, x)
		if !ok {
			next.at = unionOf(next.at, []string{""})
			continue
		}
		if physical {
			pl, err := e.locate(to, x)
			if err != nil {
				next.at = unionOf(next.at, []string{""})
				continue
			}
			full = pl.resolved
		}
		if processPath(filepath.Clean(full)) {
			next.at = unionOf(next.at, []string{""}) // the shell's own, not bn's
			continue
		}
		next.at = unionOf(next.at, []string{filepath.Clean(full)})
	}
	return next, d.union(next)
}

// dotted: a relative path cd takes from the working directory whatever
// CDPATH holds (., .., ./x, ../x).
func dotted(p string) bool {
	for _, pre := range []string{"./", "../", ".\\", "..\\"} {
		if strings.HasPrefix(p, pre) {
			return true
		}
	}
	return p == "." || p == ".."
}

// builtins run nothing and change nothing but the shell's directory:
// allowed wherever the shell is allowed, unless a deny names them.
var builtins = []string{"cd", "pushd", "popd", "dirs", "pwd", "true", "false", "echo", ":"}

// limitedCommand decides a command under patterns: a plain command word,
// no deny, an allow pattern, and nothing the program itself would run or
// write that the rules do not allow. run: a runner runs it (env cd runs
// the program cd, not the builtin).
func (w *walker) limitedCommand(text string, words []word, d dirs, run bool) {
	cw := words[0]
	if !cw.static() {
		w.refuse(refused(text, "the command word %s is not a plain word (it holds an expansion, a pattern or a ~), so bn cannot tell what runs; write the command name itself", cw.src))
		return
	}
	name := cw.value()
	if why := codeBuiltin(name, words); why != "" {
		w.refuse(refused(text, "%s", why))
		return
	}
	if dec, hit := w.denyHit(text, words, d); hit {
		w.refuse(dec)
		return
	}
	if slices.Contains(builtins, name) && !run {
		if w.last.Rule == "" {
			w.last = Decision{List: "builtin", Command: text, Reason: fmt.Sprintf("%s runs nothing: allowed wherever the shell is", name)}
		}
		return
	}
	norm := normalizeForAllow(words)
	var hit *rule
	for i := range w.e.allow {
		r := &w.e.allow[i]
		if !r.bad && r.sh.set && r.sh.allows(norm) {
			hit = r
			break
		}
	}
	if hit == nil {
		if p := w.lookup(name); p != nil && p.custom != nil && w.namesProgram(name) {
			// Its own checks say better why it is refused.
			p.check(w, text, words, d)
			if w.stopped() {
				return
			}
		}
		reason := "no allow rule matches"
		if strings.ContainsAny(name, "/\\") {
			reason += fmt.Sprintf(" (a pattern names a command, not a path: %s is not %s)", name, filepath.Base(name))
		}
		w.refuse(refused(text, "%s", reason))
		return
	}
	if w.namedUnreadable(text, words, d); w.stopped() {
		return
	}
	if p := w.program(cw, d); p != nil {
		p.check(w, text, words, d)
		w.argWrites(text, p, words, d)
		if w.stopped() {
			return
		}
		if p.note != "" {
			w.advise(p.note)
		}
	}
	w.last = w.e.allowed(*hit, text)
}

// namesProgram reports whether an allow pattern starts with name.
func (w *walker) namesProgram(name string) bool {
	return slices.ContainsFunc(w.e.allow, func(r rule) bool {
		return r.sh.set && (len(r.sh.words) > 0 && r.sh.words[0] == name || r.sh.first == name)
	})
}

// openCommand decides a command under a shell allowed whole with denies:
// the command, and every command it runs that bn can see (runners,
// sh -c, eval), is matched against the denies; what would hide a
// command from them is refused.
func (w *walker) openCommand(text string, words []word, d dirs, depth int) {
	if depth > 8 {
		w.fail("%s runs commands through more than 8 runners; bn does not follow them", text)
		return
	}
	cw := words[0]
	if !cw.static() {
		w.refuse(refused(text, "the command word %s is not known before the line runs, and it could be one %s refuse; write the command itself", cw.src, w.holds()))
		return
	}
	if dec, hit := w.denyHit(text, words, d); hit {
		w.refuse(dec)
		return
	}
	if w.namedUnreadable(text, words, d); w.stopped() {
		return
	}
	name := baseName(cw.value())
	if why := codeBuiltin(name, words); why != "" {
		switch name {
		case "eval":
			if line, ok := joinStatic(words[1:]); ok {
				w.subline(line, text, d)
				return
			}
			w.refuse(refused(text, "eval of words not known before the line runs could run what %s refuse; run the command itself", w.holds()))
			return
		case "source", ".":
			w.advise("source and . run a script bn does not read: deny rules cannot see inside it")
		default:
			w.refuse(refused(text, "%s", why))
			return
		}
	}
	if p := w.program(cw, d); p != nil {
		p.see(w, text, words, d, depth)
		w.argWrites(text, p, words, d)
	}
	if !w.stopped() {
		w.last = w.dflt
		w.last.Command = text
	}
}

// subline decides a command line held in a word (eval, sh -c) as part
// of the line around it.
func (w *walker) subline(line, text string, d dirs) {
	if !w.enter() {
		return
	}
	defer w.leave()
	f, err := parse(line, syntax.LangBash)
	if err != nil {
		w.refuse(refused(text, "%s runs %q, which does not parse as bash (%v)", text, line, err))
		return
	}
	save := w.line
	w.line = line
	// Another shell (sh -c) may not have the previous directory this
	// one has ($OLDPWD need not be exported; sh has no "~-").
	w.stmts(f.Stmts, dirs{at: d.at, prev: []string{""}})
	w.line = save
}

// joinStatic joins words known now with spaces, as eval does.
func joinStatic(ws []word) (string, bool) {
	out := make([]string, 0, len(ws))
	for _, x := range ws {
		if !x.static() {
			return "", false
		}
		out = append(out, x.value())
	}
	return strings.Join(out, " "), true
}

// holds names what a line under a shell allowed whole is held to.
func (w *walker) holds() string {
	if l := w.denyList(); l != "" {
		return "the deny rules (" + l + ")"
	}
	return "the rules on where the agent writes"
}

func (w *walker) denyList() string {
	var out []string
	for _, r := range w.e.deny {
		if r.sh.set {
			out = append(out, r.text)
		}
	}
	return strings.Join(out, ", ")
}

// denyHit matches a command against the deny rules, as the shell would
// run it: its command word's base name, in any case.
func (w *walker) denyHit(text string, words []word, d dirs) (Decision, bool) {
	norm := normalizeForDeny(words)
	if dec, hit := w.denyMatch(text, norm); hit {
		return dec, true
	}
	if twin, ok := removers[norm[0].value()]; ok && norm[0].static() {
		if dec, hit := w.denyMatch(text, append([]word{literal(twin)}, norm[1:]...)); hit {
			dec.Reason = fmt.Sprintf("%s removes files as %s does: %s", norm[0].value(), twin, dec.Reason)
			return dec, true
		}
	}
	if del, ok := deleters[norm[0].value()]; ok && norm[0].static() {
		if how := del(norm[1:]); how == "rmdir" {
			// rmdir(2) is not unlink(2): it removes as rm -d does.
			if dec, hit := w.denyMatch(text, []word{literal("rm"), literal("-d"), literal("--"), dynamic("{}", false)}); hit {
				dec.Reason = "rmdir removes directories as rm does: " + dec.Reason
				return dec, true
			}
		} else if how != "" {
			if dec, hit := w.removesAsRm(text); hit {
				dec.Reason = how + " removes files as rm and unlink do: " + dec.Reason
				return dec, true
			}
		}
	}
	if dec, hit := w.removesAsRm(text); hit {
		if how := w.destroys(norm, d); how != "" {
			dec.Reason = how + ", destroying a file as rm and unlink do: " + dec.Reason
			return dec, true
		}
	}
	if norm[0].static() && norm[0].value() == "git" && len(norm) > 1 && norm[1].static() {
		if twin, does, ok := gitTwin(norm[1].value()); ok {
			if dec, hit := w.denyMatch(text, append([]word{norm[0], literal(twin)}, norm[2:]...)); hit {
				dec.Reason = fmt.Sprintf("git %s %s as git %s does: %s", norm[1].value(), does, twin, dec.Reason)
				return dec, true
			}
		}
	}
	return Decision{}, false
}

// removers remove the files they name alike (unlink(2)): a deny of one
// holds against the other, as of rm against find -delete.
var removers = map[string]string{"rm": "unlink", "unlink": "rm"}

// deleters are the other programs that remove files, each saying in
// which form ("" when not): a deny of rm or unlink holds against that
// form (removesAsRm), as against find -delete.
var deleters = map[string]func(args []word) string{
	"rmdir": func([]word) string { return "rmdir" },
	"git": func(args []word) string {
		if len(args) > 0 && args[0].value() == "rm" {
			return "git rm"
		}
		return ""
	},
	// shred -u, --remove[=HOW] (--re is enough: getopt_long).
	"shred": deletingOpt("shred", 'u', "--remove", 4),
	// tar --remove-files (--rem).
	"tar": deletingOpt("tar", 0, "--remove-files", 5),
	// zip -m, --move.
	"zip": deletingOpt("zip", 'm', "--move", 6),
	// rsync --remove-source-files (and the old --remove-sent-files).
	"rsync": deletingOpt("rsync", 0, "--remove-", 9),
}

// deletingOpt is a deleters entry for a program whose option removes
// files: short in a cluster of letters, or long (or a prefix of it at
// least min long, with any value).
func deletingOpt(name string, short byte, long string, min int) func([]word) string {
	return func(args []word) string {
		for _, a := range args {
			v := a.value()
			if v == "--" {
				break
			}
			l, _, _ := strings.Cut(v, "=")
			switch {
			case strings.HasPrefix(v, "--") && len(l) >= min && (strings.HasPrefix(long, l) || strings.HasPrefix(l, long)):
				return name + " " + l
			case short != 0 && strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.IndexByte(v, short) > 0:
				return name + " -" + string(short)
			}
		}
		return ""
	}
}

// destroys says how a command destroys a file without removing it by
// name as the deleters do ("" when it does not): a compressor removes
// each file it packs or unpacks (gzip FILE without -k or -c; zstd, lz4
// and brotli only with --rm), truncate cuts a file down, cp, mv, install
// ln -f and rsync replace the file at their destination (replaces). A deny of
// rm or unlink holds against these forms. What bn cannot tell before the
// line runs (a word not known, a directory not known) is taken to
// destroy.
func (w *walker) destroys(norm []word, d dirs) string {
	name := norm[0].value()
	p := w.e.programs[name]
	if !norm[0].static() || p == nil || !p.packs && name != "truncate" && replacers[name] == "" {
		return ""
	}
	fs, ops, maybe := parseOpts(p.options(), norm[1:], false)
	if len(maybe) > 0 {
		return fmt.Sprintf("%s %s is not known before the line runs and may be an option or a file that makes %s destroy a file", name, maybe[0].src, name)
	}
	switch name {
	case "truncate":
		for _, f := range fs {
			switch {
			case f.o.short == 'r' || f.o.long == "reference":
				return fmt.Sprintf("truncate %s sets a file's size to another's, cutting off what lies beyond it", spelt(f))
			case (f.o.short == 's' || f.o.long == "size") && (!f.has || !f.value.static() || !grows(f.value.value())):
				return fmt.Sprintf("truncate %s %s may cut a file down (only +N, >N and %%N grow it)", spelt(f), f.value.src)
			}
		}
		return ""
	case "mv", "cp", "install", "ln", "rsync":
		return w.replaces(name, fs, ops, d)
	}
	for _, f := range fs {
		if f.o.long == "rm" || name == "brotli" && f.o.short == 'j' {
			return fmt.Sprintf("%s %s removes each file it packs or unpacks", name, spelt(f))
		}
	}
	if slices.Contains([]string{"zstd", "unzstd", "lz4", "brotli"}, name) ||
		slices.ContainsFunc(fs, func(f found) bool {
			return slices.Contains([]string{"keep", "stdout", "to-stdout", "test", "list"}, f.o.long) || f.o.short != 0 && strings.IndexByte("kctl", f.o.short) >= 0
		}) ||
		!slices.ContainsFunc(ops, func(o word) bool { return !o.static() || o.value() != "-" }) {
		return ""
	}
	return fmt.Sprintf("%s removes each file it packs or unpacks (keep them with -k, or write to the output with -c)", name)
}

// backsUp: -b or --backup[=CONTROL] (cp, mv, install, ln) makes a
// backup of the file it replaces: not with CONTROL none or off, nor with
// VERSION_CONTROL (which -b and --backup alone follow) set so by the line
// or the environment.
func (w *walker) backsUp(f found) bool {
	off := func(v string) bool { return v == "none" || v == "off" }
	if f.has {
		return f.value.static() && !off(f.value.value())
	}
	return !w.backupEnv && (w.e.ctx.Getenv == nil || !off(w.e.ctx.Getenv("VERSION_CONTROL")))
}

// grows: truncate's size only grows a file (+N, >N, %N).
func grows(size string) bool {
	s := strings.TrimSpace(size)
	return s != "" && strings.IndexByte("+>%", s[0]) >= 0
}

// replacers are the writers that replace a file at their destination,
// each with how to keep it instead (beside a backup, -b, which all make).
var replacers = map[string]string{"mv": "mv -n", "cp": "cp -n", "install": "install -b", "ln": "ln without -f", "rsync": "rsync --ignore-existing"}

// replaces says how cp, mv, install, rsync or ln -f replaces a file at
// its destination (destinations) ("" when none is there, or -n,
// --update=none, -b or mv's --exchange keep it, rsync's --ignore-existing,
// -b (which VERSION_CONTROL does not turn off), -n (a dry run) or
// --list-only; ln replaces only with -f or -i, install -d makes
// directories). A destination bn cannot look
// at, or one an earlier command of the line writes (bn decides before
// the line runs, so it cannot know that file is not there when the
// command runs), is taken to be there.
func (w *walker) replaces(name string, fs []found, ops []word, d dirs) string {
	forced := name != "ln"
	for _, f := range fs {
		switch {
		case (f.o.short == 'n' || f.o.long == "no-clobber") && (name == "cp" || name == "mv"),
			f.o.long == "exchange" && name == "mv",
			f.o.long == "update" && f.has && f.value.static() && strings.HasPrefix(f.value.value(), "none") && (name == "cp" || name == "mv"),
			(f.o.short == 'd' || f.o.long == "directory") && name == "install",
			(f.o.short == 'b' || f.o.long == "backup") && (name == "rsync" || w.backsUp(f)),
			name == "rsync" && (f.o.short == 'n' || f.o.long == "dry-run" || f.o.long == "ignore-existing" || f.o.long == "list-only"):
			return ""
		case (f.o.short == 'f' || f.o.long == "force" || f.o.short == 'i' || f.o.long == "interactive") && name == "ln":
			forced = true
		}
	}
	if !forced {
		return ""
	}
	ts, unplaced := w.destinations(name, fs, ops, d)
	if unplaced != "" {
		return fmt.Sprintf("%s may replace a file at %s", name, unplaced)
	}
	for _, t := range ts {
		if t.src != nil && name == "mv" && slices.Contains([]string{".", ".."}, filepath.Base(t.src.value())) {
			continue // mv cannot move it into a directory
		}
		switch {
		case t.at != nil && t.at.IsDir():
			return fmt.Sprintf("%s onto %s, an existing directory, may replace what it holds", name, t.path)
		case t.at != nil:
			return fmt.Sprintf("%s onto %s, an existing file, replaces it", name, t.path)
		}
		// A destination that must be a directory (a/, several sources)
		// is one an earlier command may make: what lands goes into it.
		isDir := t.src == nil || strings.HasSuffix(t.path, "/") || strings.HasSuffix(t.path, string(filepath.Separator))
		if a, ok := w.madeAt(t.resolved, isDir); ok {
			why := fmt.Sprintf("%s onto %s may replace a file an earlier command of the line writes there (%s), which bn cannot know is not there when %s runs; keep it with %s, or run %s in a line of its own", name, t.path, a.Path, name, replacers[name], name)
			if a.Resolved == "" {
				why = fmt.Sprintf("%s onto %s may replace a file an earlier command of the line writes at %s, which bn cannot place (%s); keep it with %s, or run %s in a line of its own", name, t.path, a.Path, a.Unknown, replacers[name], name)
			}
			return why
		}
	}
	return ""
}

// madeAt is the first write of an earlier command of the line that may
// make a file at p: one at p (but the directory p when isDir), one under
// p (a directory then, which what lands there goes into), one of a tree
// p is in, or one bn cannot place.
func (w *walker) madeAt(p string, isDir bool) (Access, bool) {
	for _, a := range w.accesses {
		if a.Kind == agents.KindRead {
			continue
		}
		if a.Resolved == "" || a.Resolved == p && !isDir || a.Resolved != p && inside(a.Resolved, p) || a.Tree && inside(p, a.Resolved) {
			return a, true
		}
	}
	return Access{}, false
}

// removesAsRm is the deny rule that refuses a command removing files it
// names, as rm and unlink would remove them.
func (w *walker) removesAsRm(text string) (Decision, bool) {
	for _, rm := range [][]word{{literal("rm"), literal("--"), dynamic("{}", false)}, {literal("unlink"), dynamic("{}", false)}} {
		if dec, hit := w.denyMatch(text, rm); hit {
			return dec, true
		}
	}
	return Decision{}, false
}

// denyMatch is the first deny rule that refuses a command as the deny
// rules see it (normalizeForDeny).
func (w *walker) denyMatch(text string, norm []word) (Decision, bool) {
	for _, r := range w.e.deny {
		if r.sh.set && r.sh.denies(norm) {
			return w.e.denied(r, text), true
		}
	}
	return Decision{}, false
}

// baseName is a command word as a deny matches it: the last element of
// a path (Windows' too), in lower case, without an executable suffix.
func baseName(s string) string {
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	s = strings.ToLower(s)
	for _, ext := range []string{".exe", ".com", ".bat", ".cmd"} {
		s = strings.TrimSuffix(s, ext)
	}
	return s
}

// mathCode reports whether zsh's arithmetic may run commands when it
// evaluates a: a subscript or a substitution in its value, or a value not
// known before the line runs (but $? and $#, always numbers).
func mathCode(a word) bool {
	if !a.static() {
		return !slices.Contains([]string{"$?", `"$?"`, "$#", `"$#"`}, a.src)
	}
	v := a.value()
	// A bare name is read as a variable, whose value zsh evaluates as
	// arithmetic in turn: the line may have set it (a for loop's word).
	return strings.ContainsAny(v, "[`") || strings.Contains(v, "$(") || syntax.ValidName(v)
}

// printfVar reports whether printf (or zsh's print) may set a variable
// through a subscript: -v among its options, which end at the format,
// naming a variable not known before the line runs or with "[", or a
// word there not known before the line runs (it may be -v).
func printfVar(args []word) bool {
	for i := 0; i < len(args); i++ {
		if !args[i].static() {
			return true
		}
		v := args[i].value()
		if v == "--" || v == "-" || !strings.HasPrefix(v, "-") {
			return false // the format: what follows it is its arguments
		}
		at := strings.IndexByte(v, 'v')
		if at < 0 {
			continue
		}
		name := v[at+1:]
		if name == "" {
			if i++; i == len(args) {
				return false
			}
			if !args[i].static() {
				return true
			}
			name = args[i].value()
		}
		if strings.Contains(name, "[") {
			return true
		}
	}
	return false
}

// printfMath reports whether zsh's printf (print -f) evaluates one of
// its arguments as arithmetic (mathCode): the format, reused for every
// argument, has a numeric conversion (%d, %c, %f, …) or a '*' width or
// precision, or is not known before the line runs.
func printfMath(name string, args []word) bool {
	i := 0
	for i < len(args) && args[i].static() && strings.HasPrefix(args[i].value(), "-") {
		v := args[i].value()
		i++
		if v == "--" {
			break
		}
		if name == "print" && strings.Contains(v, "f") {
			if !strings.HasSuffix(v, "f") {
				// -fFMT: the format is the rest of the word.
				return numericFormat(v[strings.IndexByte(v, 'f')+1:]) && slices.ContainsFunc(args[i:], mathCode)
			}
			break // the format is the next word
		}
		if v == "-v" || name == "print" && strings.HasSuffix(v, "u") {
			i++ // its value
		}
	}
	if i >= len(args) {
		return false
	}
	if name == "print" && (i == 0 || !strings.Contains(args[i-1].value(), "f")) {
		return false // no -f: print does not format
	}
	f := args[i]
	if !f.static() || strings.Contains(f.value(), "$") {
		// Not known, or %N$ taking arguments out of order: any may be numeric.
		return slices.ContainsFunc(args[i+1:], mathCode)
	}
	conv := conversions(f.value())
	for j, a := range args[i+1:] {
		if len(conv) > 0 && conv[j%len(conv)] && mathCode(a) {
			return true
		}
	}
	return false
}

// numericFormat reports whether a printf format has a conversion other
// than %s, %b, %q (which take text), or a '*' that takes a width or a
// precision from the arguments.
func numericFormat(f string) bool {
	return slices.Contains(conversions(f), true)
}

// conversions lists the arguments a printf format takes, in order (the
// format is reused for further ones): true for those read as numbers
// (numeric conversions, a '*' width or precision), false for text.
func conversions(f string) []bool {
	var out []bool
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		i++
		for i < len(f) && strings.IndexByte("-+ #0123456789.$'*", f[i]) >= 0 {
			if f[i] == '*' {
				out = append(out, true)
			}
			i++
		}
		if i < len(f) && f[i] != '%' {
			out = append(out, strings.IndexByte("sbqQ", f[i]) < 0)
		}
	}
	return out
}

// codeBuiltin says why a shell builtin that runs code, or changes how
// the shell reads later code, is refused; "" for any other command.
func codeBuiltin(name string, words []word) string {
	args := words[1:]
	has := func(flags ...string) bool {
		return slices.ContainsFunc(args, func(a word) bool {
			if !a.static() {
				return true // might be one
			}
			v := a.value()
			for _, f := range flags {
				if v == f || len(f) == 2 && f[0] == '-' && strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsRune(v[1:], rune(f[1])) {
					return true
				}
			}
			return false
		})
	}
	subscript := slices.ContainsFunc(args, func(a word) bool { return !a.static() || strings.Contains(a.value(), "[") })
	switch name {
	case "eval":
		return "eval runs its arguments as a command line; run the command itself"
	case "source", ".":
		return name + " runs the commands of a file bn does not read; run them themselves"
	case "trap":
		if len(args) >= 2 && !has("-p", "-l") {
			return "trap runs its first argument as a command line later; bn does not allow setting traps"
		}
	case "alias":
		if slices.ContainsFunc(args, func(a word) bool { return !a.static() || strings.Contains(a.value(), "=") }) {
			return "an alias makes a word run other commands; bn does not allow defining them"
		}
	case "fc", "r", "history":
		return name + " runs or records commands from the history; bn does not allow it"
	case "hash":
		if has("-p") || slices.ContainsFunc(args, func(a word) bool { return !a.static() || strings.Contains(a.value(), "=") }) {
			return "hash -p (or zsh's hash name=path) makes a command name run another program"
		}
	case "enable", "zmodload", "autoload", "functions", "emulate", "setopt", "unsetopt", "disable", "unfunction", "bindkey", "zle", "sched", "zpty", "ztcp", "zsocket":
		return name + " changes how the shell reads or runs later commands (or loads code into it); bn does not allow it"
	case "shopt":
		if has("-s", "-u") {
			return "shopt -s/-u changes how the shell reads later commands; bn does not allow it"
		}
	case "set":
		if slices.ContainsFunc(args, func(a word) bool {
			return !a.static() || strings.HasPrefix(a.value(), "-o") || strings.HasPrefix(a.value(), "+o") || a.value() == "-T" || a.value() == "--"
		}) {
			return "set -o changes how the shell reads later commands; bn does not allow it"
		}
	case "compgen", "complete", "compctl":
		if has("-C", "-F") {
			return name + " -C/-F runs a command or function; bn does not allow it"
		}
	case "mapfile", "readarray":
		if has("-C") || subscript {
			return name + " -C runs a command for each line (and a subscript is evaluated as arithmetic); bn does not allow it"
		}
	case "printf", "print":
		if printfVar(args) {
			return name + " -v into a subscript evaluates it as arithmetic, which can run commands"
		}
		if printfMath(name, args) {
			spelt := name
			if name == "print" {
				spelt = "print -f"
			}
			return "zsh evaluates " + spelt + "'s numeric arguments as arithmetic, where a subscript runs commands (path[$(cmd)]), and this one may be one; write a plain number"
		}
	case "repeat", "shift", "exit", "logout", "bye", "return", "break", "continue":
		if name == "repeat" && len(args) > 0 {
			args = args[:1] // the count; the rest is the command it repeats
		}
		if slices.ContainsFunc(args, mathCode) {
			return "zsh evaluates " + name + "'s operands as arithmetic, where a subscript runs commands (path[$(cmd)]); write a plain number"
		}
	case "integer", "float":
		if slices.ContainsFunc(args, func(a word) bool {
			_, v, ok := strings.Cut(a.value(), "=")
			return !a.static() || ok && mathCode(literal(v))
		}) {
			return "zsh evaluates " + name + "'s values as arithmetic, where a name reads a variable and a subscript runs commands (path[$(cmd)]); write a plain number"
		}
		fallthrough
	case "read", "unset", "wait", "getopts", "test", "[", "vared", "let", "typeset", "declare", "local", "export", "readonly":
		if subscript {
			return name + " with a variable subscript evaluates it as arithmetic, which can run commands; write the words out"
		}
	case "exec":
		if len(args) == 0 {
			return "exec without a command changes the shell's own files for every later command; redirect each command instead"
		}
		if has("-a") {
			return "exec -a runs a program under another name; run it by its own"
		}
	}
	return ""
}
