package enforce

import (
	"fmt"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// findValued are find's tests and actions that take one argument.
var findValued = []string{"-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type", "-xtype",
	"-size", "-perm", "-user", "-group", "-uid", "-gid", "-newer", "-anewer", "-cnewer", "-mtime", "-atime", "-ctime", "-mmin",
	"-amin", "-cmin", "-maxdepth", "-mindepth", "-links", "-inum", "-samefile", "-printf", "-fstype", "-context", "-used", "-lname",
	"-ilname", "-regextype", "-newermm", "-newerct", "-files0-from",
	// BSD's.
	"-Bmin", "-Bnewer", "-Btime", "-flags", "-xattrname", "-iregex"}

// findPlain are find's operators, options, tests and actions that take no
// argument (GNU's and BSD's); with findValued, -exec and the like, the
// writes (-fprint) and -delete, every primary find has.
var findPlain = []string{"(", ")", "!", ",", "-not", "-a", "-and", "-o", "-or", "-d", "-depth", "-mount", "-xdev", "-noleaf",
	"-ignore_readdir_race", "-noignore_readdir_race", "-help", "--help", "-version", "--version", "-daystart", "-follow", "-warn",
	"-nowarn", "-empty", "-executable", "-false", "-true", "-nogroup", "-nouser", "-readable", "-writable", "-ls", "-print", "-print0",
	"-prune", "-quit", "-acl", "-sparse", "-xattr"}

// findNewer matches -newerXY (-newermt DATE), whose X and Y name times.
func findNewer(v string) bool {
	x, ok := strings.CutPrefix(v, "-newer")
	return ok && len(x) == 2 && strings.IndexByte("aBcm", x[0]) >= 0 && strings.IndexByte("aBcmt", x[1]) >= 0
}

// findCall: find runs the command of -exec, -execdir, -ok and -okdir for
// each file (decided as a command of its own, "{}" a path not known
// now; -execdir and -okdir run it in the found file's directory, which
// bn cannot know: git there may take a repository the agent planted, and
// relative paths there are unplaced), deletes with -delete, and writes the file of -fprint, -fprint0,
// -fls and -fprintf. What it removes (-delete, rm {}) lies under its
// starting points: a removal of every file there, unless it follows
// symlinks (-L, -follow), which may lead anywhere.
func findCall(w *walker, c call) {
	args := c.args
	follow := slices.ContainsFunc(args, func(a word) bool { return a.static() && (a.value() == "-L" || a.value() == "-follow") })
	i := 0
	var starts []word
	for i < len(args) && args[i].static() {
		v := args[i].value()
		if v == "-H" || v == "-L" || v == "-P" || strings.HasPrefix(v, "-O") || v == "-E" || v == "-X" || v == "-s" || v == "-x" {
			i++
		} else if v == "-D" || v == "-f" {
			if v == "-f" && i+1 < len(args) { // BSD's -f PATH is a starting point
				starts = append(starts, args[i+1])
			}
			i += 2
		} else {
			break
		}
	}
	for ; i < len(args); i++ {
		a := args[i]
		if !a.static() {
			if a.option {
				w.refuse(refused(c.text, "the argument %s is not known before the line runs and may be a find action (-exec, -delete); write it out", a.src))
				return
			}
			starts = append(starts, a)
			continue
		}
		if v := a.value(); strings.HasPrefix(v, "-") || v == "(" || v == "!" || v == ")" || v == "," {
			break
		}
		starts = append(starts, a)
	}
	removes := false
	var movers []int // the linkers (mv {} x) whose removals find's are
	for i < len(args) {
		a := args[i]
		if !a.static() {
			w.refuse(refused(c.text, "find's expression holds %s, not known before the line runs; write it out", a.src))
			return
		}
		switch v := a.value(); {
		case v == "-exec" || v == "-execdir" || v == "-ok" || v == "-okdir":
			j := i + 1
			for j < len(args) && !(args[j].static() && (args[j].value() == ";" || args[j].value() == "+")) {
				j++
			}
			inner := make([]word, 0, j-i-1)
			for _, x := range args[i+1 : min(j, len(args))] {
				inner = append(inner, placeholder(x, "{}"))
			}
			if len(inner) == 0 {
				w.refuse(refused(c.text, "find %s names no command", v))
				return
			}
			at := c
			if v == "-execdir" || v == "-okdir" {
				at.d = unknownDirs()
			}
			start, linkers := len(w.accesses), len(w.links)
			w.innerCommand(at, inner)
			if w.stopped() {
				return
			}
			if !follow && w.foundRemoved(start) {
				removes = true
				for k := linkers; k < len(w.links); k++ {
					movers = append(movers, k)
				}
			}
			i = j + 1
		case v == "-delete":
			if w.mode == limited {
				w.refuse(refused(c.text, "find -delete deletes the files it finds, which bn cannot check against the edit rules; bn refuses it under patterns"))
				return
			}
			// It removes what it finds as rm and unlink would: a deny of
			// either holds.
			if dec, hit := w.removesAsRm(c.text); hit {
				dec.Reason = "find -delete removes files as rm and unlink do: " + dec.Reason
				w.refuse(dec)
				return
			}
			if follow {
				if !w.unnamedWrite(c, "find -L -delete removes files it finds through symlinks, which may lead anywhere", "files", "remove the files one by one, or run find without -L") {
					return
				}
			} else {
				removes = true
			}
			i++
		case v == "-fprint" || v == "-fprint0" || v == "-fls" || v == "-fprintf":
			// A write as a redirection's is, under patterns and under the
			// whole shell alike, where the hook's guard must see it.
			if i+1 < len(args) {
				w.writeArg(c.text, "find "+v, agents.KindCreate, args[i+1], c.d)
				if w.stopped() {
					return
				}
			}
			i += 2
			if v == "-fprintf" {
				i++
			}
		case slices.Contains(findValued, v) || findNewer(v):
			i += 2
		case w.mode == limited && !slices.Contains(findPlain, v):
			w.refuse(refused(c.text, "find %s is a primary bn does not know of find, and one bn has not read in its manual may write a file or run a program; bn refuses it under patterns: leave it out, ask for it to be added to bn's table of find's primaries, or allow the shell whole", v))
			return
		default:
			i++
		}
	}
	if removes {
		start := len(w.accesses)
		w.unpacked(c.text, "find", unpack{writes: true, dirs: starts, removes: true}, c.d)
		for _, k := range movers {
			for i := start; i < len(w.accesses); i++ {
				w.links[k].own = append(w.links[k].own, i)
			}
		}
	}
}

// placeholder is x as a runner that replaces mark in it (find's {},
// xargs -I's string) hands it on: a word known only when the line runs
// when any word x becomes holds mark. The shell removes quotes first, so
// {""} and {\} are {} to find: the value decides, not the source.
func placeholder(x word, mark string) word {
	if x.vals == nil && strings.Contains(x.src, mark) || slices.ContainsFunc(x.vals, func(v string) bool { return strings.Contains(v, mark) }) {
		src := x.src
		if x.static() {
			src = x.value() // find -exec rm {} is seen as removing what find finds
		}
		return dynamic(src, x.option)
	}
	return x
}

// foundRemoved takes out the removals of "{}" (rm {}, unlink {}, mv {}
// x) that a find's command recorded from index start: each is a file
// find found, under its starting points. The indexes a linker holds of
// its own writes (mv) follow the accesses that stay. false when there
// are none.
func (w *walker) foundRemoved(start int) bool {
	at := make([]int, len(w.accesses)) // where each access moves; -1: taken out
	n := start
	for i := range w.accesses {
		a := w.accesses[i]
		switch {
		case i < start:
			at[i] = i
		case a.Removes && a.Path == "{}" && a.Unknown != "":
			at[i] = -1
		default:
			at[i], w.accesses[n] = n, a
			n++
		}
	}
	if n == len(w.accesses) {
		return false
	}
	w.accesses = w.accesses[:n]
	for k := range w.links {
		var own []int
		for _, i := range w.links[k].own {
			if at[i] >= 0 {
				own = append(own, at[i])
			}
		}
		w.links[k].own = own
	}
	return true
}

var xargsOpts = []opt{flagOpt('0', "null"), valued('a', "arg-file"), valued('d', "delimiter"), valued('E', ""), {short: 'e', long: "eof", arg: optArg},
	valued('I', ""), {short: 'i', long: "replace", arg: optArg}, valued('L', "max-lines"), {short: 'l', arg: optArg}, valued('n', "max-args"),
	valued('P', "max-procs"), flagOpt('p', "interactive"), flagOpt('r', "no-run-if-empty"), valued('s', "max-chars"), flagOpt('t', "verbose"),
	flagOpt('x', "exit"), refuse(0, "process-slot-var", "sets a variable in the environment of the command it runs, which can change what it runs"), flagOpt('o', "open-tty"), flagOpt(0, "show-limits")}

// xargsCall: xargs runs its command with words from its input added.
// Under patterns the command must be allowed, and may not be one whose
// options bn refuses or checks: the added words could be those options.
func xargsCall(w *walker, c call) {
	if w.unknownOpt(c, xargsOpts, true) {
		return
	}
	fs, ops, maybe := parseOpts(xargsOpts, c.args, true)
	if len(maybe) > 0 {
		w.refuse(refused(c.text, "the argument %s is not known before the line runs and may change what xargs runs; write it out", maybe[0].src))
		return
	}
	if w.mode == limited && !w.options(c, fs) {
		return
	}
	replace := ""
	for _, f := range fs {
		switch f.o.short {
		case 'I', 'i':
			replace = "{}"
			if !f.has {
				continue
			}
			if !f.value.static() {
				w.refuse(refused(c.text, "xargs %s's replace string %s is not known before the line runs, so bn cannot tell which words it replaces; write it out", "-"+string(f.o.short), f.value.src))
				return
			}
			replace = f.value.value()
		}
	}
	if len(ops) == 0 {
		// Given no command, xargs runs echo: decided as that.
		if w.innerCommand(c, []word{literal("echo")}); w.stopped() && !w.stop.Allowed {
			w.stop.Reason = "xargs without a command runs echo: " + w.stop.Reason + "; name the command xargs runs"
		}
		return
	}
	inner := make([]word, len(ops))
	for i, x := range ops {
		if replace != "" {
			x = placeholder(x, replace)
		}
		inner[i] = x
	}
	if replace == "" && w.mode != limited {
		// The words it reads are the command's last arguments: files
		// rm or sed -i would change, which the guard sees as unknown.
		inner = append(inner, dynamic("(xargs's input)", true))
	}
	if w.mode == limited && inner[0].static() {
		if p := w.lookup(inner[0].value()); p != nil && p.risky() && p.class != Runs {
			w.refuse(refused(c.text, "xargs adds words from its input to %s, and some of %s's options run commands or write files; run %s with its arguments written out", inner[0].value(), inner[0].value(), inner[0].value()))
			return
		}
	}
	w.innerCommand(c, inner)
}

// sedOpts are GNU sed's options and BSD sed's -a; BSD's -I (in place,
// its suffix the next word) is not among them.
var sedOpts = []opt{flagOpt('n', "quiet"), flagOpt(0, "silent"), valued('e', "expression"), refuse('f', "file", "reads its script from a file bn does not read"),
	{short: 'i', long: "in-place", arg: optArg},
	refuse('l', "line-length", "takes a value in GNU sed and none in BSD sed, so bn cannot tell which word is the script"), flagOpt('a', ""), flagOpt('E', "regexp-extended"), flagOpt('r', ""), flagOpt('s', "separate"),
	flagOpt('z', "null-data"), flagOpt('u', "unbuffered"), flagOpt(0, "posix"), flagOpt(0, "sandbox"), flagOpt(0, "debug"), flagOpt(0, "follow-symlinks"), flagOpt('b', "binary")}

// sedCall: sed's script may write files (w, s///w) and run commands (e,
// s///e): refused; -i changes the files it is given, decided as edits.
func sedCall(w *walker, c call) {
	fs, ops, maybe := parseOpts(sedOpts, c.args, false)
	if len(maybe) > 0 {
		w.refuse(refused(c.text, "the argument %s is not known before the line runs and may be a sed option (-i changes files); write it out", maybe[0].src))
		return
	}
	var scripts []word
	inPlace, attached, suffix := false, false, ""
	for _, f := range fs {
		switch f.o.short {
		case 'f':
			w.refuse(refused(c.text, "sed -f reads its script from a file bn does not read"))
			return
		case 'e':
			scripts = append(scripts, f.value)
		case 'i':
			inPlace = true
			if f.has {
				attached, suffix = true, f.value.value()
			}
		case 'l':
			if w.mode == limited {
				w.refuse(refused(c.text, "sed %s %s; bn refuses it under patterns", f.src, f.o.why))
				return
			}
		}
	}
	files := ops
	switch {
	case len(scripts) == 0 && inPlace && !attached && len(ops) > 1 && ops[0].static() && ops[0].value() == "":
		// BSD sed (macOS) takes -i's suffix from the next word: in
		// sed -i '' SCRIPT FILE the script is the second operand, which GNU
		// sed would take for a file.
		scripts, files = ops[1:2], ops[2:]
	case len(scripts) == 0 && len(ops) > 0:
		scripts, files = ops[:1], ops[1:]
	}
	// sed joins its -e scripts with newlines: "-e 'a\\' -e text" is one
	// command.
	var script []string
	for _, s := range scripts {
		if !s.static() {
			w.refuse(refused(c.text, "sed's script %s is not known before the line runs, and a script can write files or run commands; write it out", s.src))
			return
		}
		script = append(script, s.value())
	}
	if len(script) > 0 {
		s := strings.Join(script, "\n")
		why, reads := sedScript(s)
		if why != "" {
			w.refuse(refused(c.text, "sed script %q: %s", s, why))
			return
		}
		for _, r := range reads {
			if r != "/dev/stdin" {
				w.readArg(c, "sed's script", literal(r))
			}
			if w.stopped() {
				return
			}
		}
	}
	if inPlace {
		if (strings.Contains(suffix, "*") || strings.Contains(suffix, "/")) && (w.mode == limited || w.e.limits(agents.KindCreate)) {
			w.refuse(refused(c.text, "sed -i%s writes its backups where the suffix says, which bn does not follow; use a plain suffix", suffix))
			return
		}
		for _, f := range files {
			w.writeArg(c.text, "sed -i", agents.KindEdit, f, c.d)
			if suffix != "" && f.static() && !w.stopped() {
				w.writeArg(c.text, "sed -i"+suffix, agents.KindCreate, literal(f.value()+suffix), c.d)
			}
			if w.stopped() {
				return
			}
		}
	}
}

// sedScript says why a sed script is refused: it writes a file, runs a
// command, or holds what bn does not read; "" when it does none of that;
// and the files its r and R commands read.
// It reads the script as GNU sed does (compile.c): a regular expression
// ends at its delimiter outside a bracket expression, a label at a blank
// or ";", a's, i's and c's text at an unescaped newline, a file name and
// e's command at the end of the line. -E, -z and --posix change none of
// that. Where bn and sed might part, bn reads more of the script as
// commands than sed would, so a command is never hidden in what bn took
// for text.
func sedScript(s string) (why string, reads []string) {
	i, n := 0, len(s)
	var delims []byte // the delimiters of the script's regular expressions
	blank := func() {
		for i < n && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
	}
	// delimited reads up to delim; in a regular expression, a bracket
	// expression holds it.
	delimited := func(delim byte, regex bool) bool {
		delims = append(delims, delim)
		for i < n {
			switch c := s[i]; {
			case c == '\\':
				i += 2
				continue
			case c == '\n':
				return false
			case c == delim:
				i++
				return true
			case c == '[' && regex:
				j, ok := sedBracket(s, i)
				if !ok {
					return false
				}
				i = j
				continue
			}
			i++
		}
		return false
	}
	address := func() bool {
		switch {
		case i < n && s[i] >= '0' && s[i] <= '9':
			for i < n && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
				i++
			}
		case i < n && s[i] == '$':
			i++
		case i < n && s[i] == '/':
			i++
			if !delimited('/', true) {
				return false
			}
		case i+1 < n && s[i] == '\\':
			d := s[i+1]
			i += 2
			if !sedDelimiter(d) || !delimited(d, true) {
				return false
			}
		default:
			return true
		}
		for i < n && (s[i] == 'I' || s[i] == 'M') {
			i++
		}
		return true
	}
	toEnd := func(stops string) {
		for i < n && s[i] != '\n' && !strings.ContainsRune(stops, rune(s[i])) {
			i++
		}
	}
	for {
		for i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == ';' || s[i] == '\n') {
			i++
		}
		if i >= n {
			if sedUnsure(s, delims) {
				return "it holds what could be an e, w or W command or an s///e or s///w flag where bn did not read one, so bn cannot be sure it runs no command and writes no file", nil
			}
			return "", reads
		}
		if s[i] == '#' {
			toEnd("")
			continue
		}
		if !address() {
			return "an address bn cannot read", nil
		}
		blank()
		if i < n && s[i] == ',' {
			i++
			blank()
			if i < n && (s[i] == '+' || s[i] == '~') {
				i++
			}
			if !address() {
				return "an address bn cannot read", nil
			}
		}
		blank()
		for i < n && s[i] == '!' {
			i++
			blank()
		}
		if i >= n {
			return "an address with no command", nil
		}
		cmd := s[i]
		i++
		switch cmd {
		case '{', '}':
		case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'l', 'n', 'N', 'p', 'P', 'x', 'z', 'F', 'q', 'Q', 'L':
			blank()
			for i < n && s[i] >= '0' && s[i] <= '9' {
				i++
			}
		case ':', 'b', 't', 'T', 'v':
			// GNU sed ends a label at a blank too, and reads what
			// follows as a command.
			blank()
			toEnd("; \t}")
		case 'a', 'i', 'c':
			// The text ends at the first newline no backslash escapes.
			for i < n && s[i] != '\n' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
		case 'r', 'R':
			// GNU sed reads the file named by the rest of the line,
			// after blanks.
			blank()
			from := i
			toEnd("")
			if i > from {
				reads = append(reads, s[from:i])
			}
		case 'w', 'W':
			return "the w command writes a file", nil
		case 'e':
			return "the e command runs a command", nil
		case 's', 'y':
			if i >= n || !sedDelimiter(s[i]) {
				return "a substitution bn cannot read", nil
			}
			d := s[i]
			i++
			if !delimited(d, cmd == 's') || !delimited(d, false) {
				return "a substitution bn cannot read", nil
			}
			for cmd == 's' && i < n {
				f := s[i]
				switch {
				case f == 'e':
					return "the e flag runs the result as a command", nil
				case f == 'w':
					return "the w flag writes a file", nil
				case strings.IndexByte("gpiImM", f) >= 0 || f >= '0' && f <= '9':
					i++
					continue
				}
				break
			}
		default:
			return fmt.Sprintf("%q is a sed command bn does not know", cmd), nil
		}
	}
}

