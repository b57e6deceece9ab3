package enforce

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/binnacle-dev/bn/agents"
)

// The readers: programs that read files and write none but those bn
// checks. Each was read against its GNU and BSD manual (man, --help)
// for the options and operands that write a file, run a program, set
// the system's state or read a configuration that runs programs; its
// audit says what was found and how bn decides it, so that a program
// cannot join the readers unread (TestReadersAudited).

// none is the audit of a reader whose manual shows no such option.
const none = "none: "

// plainReaders are the readers with no such option or operand, each with
// why.
var plainReaders = map[string]string{
	"ls":        none + "its options choose what it lists and how (GNU, BSD)",
	"cat":       none + "its options change how it prints",
	"zcat":      none + "it runs gzip -cd with its arguments, and no gzip option undoes -c (write to standard output); GZIP from the environment, which bn refuses to set under patterns",
	"head":      none + "its options choose how much it prints",
	"tail":      none + "-f and --pid only wait; its options choose what it prints",
	"wc":        none + "--files0-from reads a list of files: refused beside a deny of reading (listedReads)",
	"cut":       none + "its options choose fields and delimiters",
	"tr":        none + "its operands are sets of characters",
	"nl":        none + "its options choose the numbering",
	"od":        none + "its options choose the format",
	"hexdump":   none + "-f reads a format file, which only formats",
	"stat":      none + "-c, --printf and -f format; BSD -f, -t format",
	"du":        none + "--files0-from and -X read lists; --files0-from's files: refused beside a deny of reading (listedReads)",
	"df":        none + "its options choose what it shows",
	"pwd":       none + "-L and -P choose the path it prints",
	"echo":      none + "it prints its operands",
	"which":     none + "GNU which's --read-alias and --read-functions read its input",
	"whereis":   none + "-B, -M, -S name directories it searches",
	"type":      none + "the builtin prints what a name is",
	"id":        none + "it prints a user's ids",
	"whoami":    none + "it prints the user's name",
	"uname":     none + "it prints the system's names; it sets none",
	"basename":  none + "it prints a part of its operand",
	"dirname":   none + "it prints a part of its operand",
	"realpath":  none + "it prints a resolved path",
	"readlink":  none + "it prints a link's target",
	"sha1sum":   none + "-c reads a list of sums, and the files it names: refused beside a deny of reading (listedReads)",
	"sha256sum": none + "-c reads a list of sums, and the files it names: refused beside a deny of reading (listedReads)",
	"sha512sum": none + "-c reads a list of sums, and the files it names: refused beside a deny of reading (listedReads)",
	"md5sum":    none + "-c reads a list of sums, and the files it names: refused beside a deny of reading (listedReads)",
	"b2sum":     none + "-c reads a list of sums, and the files it names: refused beside a deny of reading (listedReads)",
	"cksum":     none + "-c reads a list of sums, and the files it names: refused beside a deny of reading (listedReads)",
	"comm":      none + "it compares two sorted files",
	"cmp":       none + "it compares two files",
	"diff":      none + "GNU diff runs no program (sdiff -o and diff3 --diff-program, which do, are other programs), BSD diff -l only pr; --from-file and --to-file are files it compares",
	"column":    none + "its options choose the layout",
	"fold":      none + "its options choose the width",
	"fmt":       none + "its options choose the width",
	"paste":     none + "its options choose the delimiters",
	"rev":       none + "it reverses lines",
	"seq":       none + "it prints numbers",
	"sleep":     none + "it waits",
	"printenv":  none + "it prints variables",
	"jq":        none + "its language reads and prints only (no system call in jq or gojq); -f, -L, --rawfile, --slurpfile read files, modules and ~/.jq are jq code",
	"true":      none + "it does nothing",
	"false":     none + "it does nothing",
	"test":      none + "it tests files and strings (a subscript that evaluates is refused with the builtins')",
	"[":         none + "it tests files and strings (a subscript that evaluates is refused with the builtins')",
	"grep":      none + "GNU and BSD grep run no program (--pre is ripgrep's); -f and --exclude-from read files",
	"egrep":     none + "it is grep -E",
	"fgrep":     none + "it is grep -F",
	"tac":       none + "its options choose the separator",
	"expand":    none + "its options choose the tab stops",
	"unexpand":  none + "its options choose the tab stops",
	"join":      none + "its options choose the fields",
	"strings":   none + "binutils' @FILE reads more of its options, none of which writes",
	"numfmt":    none + "its options choose the format",
	"expr":      none + "it evaluates its operands as arithmetic and matching only",
	"factor":    none + "it prints factors",
	"nproc":     none + "it prints a number",
	"uptime":    none + "it prints the time since boot",
	"tty":       none + "it prints the terminal's name",
	"locale":    none + "it prints locales (localedef, which writes, is another program)",
	"getconf":   none + "it prints configuration values",
}

// lessOpts are less's options (more's too: on macOS more is less) that
// take a value, and those that write a file or read a lesskey file,
// whose #env section can set LESSOPEN, the input preprocessor less runs.
var lessOpts = []opt{writes('o', "log-file"), writes('O', "LOG-FILE"),
	refuse('k', "lesskey-file", "reads a lesskey file, which can set the programs less runs (LESSOPEN, the editor)"),
	refuse(0, "lesskey-src", "reads a lesskey file, which can set the programs less runs (LESSOPEN, the editor)"),
	refuse(0, "lesskey-content", "sets lesskey commands, which can set the programs less runs (LESSOPEN, the editor)"),
	valued('b', "buffers"), valued('h', "max-back-scroll"), valued('j', "jump-target"), valued('p', "pattern"), valued('P', "prompt"),
	valued('t', "tag"), valued('T', "tag-file"), valued('x', "tabs"), valued('y', "max-forw-scroll"), valued('z', "window"),
	valued('#', "shift"), valued('D', "color"), valued(0, "header"), valued(0, "line-num-width"), valued(0, "status-col-width"),
	valued(0, "rscroll"), valued(0, "intr"), valued(0, "wheel-lines")}

// lessStart is a +CMD operand of less (and more) that only moves: to a
// line or the end, or to a search's first match (no control character,
// which would end the search and start another command).
// Compiled on first use: every bn command would pay for it at start.
var lessStart = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^\+\+?([0-9]*[gGFpP%]?|[/?][^\x00-\x1f\x7f]*)$`)
})

// lessOperand: +CMD runs less commands when a file opens, and those run
// programs (!, |, v) and write files (s).
func lessOperand(op word, _ []found) string {
	switch {
	case !op.static():
		if op.option {
			return "is not known before the line runs and may be a +command, which can run programs"
		}
	case strings.HasPrefix(op.value(), "+") && !lessStart().MatchString(op.value()):
		return "runs less commands when a file opens, which can run programs (!, |, v) or write files (s) (+N, +G, +F and +/pattern, which only move, are allowed)"
	}
	return ""
}

// dateOperand: an operand of date not starting with '+' sets the clock
// (GNU date MMDDhhmm[[CC]YY][.ss], BSD date [[[[cc]yy]mm]dd]HH]MM[.SS]),
// unless BSD date's -j keeps it from setting (GNU date has no -j and
// refuses it).
func dateOperand(op word, fs []found) string {
	switch {
	case slices.ContainsFunc(fs, func(f found) bool { return f.o.short == 'j' }):
	case !op.static():
		return "is not known before the line runs, and an operand not starting with + sets the system clock"
	case !strings.HasPrefix(op.value(), "+"):
		return "sets the system clock (only an operand starting with + is a format)"
	}
	return ""
}

var curlOpts = []opt{
	writes('o', "output"), writes('D', "dump-header"), writes('c', "cookie-jar"), writes(0, "trace"), writes(0, "trace-ascii"),
	writes(0, "libcurl"), writes(0, "stderr"), writes(0, "etag-save"), writes(0, "hsts"), writes(0, "alt-svc"), writes(0, "ssl-sessions"),
	refuseFlag('O', "remote-name", "writes a file named by the URL"), refuseFlag(0, "remote-name-all", "writes files named by the URLs"),
	refuseFlag('J', "remote-header-name", "writes a file named by the server"), refuse(0, "output-dir", "writes files in a directory"),
	refuse('K', "config", "reads options from a file, which can write anywhere"),
	{short: 'w', long: "write-out", arg: needArg, eff: refuseOpt, why: "writes the file a %output{} names, or reads its format from a file (@FILE)",
		when: func(v word) bool {
			return !v.static() || strings.Contains(v.value(), "%output{") || strings.HasPrefix(v.value(), "@")
		}},
	valued('d', "data"), valued('H', "header"), valued('X', "request"), valued('u', "user"), valued('A', "user-agent"), valued('e', "referer"),
	valued('b', "cookie"), valued('F', "form"), valued('T', "upload-file"), valued('m', "max-time"),
	valued(0, "connect-timeout"), valued('x', "proxy"), valued('r', "range"), valued('E', "cert"), valued(0, "cacert"), valued(0, "key"),
	flagOpt('g', "globoff"), valued(0, "data-raw"), valued(0, "data-binary"), valued(0, "data-urlencode"), valued(0, "json"), valued('Y', "speed-limit"),
	valued('y', "speed-time"), valued(0, "retry"), valued(0, "resolve"), valued(0, "url"), valued('U', "proxy-user"), valued('z', "time-cond"),
}

// checkedReaders adds the readers that have options or operands that
// write, run or set, with how bn decides each.
func checkedReaders(programs map[string]*program) {
	programs["zgrep"] = &program{class: Reads, custom: zevalCall,
		audit: "it runs gzip -cdfq and grep (or the GREP the environment names, which bn refuses to set under patterns), and passes its options to grep (the file names that made it write, CVE-2022-1271, are fixed since gzip 1.12); it evaluates its options with eval, and quotes in them can run commands (gzip 1.12): an argument with a quote, backslash, $ or ` is refused (zevalCall)"}
	for _, n := range []string{"zdiff", "zcmp"} {
		programs[n] = &program{class: Reads, custom: zevalCall,
			audit: "it evaluates diff's (or cmp's) options with eval, quoting the value of -C, -D, -F, -I, -S, -U, -W, -X and -x with no escape, so a quote in one runs shell text (gzip 1.12): an argument with a quote, backslash, $ or ` is refused (zevalCall); DIFF and CMP, which name the program, come from the environment, which bn refuses to set under patterns; it writes only a temporary file of its own"}
	}
	programs["zmore"] = &program{class: Reads, note: "zmore shows what it decompresses through the pager PAGER names (more), which runs what its user types",
		audit: "none: it takes no options (one starting with - is an error) and reads the files it is given through gzip -cdfq; PAGER, which it evaluates, comes from the environment, which bn refuses to set under patterns"}
	programs["mktemp"] = &program{class: Reads, custom: mktempCall,
		audit: "it creates a new file (or with -d a directory) named by its template, under -p/--tmpdir's directory: decided as a create (mktempCall); in TMPDIR (no template, -t, --tmpdir or -p without a directory) a file of a new name outside the project, which bn does not decide; -u creates nothing"}
	for _, n := range []string{"znew", "zforce", "gzexe"} {
		programs[n] = &program{class: Writes, custom: replacesCall, note: n + writesNote}
	}
	programs["printf"] = &program{class: Reads, audit: "-v assigns a variable: refused", posix: true,
		opts: []opt{refuse('v', "", "assigns a variable")}}
	programs["date"] = &program{class: Reads, audit: "-s/--set and an operand not starting with + set the clock (not with BSD's -j): refused; -f/--file and -r read",
		opts: []opt{refuse('s', "set", "sets the system clock"), valued('d', "date"), valued('r', "reference"), valued('f', "file"), valued('v', ""), flagOpt('j', ""),
			{short: 'I', long: "iso-8601", arg: optArg}, valued(0, "rfc-3339")},
		operandRefused: dateOperand}
	programs["hostname"] = &program{class: Reads, audit: "an operand, -F/--file and -b/--boot set the host name: refused",
		opts:           []opt{refuse('F', "file", "sets the host name from a file"), refuseFlag('b', "boot", "sets the host name")},
		operandRefused: func(word, []found) string { return "sets the host name (every operand does)" }}
	programs["file"] = &program{class: Reads, audit: "-C/--compile writes NAME.mgc for each -m file: refused; -z and -Z read compressed files through libmagic or the decompressors it names",
		opts: []opt{refuseFlag('C', "compile", "writes a compiled magic file (the -m file's name with .mgc)"), valued('m', "magic-file"),
			valued('f', "files-from"), valued('F', "separator"), valued('e', "exclude"), valued(0, "exclude-quiet"), valued('P', "parameter")}}
	lessNote := "%s runs what its user types (!, |, v) and the input preprocessor LESSOPEN names, and writes the file its s command names"
	for _, n := range []string{"less", "more"} {
		programs[n] = &program{class: Reads, note: fmt.Sprintf(lessNote, n), opts: lessOpts, operandRefused: lessOperand,
			audit: "-o/--log-file and -O/--LOG-FILE write: decided as writes; -k/--lesskey-file, --lesskey-src and --lesskey-content can set the programs it runs: refused; a +CMD operand runs less commands: refused unless it only moves"}
	}
	programs["zless"] = &program{class: Reads, note: fmt.Sprintf(lessNote, "zless"), opts: lessOpts, operandRefused: lessOperand,
		audit: "it runs less with its arguments (LESSOPEN set to gzip -cdfq): decided as less's"}
	programs["man"] = &program{class: Reads, note: "man shows pages through the pager MANPAGER or PAGER names",
		audit: "-P/--pager names a program, -H/--html and -X start a browser or viewer, -C/--config-file reads a configuration that names programs: refused",
		opts: []opt{refuse('P', "pager", "names a program to show the page with"), refuseFlag('H', "html", "starts a browser"),
			refuse('C', "config-file", "reads a configuration, which names the programs man runs"), refuseFlag('X', "gxditview", "starts a viewer")}}
	programs["rg"] = &program{class: Reads, audit: "--pre and --hostname-bin run programs: refused; -z runs decompressors it names",
		opts: []opt{refuse(0, "pre", "runs a program on every file it searches"), refuse(0, "hostname-bin", "runs the program it names to learn the host name"),
			valued('e', "regexp"), valued('f', "file"), valued('g', "glob"), valued('t', "type"), valued('T', "type-not"), valued('A', "after-context"),
			valued('B', "before-context"), valued('C', "context"), valued('m', "max-count"), valued('j', "threads"), valued('M', "max-columns"),
			valued('r', "replace"), valued('E', "encoding"), valued('d', "max-depth"), valued(0, "type-add"), valued(0, "ignore-file"), valued(0, "pre-glob")}}
	programs["shuf"] = &program{class: Reads, audit: "-o/--output writes: decided as a write; --random-source reads",
		opts: []opt{writes('o', "output"), flagOpt('e', "echo"), valued('i', "input-range"),
			valued('n', "head-count"), valued(0, "random-source"), flagOpt('r', "repeat"), flagOpt('z', "zero-terminated")}}
	programs["tee"] = &program{class: Reads, audit: "its operands are files it writes: decided as writes",
		opts:          []opt{flagOpt('a', "append"), flagOpt('i', "ignore-interrupts"), flagOpt('p', ""), {long: "output-error", arg: optArg}},
		operandWrites: func(ops []word, _ []found) []int { return indexes(len(ops), 0) }}
	programs["sort"] = &program{class: Reads, audit: "-o/--output writes: decided as a write; --compress-program runs a program: refused",
		opts: []opt{writes('o', "output"), refuse(0, "compress-program", "runs a program to compress its temporary files"),
			valued('k', "key"), valued('t', "field-separator"), valued('S', "buffer-size"), valued('T', "temporary-directory"), valued(0, "parallel"),
			valued(0, "batch-size"), valued(0, "sort"), valued(0, "random-source"), valued(0, "files0-from")}}
	programs["uniq"] = &program{class: Reads, audit: "its second operand is a file it writes: decided as a write",
		opts: []opt{valued('f', "skip-fields"), valued('s', "skip-chars"), valued('w', "check-chars"),
			{long: "group", arg: optArg}, {short: 'D', long: "all-repeated", arg: optArg}},
		operandWrites: func(ops []word, _ []found) []int { return indexes(len(ops), 1) }}
	programs["xxd"] = &program{class: Reads, custom: xxdCall, audit: "its second operand is a file it writes (with -r too, patching it in place): decided as a write (xxdCall)"}
	programs["tree"] = &program{class: Reads, custom: treeCall, audit: "-o writes: decided as a write, its value read as tree reads it (treeCall); -R writes 00Tree.html in every directory: refused"}
	programs["curl"] = &program{class: Reads, note: "curl sends requests to what its arguments name", opts: curlOpts, custom: curlCall,
		audit: "-o, -D, -c, --trace and the like write, and -T/--upload-file writes the file a file:// URL names: decided as writes (long options only by their whole name, as curl takes them); -O, -J, --output-dir write files it names itself, -K reads options, -w with %output{} or @FILE writes or reads, -o naming #N (URL globbing) writes a file bn cannot name: refused; a file:// URL, -T FILE and the @FILE of -d, -F, -H read: held to the read rules"}
}