// sedDelimiter: the delimiters bn reads; a backslash, a newline or a
// bracket as the delimiter is refused, read as sed reads them or not.
func sedDelimiter(d byte) bool {
	return d != '\\' && d != '\n' && d != '[' && d != ']'
}

// sedBracket reads the bracket expression at s[i] (a "["), as POSIX and
// GNU sed read it: a "]" first (or after "^") is a member, "[:class:]",
// "[=x=]" and "[.x.]" are read whole, a backslash is itself. It returns
// where the expression ends.
func sedBracket(s string, i int) (int, bool) {
	j := i + 1
	if j < len(s) && s[j] == '^' {
		j++
	}
	if j < len(s) && s[j] == ']' {
		j++
	}
	for j < len(s) {
		switch {
		case s[j] == ']':
			return j + 1, true
		case s[j] == '\n':
			return 0, false
		case s[j] == '[' && j+1 < len(s) && strings.IndexByte(":.=", s[j+1]) >= 0:
			end := strings.Index(s[j+2:], string(s[j+1])+"]")
			if end < 0 {
				return 0, false
			}
			j += 2 + end + 2
			continue
		}
		j++
	}
	return 0, false
}

// sedUnsure finds, in a script bn has read, what could still be a
// command that runs or writes had bn misread it: an e, w or W where a
// command begins (after ";", a newline, "{", "}" or "!", and a numeric
// address), or an e or w flag after one of the script's delimiters. A w
// counts only before a blank, "/", "." or "~" (a file name), so that
// words in regular expressions and replacements stay allowed.
func sedUnsure(s string, delims []byte) bool {
	danger := func(j int) bool {
		switch {
		case j >= len(s):
			return false
		case s[j] == 'e': // e's command, or none: it ends there
			return j+1 >= len(s) || strings.IndexByte(" \t;\n}#", s[j+1]) >= 0
		case s[j] == 'w' || s[j] == 'W':
			return j+1 >= len(s) || strings.IndexByte(" \t/.~", s[j+1]) >= 0
		}
		return false
	}
	skip := func(j int, set string) int {
		for j < len(s) && strings.IndexByte(set, s[j]) >= 0 {
			j++
		}
		return j
	}
	if danger(skip(0, " \t0123456789$,~+!")) {
		return true
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case strings.IndexByte(";\n{}!", c) >= 0:
			if danger(skip(i+1, " \t0123456789$,~+!")) {
				return true
			}
		case slices.Contains(delims, c) && !escaped(s, i):
			if j := skip(i+1, "gpiImM0123456789"); danger(j) && s[j] != 'W' {
				return true
			}
		}
	}
	return false
}