// curlCall: curl writes the files its output options name and, with
// -T/--upload-file, the file each file:// URL names; it reads a
// file:// URL without -T, -T's file and the @FILE of -d, -F, -H. Under
// a shell allowed whole the writes are recorded for the hook's guard.
func curlCall(w *walker, c call) {
	fs, ops, maybe := parseExact(curlOpts, c.args)
	globs := !slices.ContainsFunc(fs, func(f found) bool { return f.o.short == 'g' })
	for _, f := range fs {
		// URL globbing fills #N in an output name with what the glob matched.
		if f.o.short == 'o' && f.has && globs && curlGlobRef(f.value) {
			w.unnamed(c, fmt.Sprintf("curl %s %s names its file by the URL's glob (#N), which bn cannot name", f.src, f.value.src))
			return
		}
	}
	if w.mode == limited {
		if len(maybe) > 0 {
			w.refuse(refused(c.text, "the argument %s is not known before the line runs and may be a curl option (some of which write files); write it out", maybe[0].src))
			return
		}
		if !w.options(c, fs) {
			return
		}
	} else {
		for _, f := range fs {
			if f.o.eff == writeOpt && f.has {
				w.writeArg(c.text, "curl "+strings.SplitN(f.src, "=", 2)[0], agents.KindCreate, f.value, c.d)
			}
		}
	}
	urls := ops
	upload := -1
	for i, f := range fs {
		switch {
		case f.o.long == "url" && f.has:
			urls = append(urls, f.value)
		case f.o.short == 'T' && f.has:
			upload = i
			w.readArg(c, "curl "+f.src, f.value)
		case f.has:
			if file, ok := curlDataFile(f); ok {
				w.readArg(c, "curl "+f.src, file)
			}
		}
	}
	for _, u := range urls {
		if w.stopped() {
			return
		}
		if upload < 0 {
			curlReadURL(w, c, u)
			continue
		}
		what := "curl " + fs[upload].src
		if !u.static() {
			w.unnamed(c, fmt.Sprintf("%s uploads to %s, a URL not known before the line runs, which may name a local file", what, u.src))
			continue
		}
		if !strings.HasPrefix(strings.ToLower(u.value()), "file:") {
			continue
		}
		if p, ok := fileURLPath(u.value()); ok {
			w.writeArg(c.text, what, agents.KindCreate, literal(p), c.d)
		} else {
			w.unnamed(c, fmt.Sprintf("%s uploads to %s, a file bn cannot name (percent-encoding, a glob, a host or a directory)", what, u.src))
		}
	}
}