// escaped: an odd number of backslashes precede s[i].
func escaped(s string, i int) bool {
	k := 0
	for i-k-1 >= 0 && s[i-k-1] == '\\' {
		k++
	}
	return k%2 == 1
}

var awkOpts = []opt{valued('F', "field-separator"), valued('v', "assign"), refuse('f', "file", "reads its program from a file bn does not read"),
	valued('e', "source"), refuse('E', "exec", "reads its program from a file bn does not read"), refuse('i', "include", "includes a file bn does not read"),
	refuse('l', "load", "loads a library"), flagOpt('b', "characters-as-bytes"), flagOpt('c', "traditional"), flagOpt('C', "copyright"),
	{short: 'd', long: "dump-variables", arg: optArg, eff: refuseOpt, why: "writes a file"}, {short: 'D', long: "debug", arg: optArg},
	flagOpt('g', "gen-pot"), flagOpt('h', "help"), {short: 'L', long: "lint", arg: optArg}, flagOpt('M', "bignum"), flagOpt('N', "use-lc-numeric"),
	flagOpt('n', "non-decimal-data"), {short: 'o', long: "pretty-print", arg: optArg, eff: refuseOpt, why: "writes a file"}, flagOpt('O', "optimize"),
	{short: 'p', long: "profile", arg: optArg, eff: refuseOpt, why: "writes a file"}, flagOpt('P', "posix"), flagOpt('r', "re-interval"),
	flagOpt('s', "no-optimize"), flagOpt('S', "sandbox"), flagOpt('t', "lint-old"), flagOpt('V', "version"), refuse('W', "", "passes implementation options bn does not read"),
	flagOpt('k', "csv"), flagOpt('I', "trace"), flagOpt(0, "version")}

// awkCall: an awk program runs commands (system, pipes, and gawk's
// indirect calls) and writes files (print > file): refused.
func awkCall(w *walker, c call) {
	fs, ops, maybe := parseOpts(awkOpts, c.args, true)
	if len(maybe) > 0 {
		w.refuse(refused(c.text, "the argument %s is not known before the line runs and may be an awk option; write it out", maybe[0].src))
		return
	}
	var progs []word
	for _, f := range fs {
		switch {
		case f.o.eff == refuseOpt:
			w.refuse(refused(c.text, "%s %s %s", c.name, f.src, f.o.why))
			return
		case f.o.short == 'e':
			progs = append(progs, f.value)
		}
	}
	if len(progs) == 0 && len(ops) > 0 {
		progs = ops[:1]
	}
	for _, p := range progs {
		if !p.static() {
			w.refuse(refused(c.text, "the awk program %s is not known before the line runs, and a program can run commands; write it out", p.src))
			return
		}
		if why := awkProgram(p.value()); why != "" {
			w.refuse(refused(c.text, "awk program %q: %s", p.value(), why))
			return
		}
	}
}

// awkProgram says why an awk program is refused, or "". It reads the
// program without its strings, regular expressions and comments, telling
// a regular expression from a division as the awks' lexers do: a "/"
// divides after an operand (a name, a number, a string, ")", "]") and
// starts a regular expression anywhere else. Where the awks part (a "/"
// after ++ or --, a "/" in a bracket expression), it refuses. The checks
// run again with the regular expressions as written, and with the
// strings too where a "/" was read as a division (after which a misread
// "/" may have opened a string), so that a misread boundary hides
// nothing; "system" is looked for everywhere.
func awkProgram(s string) string {
	var b strings.Builder    // the program without strings and regular expressions
	var kept strings.Builder // the program without strings
	operand := false         // the last token ends an operand
	incr := false            // the last token is ++ or --
	divided := false         // a "/" was read as a division
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
			b.WriteString(`""`)
			kept.WriteString(`""`)
			operand, incr = true, false
			continue
		case c == '/' && incr:
			return "the awks differ on whether a / after ++ or -- divides or starts a regular expression; put the expression in parentheses"
		case c == '/' && !operand:
			end, ok := awkRegex(s, i)
			if !ok {
				return "the awks differ on where a regular expression with a / in brackets ends, or it has no end"
			}
			kept.WriteString(s[i : end+1])
			i = end
			b.WriteString("//")
			operand = true
			continue
		case c == '#':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			if i < len(s) {
				b.WriteByte('\n')
				kept.WriteByte('\n')
				operand = false
			}
			continue
		case isWordByte(c):
			j := i
			for j < len(s) && isWordByte(s[j]) {
				j++
			}
			word := s[i:j]
			b.WriteString(word)
			kept.WriteString(word)
			operand = !slices.Contains(awkKeywords, word)
			incr = false
			i = j - 1
			continue
		case c == '\\' && i+1 < len(s) && s[i+1] == '\n':
			i++
			b.WriteByte(' ')
			kept.WriteByte(' ')
			continue
		case (c == '+' || c == '-') && i+1 < len(s) && s[i+1] == c:
			b.WriteString(s[i : i+2])
			kept.WriteString(s[i : i+2])
			i++
			incr = true
			continue
		}
		divided = divided || c == '/'
		b.WriteByte(c)
		kept.WriteByte(c)
		if c != ' ' && c != '\t' {
			operand = c == ')' || c == ']'
			incr = false
		}
	}
	written := kept.String()
	if divided {
		written = s
	}
	if containsWord(s, "system") {
		return "system() runs a command"
	}
	for i, prog := range []string{b.String(), written} {
		switch {
		case i == 1 && awkPipe(prog):
			return "a pipe runs a command (print | \"cmd\", \"cmd\" | getline), and bn cannot be sure this | is not one"
		case i == 0 && strings.Contains(prog, "|"):
			return "a pipe runs a command (print | \"cmd\", \"cmd\" | getline)"
		case strings.Contains(prog, "@"):
			return "gawk's @ calls a function by a name in a value, and loads or includes files"
		case printRedirects(prog):
			return "print > file writes a file"
		}
	}
	return ""
}