// curlGlobRef reports whether an output name may hold a #N, which URL
// globbing fills: in any word the shell makes of it (after quote
// removal, so "#"1 is #1), or in its source when it is known only
// when the line runs.
func curlGlobRef(name word) bool {
	ref := func(s string) bool {
		for i := 0; i+1 < len(s); i++ {
			if s[i] == '#' && '0' <= s[i+1] && s[i+1] <= '9' {
				return true
			}
		}
		return false
	}
	return name.vals == nil && ref(name.src) || slices.ContainsFunc(name.vals, ref)
}

// curlReadURL decides a file:// URL as a read of its file, where the
// rules limit reads; one bn cannot name plainly is refused there.
func curlReadURL(w *walker, c call, u word) {
	if !w.limitsReads() {
		return
	}
	if !u.static() {
		w.refuse(refused(c.text, "curl %s is a URL not known before the line runs, which may name a local file (file://) the rules keep from the agent; write it out", u.src))
		return
	}
	if !strings.HasPrefix(strings.ToLower(u.value()), "file:") {
		return
	}
	p, ok := fileURLPath(u.value())
	if !ok {
		w.refuse(refused(c.text, "curl reads %s, a file bn cannot name (percent-encoding, a glob, a host or a directory), which may be one the rules keep from the agent; write the path plainly", u.src))
		return
	}
	w.file(agents.KindRead, "curl", literal(p), c.d, false)
}