// awkKeywords are the names after which a "/" starts a regular
// expression.
var awkKeywords = []string{"print", "printf", "return", "in", "case", "do", "else", "exit", "getline", "delete", "if", "while", "for"}

// awkRegex reads the regular expression at s[i] (a "/") and says where
// it ends, when the awks agree: gawk and mawk read a "/" in a bracket
// expression as a member, the one true awk ends the expression there.
func awkRegex(s string, i int) (int, bool) {
	for j := i + 1; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '\n':
			return 0, false
		case '/':
			return j, true
		case '[':
			end, ok := sedBracket(s, j)
			if !ok || strings.Contains(s[j:end], "/") {
				return 0, false
			}
			j = end - 1
		}
	}
	return 0, false
}

// awkPipe finds, in a program as written, a "|" that could be a pipe: to
// getline, to a string or from a print, or gawk's "|&".
func awkPipe(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != '|' {
			continue
		}
		rest := strings.TrimLeft(s[i+1:], " \t")
		if strings.HasPrefix(rest, "&") || strings.HasPrefix(rest, "\"") || strings.HasPrefix(rest, "getline") {
			return true
		}
	}
	return printPipes(s)
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// containsWord: w is in s as a name of its own. A digit before it does
// not join it ("1system" is 1 and system to awk).
func containsWord(s, w string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], w)
		if j < 0 {
			return false
		}
		j += i
		if (j == 0 || !isWordByte(s[j-1]) || s[j-1] >= '0' && s[j-1] <= '9') && (j+len(w) == len(s) || !isWordByte(s[j+len(w)])) {
			return true
		}
		i = j + 1
	}
}

func endsWithWord(s string, words ...string) bool {
	t := strings.TrimRight(s, " \t")
	for _, w := range words {
		if strings.HasSuffix(t, w) && (len(t) == len(w) || !isWordByte(t[len(t)-len(w)-1])) {
			return true
		}
	}
	return false
}

// printRedirects: a ">" in a print or printf statement, outside
// parentheses, is a redirection to a file.
func printRedirects(prog string) bool { return printHolds(prog, '>') }

// printPipes: a "|" in a print or printf statement, outside parentheses,
// is a pipe to a command.
func printPipes(prog string) bool { return printHolds(prog, '|') }

func printHolds(prog string, op byte) bool {
	for i := 0; i < len(prog); i++ {
		if !isWordByte(prog[i]) || i > 0 && isWordByte(prog[i-1]) {
			continue
		}
		rest := prog[i:]
		n := 0
		switch {
		case strings.HasPrefix(rest, "printf") && (len(rest) == 6 || !isWordByte(rest[6])):
			n = 6
		case strings.HasPrefix(rest, "print") && (len(rest) == 5 || !isWordByte(rest[5])):
			n = 5
		default:
			continue
		}
		depth := 0
		for j := i + n; j < len(prog); j++ {
			switch prog[j] {
			case '(':
				depth++
			case ')':
				depth--
			case ';', '\n', '}':
				j = len(prog)
			case op:
				if depth <= 0 {
					return true
				}
			}
		}
	}
	return false
}

var envOpts = []opt{flagOpt('i', "ignore-environment"), flagOpt('0', "null"), valued('u', "unset"), valued('C', "chdir"),
	refuse('S', "split-string", "splits a string into a command, which bn does not read as env would"), valued('P', ""), flagOpt('v', "debug"),
	{long: "block-signal", arg: optArg}, {long: "default-signal", arg: optArg}, {long: "ignore-signal", arg: optArg}, flagOpt(0, "list-signal-handling")}

// envCall: env runs its command with variables set; under patterns the
// variables are held to those allowed before a command.
func envCall(w *walker, c call) {
	if w.unknownOpt(c, envOpts, true) {
		return
	}
	fs, ops, maybe := parseOpts(envOpts, c.args, true)
	if len(maybe) > 0 {
		w.refuse(refused(c.text, "the argument %s is not known before the line runs and may change what env runs; write it out", maybe[0].src))
		return
	}
	d := c.d
	for _, f := range fs {
		switch f.o.short {
		case 'S':
			w.refuse(refused(c.text, "env -S splits a string into a command, which bn does not read as env would; write the command out"))
			return
		case 'C':
			_, d = w.e.cdDirs([]word{literal("cd"), f.value}, d, false)
		}
	}
	if len(ops) > 0 && ops[0].static() && ops[0].value() == "-" {
		ops = ops[1:]
	}
	for len(ops) > 0 {
		a := ops[0]
		if !a.static() {
			w.refuse(refused(c.text, "%s is not known before the line runs and may be a variable or the command; write it out", a.src))
			return
		}
		name, value, ok := strings.Cut(a.value(), "=")
		if !ok {
			break
		}
		w.setsPlace(name)
		if w.gitFileEnv == "" && isGitFileVariable(name) && !isNumber(value) {
			w.gitFileEnv = name
		}
		if w.mode == limited && !safeEnv(name, value) {
			w.refuse(refused(c.text, "env %s can change what the command runs; under patterns bn allows only %s", a.value(), strings.Join(safeAssignmentNames, ", ")))
			return
		}
		ops = ops[1:]
	}
	c.d = d
	w.innerCommand(c, ops)
}