// readArg decides a file an option of a program reads, where the rules
// limit reads ("-" is its input).
func (w *walker) readArg(c call, what string, v word) {
	if !w.limitsReads() || v.static() && v.value() == "-" {
		return
	}
	w.file(agents.KindRead, what, v, c.d, false)
}

// limitsReads: the rules keep some file from the agent's reads.
func (w *walker) limitsReads() bool {
	return w.e.limits(agents.KindRead) || w.e.deniesSomePaths(agents.KindRead)
}

// curlDataFile is the file a curl option's value reads: -d, --data-binary,
// --json, -H @FILE; --data-urlencode [name]@FILE; -F name=@FILE or
// name=<FILE (up to its ;type=).
func curlDataFile(f found) (word, bool) {
	v := f.value.value()
	if !f.value.static() {
		if f.o.short == 'd' || f.o.short == 'F' || f.o.short == 'H' || f.o.long == "data-binary" || f.o.long == "data-urlencode" || f.o.long == "json" {
			return f.value, true // refused where reads are limited: not known now
		}
		return word{}, false
	}
	switch {
	case f.o.short == 'd' || f.o.short == 'H' || f.o.long == "data-binary" || f.o.long == "json":
		if rest, ok := strings.CutPrefix(v, "@"); ok {
			return literal(rest), true
		}
	case f.o.long == "data-urlencode":
		if i := strings.IndexAny(v, "=@"); i >= 0 && v[i] == '@' {
			return literal(v[i+1:]), true
		}
	case f.o.short == 'F':
		if _, val, ok := strings.Cut(v, "="); ok && (strings.HasPrefix(val, "@") || strings.HasPrefix(val, "<")) {
			file, _, _ := strings.Cut(val[1:], ";")
			return literal(file), true
		}
	}
	return word{}, false
}