// safeEnv says whether a variable may be set before a command (or by
// env) under patterns.
func safeEnv(name, value string) bool {
	switch name {
	case "GIT_PAGER", "PAGER":
		return value == "cat" || value == ""
	case "LC_ALL", "LANG", "LANGUAGE", "TZ", "NO_COLOR", "TERM", "COLUMNS", "LINES":
		return plainValue(value)
	}
	return false
}

var flockOpts = []opt{flagOpt('s', "shared"), flagOpt('x', "exclusive"), flagOpt('u', "unlock"), flagOpt('n', "nonblock"), valued('w', "timeout"),
	flagOpt('o', "close"), valued('E', "conflict-exit-code"), flagOpt('F', "no-fork"), flagOpt(0, "verbose"), valued('c', "command")}

// flockCall: flock creates its lock file, then runs a command or, with
// -c, a shell line.
func flockCall(w *walker, c call) {
	if w.unknownOpt(c, flockOpts, true) {
		return
	}
	fs, ops, maybe := parseOpts(flockOpts, c.args, true)
	if len(maybe) > 0 || len(ops) == 0 {
		w.refuse(refused(c.text, "bn cannot tell what flock locks or runs; write its arguments out"))
		return
	}
	if w.mode == limited && !isFD(ops[0].value()) {
		w.writeArg(c.text, "flock", agents.KindEdit, ops[0], c.d)
		if w.stopped() {
			return
		}
	}
	for _, f := range fs {
		if f.o.short == 'c' {
			if !f.value.static() {
				w.refuse(refused(c.text, "flock -c runs a command line not known before the line runs; write it out"))
				return
			}
			w.subline(f.value.value(), c.text, c.d)
			return
		}
	}
	w.innerCommand(c, ops[1:])
}

var watchOpts = []opt{valued('n', "interval"), {short: 'd', long: "differences", arg: optArg}, flagOpt('t', "no-title"), flagOpt('b', "beep"),
	flagOpt('e', "errexit"), flagOpt('g', "chgexit"), flagOpt('c', "color"), flagOpt('C', "no-color"), flagOpt('p', "precise"), flagOpt('w', "no-wrap"),
	flagOpt('x', "exec"), valued('q', "equexit"), flagOpt('r', "no-rerun"), writes('s', "shotsdir")}

// watchCall: watch runs its words joined as a sh -c line, or, with -x,
// as a command.
func watchCall(w *walker, c call) {
	if w.unknownOpt(c, watchOpts, true) {
		return
	}
	fs, ops, maybe := parseOpts(watchOpts, c.args, true)
	if len(maybe) > 0 {
		w.refuse(refused(c.text, "the argument %s is not known before the line runs and may change what watch runs; write it out", maybe[0].src))
		return
	}
	if w.mode == limited && !w.options(c, fs) {
		return
	}
	if slices.ContainsFunc(fs, func(f found) bool { return f.o.short == 'x' }) {
		w.innerCommand(c, ops)
		return
	}
	if len(ops) == 0 {
		return
	}
	line, ok := joinStatic(ops)
	if !ok {
		w.refuse(refused(c.text, "watch runs a command line not known before the line runs; write it out"))
		return
	}
	w.subline(line, c.text, c.d)
}

var sudoOpts = []opt{valued('u', "user"), valued('g', "group"), valued('C', "close-from"), valued('D', "chdir"), valued('h', "host"),
	valued('p', "prompt"), valued('r', "role"), valued('t', "type"), valued('T', "command-timeout"), valued('U', "other-user"),
	valued('R', "chroot"), flagOpt('E', "preserve-env"), flagOpt('H', "set-home"), flagOpt('n', "non-interactive"), flagOpt('S', "stdin"),
	flagOpt('b', "background"), flagOpt('A', "askpass"), flagOpt('B', "bell"), flagOpt('k', "reset-timestamp"), flagOpt('K', "remove-timestamp"),
	flagOpt('l', "list"), flagOpt('P', "preserve-groups"), flagOpt('v', "validate"), flagOpt('V', "version"), flagOpt('s', "shell"), flagOpt('i', "login"),
	flagOpt('e', "edit"), flagOpt('N', "no-update"), valued('c', "login-class")}

// sudoCall: sudo runs its command (through the user's shell with -s or
// -i), or edits files with -e. Its command runs in the directory -D
// names and under the root -R names: under patterns refused, as is an
// option bn does not know, which may move it too.
func sudoCall(w *walker, c call) {
	fs, ops, maybe, unknown := scanOpts(sudoOpts, c.args, true, false)
	if len(maybe) > 0 {
		w.refuse(refused(c.text, "the argument %s is not known before the line runs and may change what sudo runs; write it out", maybe[0].src))
		return
	}
	if w.mode == limited && len(unknown) > 0 {
		w.refuse(refused(c.text, "sudo %s is an option bn does not know, and some of sudo's change where or how its command runs; leave it out", unknown[0]))
		return
	}
	shell := false
	for _, f := range fs {
		switch f.o.short {
		case 'D', 'R':
			if w.mode == limited {
				w.refuse(refused(c.text, "sudo %s runs its command in another directory or root, which bn does not follow under patterns; cd there first", f.src))
				return
			}
			if f.o.short == 'R' || !f.has {
				c.d = unknownDirs()
			} else {
				_, c.d = w.e.cdDirs([]word{literal("cd"), f.value}, c.d, false)
			}
		case 'e':
			if w.mode == limited {
				w.refuse(refused(c.text, "sudo -e edits files as another user, which bn cannot check against the edit rules"))
				return
			}
		case 's', 'i':
			shell = true
		}
	}
	if shell && len(ops) == 0 && w.mode != limited {
		w.refuse(refused(c.text, "sudo %s starts a shell that reads commands bn cannot check against %s", c.args[0].src, w.holds()))
		return
	}
	w.innerCommand(c, ops)
}