// unnamed is a write of a file bn cannot name: refused under patterns,
// unplaced for the hook's guard otherwise.
func (w *walker) unnamed(c call, why string) {
	if w.mode == limited {
		w.refuse(refused(c.text, "%s; bn refuses it under patterns", why))
		return
	}
	w.unplaced(c, why)
}

// fileURLPath is the local path a file:// URL names, when curl reads it
// plainly: no host but localhost, no percent-encoding, no glob ({}, []),
// query or fragment, and not a directory (where curl adds the uploaded
// file's name).
func fileURLPath(u string) (string, bool) {
	rest := u[len("file:"):]
	rest, ok := strings.CutPrefix(rest, "//")
	if !ok {
		return "", false
	}
	if !strings.HasPrefix(rest, "/") {
		if rest, ok = strings.CutPrefix(rest, "localhost/"); !ok {
			return "", false
		}
		rest = "/" + rest
	}
	if strings.ContainsAny(rest, "%{}[]?#\\") || strings.HasSuffix(rest, "/") {
		return "", false
	}
	// file:///C:/x names C:/x on Windows.
	if len(rest) > 2 && rest[2] == ':' {
		rest = rest[1:]
	}
	return rest, true
}

// xxdValued: the xxd options that take a value, with the rest of each
// one's long name. xxd reads a word "-" (or "--") and a letter as the
// option the letter names whatever follows it (-ps is -p, -rs is -r,
// -bits is -b); a value-taking option takes the next word when nothing
// follows its letter or the rest spells its long name (-cols 8, -seek 1),
// else the rest is its value (-c8). -R (later xxds) takes the next word.
var xxdValued = map[byte][]string{'c': {"ols"}, 'g': {"roup"}, 'l': {"en"}, 'n': {"ame"}, 'o': {"ffset"}, 's': {"kip", "eek"}, 'R': nil}

// xxdFlags: its options that take no value (-h and -v print and exit).
const xxdFlags = "abeupiCdrEhv"

// xxdCall reads xxd's arguments as xxd does (xxd.c's loop, not getopt)
// and decides its second operand, the file it writes, as a write.
func xxdCall(w *walker, c call) {
	args := c.args
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !a.static() {
			if !a.option {
				break
			}
			w.refuse(refused(c.text, "the argument %s is not known before the line runs and may be an xxd option, which moves the file it writes; write it out", a.src))
			return
		}
		v := a.value()
		if v == "--" {
			i++
			break
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		opt := v[1:]
		if len(v) > 2 && v[1] == '-' {
			opt = v[2:]
		}
		letter, rest := opt[0], opt[1:]
		if strings.IndexByte(xxdFlags, letter) >= 0 {
			continue
		}
		tails, ok := xxdValued[letter]
		if !ok {
			if w.mode == limited {
				w.refuse(refused(c.text, "xxd %s is an option bn does not know, which may take a value and move the file xxd writes; bn refuses it under patterns", v))
			}
			return
		}
		if letter == 'c' && strings.HasPrefix(rest, "apitalize") {
			continue
		}
		next := rest == "" || letter == 'R'
		for _, t := range tails {
			next = next || strings.HasPrefix(rest, t)
		}
		if next {
			i++
		}
	}
	ops := args[min(i, len(args)):]
	if len(ops) > 1 {
		w.writeArg(c.text, c.name, agents.KindCreate, ops[1], c.d)
	}
}

// zevalCall refuses the arguments of gzip's zgrep, zdiff and zcmp that
// their eval could run: gzip 1.12's zgrep quotes each option for an
// eval, but a lone quote in one (--regexp=x') ends the quoting, and the
// next argument runs as shell text; zdiff and zcmp quote the value of
// -I (and -C, -D, -F, -S, -U, -W, -X, -x) without escaping it
// (zdiff -I "';CMD;'"). Any argument with a quote, backslash, $ or ` (or
// not known now) is refused, since bn cannot follow the scripts'
// quoting.
func zevalCall(w *walker, c call) {
	for _, a := range c.args {
		if !a.static() || strings.ContainsAny(a.value(), "'\"\\`$\n") {
			w.refuse(refused(c.text, "%s evaluates its arguments as shell text (gzip's script runs eval), and the argument %s holds a quote, backslash, $ or `, or is not known before the line runs, which can run commands; write it without them, or decompress with gzip -cd first", c.name, a.src))
			return
		}
	}
}

// replacesCall: gzip's znew, zforce and gzexe replace, rename and
// remove the files they are given (znew writes F.gz for F.Z and removes
// F.Z; zforce renames F to F.gz; gzexe replaces F and keeps F~), which
// bn does not follow name by name: refused under patterns; under a shell
// allowed whole each operand is recorded for the hook's guard.
func replacesCall(w *walker, c call) {
	if w.mode == limited {
		w.refuse(refused(c.text, "%s replaces, renames or removes the files it is given under names of its own, which bn does not check against the rules; bn refuses it under patterns", c.name))
		return
	}
	for _, a := range c.args {
		if a.option {
			continue
		}
		w.seen(agents.KindEdit, c.name, a, c.d)
		if made := replacedName(c.name, a); made.src != "" {
			w.seen(agents.KindCreate, c.name, made, c.d)
		}
	}
}

// replacedName is the file znew, zforce or gzexe makes for an operand:
// F.gz for znew's F or F.Z and zforce's F, gzexe's backup F~.
func replacedName(name string, a word) word {
	if !a.static() {
		return word{}
	}
	switch v := a.value(); name {
	case "znew":
		return literal(strings.TrimSuffix(v, ".Z") + ".gz")
	case "zforce":
		return literal(v + ".gz")
	}
	return literal(a.value() + "~")
}

// treeShorts and treeLongs are tree's options (tree 2.1's --help).
const treeShorts = "adlfxLRPIoqNQpugshDFvtcUriASnCXJHT"

var treeLongs = []string{"help", "version", "gitignore", "gitfile", "ignore-case", "matchdirs", "metafirst", "prune", "info", "infofile",
	"noreport", "charset", "filelimit", "si", "du", "timefmt", "inodes", "device", "dirsfirst", "filesfirst", "sort", "nolinks", "hintro",
	"houtro", "fromfile", "fromtabfile", "fflinks", "opt-toggle", "hyperlink", "scheme", "authority", "condense"}

// valuedBefore: no letter before group[k] takes a value (tree takes a
// glued value in some versions, -L2, which is no option letter).
func valuedBefore(group string, k int) bool {
	return !strings.ContainsAny(group[:k], "LPIoHT")
}