var wgetOpts = []opt{writes('O', "output-document"), writes('o', "output-file"), writes('a', "append-output"), writes(0, "save-cookies"),
	writes(0, "rejected-log"), writes(0, "hsts-file"),
	refuse(0, "use-askpass", "runs the program it names to ask for credentials"),
	refuse(0, "warc-file", "writes FILE.warc.gz and FILE.cdx, files bn does not name"),
	refuse('e', "execute", "runs a wgetrc command, which can set where it writes"), refuse('P', "directory-prefix", "writes files in a directory"),
	refuse(0, "config", "reads a configuration that can set where it writes"), refuseFlag('r', "recursive", "writes every file it follows"),
	refuseFlag('m', "mirror", "writes every file it follows"), refuseFlag('x', "force-directories", "writes directories"),
	refuseFlag(0, "content-disposition", "writes a file named by the server"), refuseFlag(0, "trust-server-names", "writes a file named by the last redirection"),
	valued('t', "tries"), valued('T', "timeout"), valued('U', "user-agent"), valued(0, "header"), valued('i', "input-file"),
	valued('B', "base"), valued('Q', "quota"), valued('w', "wait"), valued('l', "level"), valued(0, "user"), valued(0, "password"),
	valued(0, "post-data"), valued(0, "post-file"), valued(0, "body-file"), valued(0, "load-cookies"), flagOpt(0, "spider"), flagOpt('q', "quiet")}

// wgetCall: wget writes a file named by the URL unless -O names it.
func wgetCall(w *walker, c call) {
	fs, ops, maybe := parseOpts(wgetOpts, c.args, false)
	if w.mode != limited {
		wgetSeen(w, c, fs, ops)
		return
	}
	if len(maybe) > 0 {
		w.refuse(refused(c.text, "the argument %s is not known before the line runs and may be a wget option; write it out", maybe[0].src))
		return
	}
	if !w.options(c, fs) {
		return
	}
	for _, f := range fs {
		if f.has && (f.o.short == 'i' || f.o.long == "post-file" || f.o.long == "body-file" || f.o.long == "load-cookies") {
			w.readArg(c, "wget "+strings.SplitN(f.src, "=", 2)[0], f.value)
		}
	}
	if w.stopped() {
		return
	}
	if !slices.ContainsFunc(fs, func(f found) bool { return f.o.short == 'O' || f.o.long == "spider" }) {
		w.refuse(refused(c.text, "wget writes a file named by the URL; name it with -O FILE"))
	}
}

// wgetSeen records, under a shell allowed whole, the files wget writes,
// for the hook's guard: those its options name and, without -O, the
// file each URL names; what bn cannot name (-e, --config, -r, -P, a
// URL with percent-encoding or not known before the line runs) is
// unplaced.
func wgetSeen(w *walker, c call, fs []found, ops []word) {
	named := false
	for _, f := range fs {
		switch {
		case f.o.long == "use-askpass":
			if len(w.denyRules()) > 0 {
				w.refuse(refused(c.text, "wget %s %s, which %s could refuse", f.src, f.o.why, w.holds()))
			}
		case f.o.eff == writeOpt && f.has:
			w.writeArg(c.text, "wget "+strings.SplitN(f.src, "=", 2)[0], agents.KindCreate, f.value, c.d)
			named = named || f.o.short == 'O'
		case f.o.eff == refuseOpt:
			w.unplaced(c, fmt.Sprintf("wget %s %s", f.src, f.o.why))
			named = true
		case f.o.long == "spider" || f.o.short == 'i':
			// -i: the URLs are in a file; its names bn cannot see.
			if f.o.short == 'i' && !named {
				w.unplaced(c, fmt.Sprintf("wget %s fetches URLs from a file, whose names bn does not read", f.src))
			}
			named = true
		}
		if w.stopped() {
			return
		}
	}
	if named {
		return
	}
	for _, u := range ops {
		if name, ok := wgetName(u); ok {
			w.writeArg(c.text, "wget", agents.KindCreate, literal(name), c.d)
		} else {
			w.unplaced(c, fmt.Sprintf("wget writes a file named by the URL %s, which bn cannot name", u.src))
		}
		if w.stopped() {
			return
		}
	}
}

// wgetName is the file wget saves a URL in: its path's last segment
// with its query, or index.html; false where bn cannot tell (not known
// before the line runs, percent-encoding, which wget decodes, a query,
// which wget on Windows saves with @ for ?, and a name with a glob's
// characters, which bn would not read as written).
func wgetName(u word) (string, bool) {
	if !u.static() || strings.Contains(u.value(), "%") {
		return "", false
	}
	v, _, _ := strings.Cut(u.value(), "#")
	if _, rest, ok := strings.Cut(v, "://"); ok {
		v = rest
	}
	path, _, hasQuery := strings.Cut(v, "?")
	_, path, _ = strings.Cut(path, "/")
	name := path[strings.LastIndex(path, "/")+1:]
	if name == "" {
		name = "index.html"
	}
	if hasQuery || strings.ContainsAny(name, "*?[") {
		return "", false
	}
	return name, true
}