// treeCall: tree takes the value of each letter of a group that needs
// one from the words after the group, in order (tree -Lo 1 F is -L 1
// -o F), where getopt would take the rest of the group; some versions
// take a value glued on. Every word that may be -o's value, by either
// reading, is decided as a write; -R writes 00Tree.html into every
// directory it lists: refused under patterns.
func treeCall(w *walker, c call) {
	limited := w.mode == limited
	args := c.args
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.value()
		switch {
		case !a.static():
			if a.option && limited {
				w.refuse(refused(c.text, "the argument %s is not known before the line runs and may be a tree option (-o writes a file); write it out", a.src))
				return
			}
			continue
		case v == "--":
			return
		case strings.HasPrefix(v, "--"):
			name, _, hasVal := strings.Cut(v[2:], "=")
			if limited && !slices.Contains(treeLongs, name) {
				w.refuse(refused(c.text, "tree %s is an option bn does not know of tree, and one bn has not read in its manual may write a file or run a program; bn refuses it under patterns: leave it out, ask for it to be added to bn's table of tree's options, or allow the shell whole", "--"+name))
				return
			}
			if !hasVal && slices.Contains([]string{"filelimit", "charset", "sort", "timefmt", "hintro", "houtro", "fromfile"}, name) &&
				i+1 < len(args) && !args[i+1].option {
				i++
			}
			continue
		case !strings.HasPrefix(v, "-") || v == "-":
			continue
		}
		group := v[1:]
		if k := strings.IndexFunc(group, func(r rune) bool { return !strings.ContainsRune(treeShorts, r) }); k >= 0 && limited && valuedBefore(group, k) {
			w.refuse(refused(c.text, "tree -%c is an option bn does not know of tree, and one bn has not read in its manual may write a file or run a program; bn refuses it under patterns: leave it out, ask for it to be added to bn's table of tree's options, or allow the shell whole", group[k]))
			return
		}
		if strings.ContainsRune(group, 'R') && limited {
			w.refuse(refused(c.text, "tree -R writes 00Tree.html into every directory it lists (with -H); bn refuses it under patterns"))
			return
		}
		valued := 0
		for _, ch := range group {
			if strings.ContainsRune("LPIHTo", ch) {
				valued++
			}
		}
		var outs []word
		if o := strings.IndexByte(group, 'o'); o >= 0 {
			if glued := group[o+1:]; glued != "" {
				outs = append(outs, literal(glued))
			}
			for j := i + 1; j <= i+valued && j < len(args); j++ {
				outs = append(outs, args[j])
			}
		}
		for _, out := range outs {
			if w.writeArg(c.text, "tree -o", agents.KindCreate, out, c.d); w.stopped() {
				return
			}
		}
		// The values after the group, but a word that may be an option
		// is read as one too.
		for ; valued > 0 && i+1 < len(args) && !args[i+1].option; valued-- {
			i++
		}
	}
}

// mktempOpts are GNU mktemp's options (BSD's -d, -q, -t, -u, -p too).
var mktempOpts = []opt{flagOpt('d', "directory"), flagOpt('u', "dry-run"), flagOpt('q', "quiet"), valued(0, "suffix"),
	valued('p', ""), {long: "tmpdir", arg: optArg}, flagOpt('t', "")}

// mktempCall: mktemp creates DIR/TEMPLATE+SUFFIX, its X's made random
// (a new file, never one that is there), DIR being -p's or --tmpdir's;
// without a directory, a template is relative to where it runs. In
// TMPDIR (no template, -t, or --tmpdir or -p without a directory) it
// creates outside the project, where no rule of the agent's reaches.
func mktempCall(w *walker, c call) {
	fs, ops, maybe := parseOpts(mktempOpts, c.args, false)
	if len(maybe) > 0 && w.mode == limited {
		w.refuse(refused(c.text, "the argument %s is not known before the line runs and may be a mktemp option (-p names where it creates); write it out", maybe[0].src))
		return
	}
	var dir *word
	tmp, suffix := len(ops) == 0, ""
	for _, f := range fs {
		switch {
		case f.o.short == 'u':
			return
		case f.o.short == 'p' || f.o.long == "tmpdir":
			tmp = true
			if f.has && (!f.value.static() || f.value.value() != "") {
				dir = &f.value
			}
		case f.o.short == 't':
			tmp = true
		case f.o.long == "suffix" && f.has:
			suffix = f.value.value()
		}
	}
	if tmp && dir == nil {
		return
	}
	made := literal("tmp.XXXXXXXXXX" + suffix)
	if len(ops) > 0 {
		made = ops[0]
		if made.static() {
			made = literal(made.value() + suffix)
		}
	}
	switch {
	case dir == nil:
	case !dir.static():
		made = *dir
	case made.static():
		made = literal(path.Join(filepath.ToSlash(dir.value()), made.value()))
	}
	if w.mode == limited {
		w.writeArg(c.text, "mktemp", agents.KindCreate, made, c.d)
	} else {
		w.seen(agents.KindCreate, "mktemp", made, c.d)
	}
}
