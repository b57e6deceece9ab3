package enforce

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/binnacle-dev/bn/agents"
)

// What bn knows of the programs agents are allowed: the arguments
// through which a program runs code or writes files, and the commands
// it runs. Under patterns an allowed program's refused arguments are
// refused, its file writes decided as writes, and the command a runner
// runs decided as a command; under a shell allowed whole, the command a
// runner runs is matched against the deny rules. What a program may do
// beyond that is reported as advisory. A program bn does not know is
// decided by its name alone.

// Class says what a program may do beyond what bn checks of it.
type Class int

const (
	// Unknown: bn does not know the program.
	Unknown Class = iota
	// Reads: it reads files and writes none but those bn checks.
	Reads
	// Writes: it writes files its arguments name, unchecked.
	Writes
	// Runs: it runs whatever code its arguments or files name (shells,
	// interpreters, build tools): allowing it is allowing the shell.
	Runs
	// Runner: it runs another command, which bn decides as a command.
	Runner
)

type argKind int

const (
	noArg   argKind = iota
	needArg         // a value: attached, after '=', or the next word
	optArg          // a value only when attached ("-i.bak", "--in-place=.bak")
)

type effect int

const (
	plainOpt    effect = iota
	seenOpt            // of a writer: its value is a file it may write, recorded as its operands are
	refuseOpt          // runs code, or writes where bn cannot check
	dirWriteOpt        // its value is a directory the program writes files in, under names bn does not know (git)
	writeOpt           // its value is a file the program creates or overwrites
)

// opt is one option: a short letter, a long name (without "--"), or both.
type opt struct {
	short byte
	long  string
	arg   argKind
	eff   effect
	why   string
	// when: the refusal holds only for a value it returns true for
	// (curl -w '%output{f}' writes f, other formats print); of a write,
	// the values that name a command it runs instead (strace -o '|cmd').
	when func(v word) bool
	// runs: what its value makes the program run, which the deny rules
	// of a shell allowed whole see (optionsRun).
	runs runKind
}

// runKind is what an option's value makes a program run.
type runKind int

const (
	runsNothing runKind = iota
	runsLine            // a line sh -c runs (tar -I, --to-command)
	runsExec            // tar's --checkpoint-action=exec=LINE
	runsProgram         // a program, with arguments of the program's (tar --rsh-command, pandoc --filter)
	runsUnread          // a file bn does not read that names programs to run (pandoc -d)
)

func flagOpt(short byte, long string) opt { return opt{short: short, long: long} }
func valued(short byte, long string) opt  { return opt{short: short, long: long, arg: needArg} }
func writes(short byte, long string) opt {
	return opt{short: short, long: long, arg: needArg, eff: writeOpt}
}
func seen(short byte, long string) opt {
	return opt{short: short, long: long, arg: needArg, eff: seenOpt}
}
func refuse(short byte, long, why string) opt {
	return opt{short: short, long: long, arg: needArg, eff: refuseOpt, why: why}
}
func refuseFlag(short byte, long, why string) opt {
	return opt{short: short, long: long, eff: refuseOpt, why: why}
}

// runner is an option refused under patterns whose value names what the
// program runs, decided under a shell allowed whole (optionsRun).
func runner(short byte, long, why string, runs runKind) opt {
	o := refuse(short, long, why)
	o.runs = runs
	return o
}

// program is what bn knows of one program.
type program struct {
	class Class
	note  string // advisory: what it may do that bn does not check
	// audit: for a reader, what its GNU and BSD manuals say of its
	// options and operands that write files, run programs or set the
	// system's state, and how bn decides them ("none" with why when it
	// has none). Every reader has one (TestReadersAudited), so a reader
	// cannot be listed without its manual having been read for them.
	audit string
	opts  []opt
	// operandRefused says why an operand is refused under patterns (it
	// sets the system's state: hostname NAME, date MMDDhhmm; it runs
	// commands: less +CMD), given the options found (BSD date -j sets
	// nothing); "" when it is not.
	operandRefused func(op word, fs []found) string
	posix          bool // options end at the first operand
	// inner: the operands after lead are a command it runs.
	inner bool
	lead  int
	// operandWrites: which operands are files it writes.
	operandWrites func(ops []word, found []found) []int
	// custom decides the program's arguments itself.
	custom func(w *walker, c call)
	// assigns: its operands are NAME=VALUE, and the one named so (dd's
	// "of") is the file it writes.
	assigns string
	// unpacks says where it writes files its input names (tar -x, unzip,
	// patch): unpack.go.
	unpacks func(p *program, args []word) unpack
	// copies: it copies its operands into its last (or -t), whose files
	// under it are what it writes (cp, mv, rsync).
	copies bool
	// backs: it makes backups of the files it replaces (backups).
	backs bool
	// packs: a compressor, which writes beside each operand (packed).
	packs bool
	// edits: an editor, which may change every file its operands name
	// (ed, vim -es, emacs --batch); recorded as Writes' are.
	edits bool
	// oldStyle: a first word without a dash is a cluster of its options,
	// whose values follow it in their order (tar cIf CMD A).
	oldStyle bool
	// listed: opts lists every option of the program (options.go), so
	// one it does not list is refused under patterns.
	listed bool
	// table is its options as getopt's (options.go), added to opts when
	// the program is first decided, not at every start; once guards that.
	table *optionTable
	once  sync.Once
}

// options are every option bn knows of the program: its definition's,
// then its table's, parsed the first time a line runs the program.
func (p *program) options() []opt {
	p.once.Do(func() {
		if p.table != nil {
			p.opts = append(p.opts, p.table.opts()...)
		}
	})
	return p.opts
}

// args reads a program's arguments as parseOpts does, and a first word
// of old-style options (tar cf A) as tar does.
func (p *program) args(args []word) (fs []found, ops, maybe []word) {
	if !p.oldStyle || len(args) == 0 || !args[0].static() || args[0].value() == "" || strings.HasPrefix(args[0].value(), "-") {
		return parseOpts(p.options(), args, p.posix)
	}
	rest := args[1:]
	for _, ch := range []byte(args[0].value()) {
		o := matchShort(p.options(), ch)
		if o == nil {
			continue
		}
		f := found{o: o, src: "-" + string(ch)}
		if o.arg == needArg && len(rest) > 0 {
			f.value, f.has, rest = rest[0], true, rest[1:]
		}
		fs = append(fs, f)
	}
	more, ops, maybe := parseOpts(p.options(), rest, p.posix)
	return append(fs, more...), ops, maybe
}

// call is one run of a program being decided.
type call struct {
	text  string
	name  string
	args  []word
	d     dirs
	depth int
}

func (w *walker) limitedMode() bool { return w.mode == limited }

// found is an option found in a command's arguments.
type found struct {
	o     *opt
	value word
	has   bool
	src   string
}

// parseOpts reads args as getopt does: short clusters, long options by
// any unique prefix (as GNU getopt_long and git accept), "--". maybe
// are words not known now that could be options. Options spec does not
// name are passed over.
func parseOpts(spec []opt, args []word, posix bool) (fs []found, ops, maybe []word) {
	fs, ops, maybe, _ = scanOpts(spec, args, posix, false)
	return fs, ops, maybe
}

// parseExact is parseOpts for a program that takes long options only by
// their whole name (curl: --ssl is not --ssl-sessions).
func parseExact(spec []opt, args []word) (fs []found, ops, maybe []word) {
	fs, ops, maybe, _ = scanOpts(spec, args, false, true)
	return fs, ops, maybe
}

// scanOpts is parseOpts that also returns the option words holding an
// option spec does not name, for a program whose unknown options bn
// refuses (sudo). exact: long options match only by their whole name.
func scanOpts(spec []opt, args []word, posix, exact bool) (fs []found, ops, maybe []word, unknown []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.static() {
			if a.option {
				maybe = append(maybe, a)
			}
			ops = append(ops, a)
			if posix {
				return fs, append(ops, args[i+1:]...), maybe, unknown
			}
			continue
		}
		v := a.value()
		switch {
		case v == "--":
			return fs, append(ops, args[i+1:]...), maybe, unknown
		case v == "-" || !strings.HasPrefix(v, "-"):
			ops = append(ops, a)
			if posix {
				return fs, append(ops, args[i+1:]...), maybe, unknown
			}
			continue
		case strings.HasPrefix(v, "--"):
			name, val, hasVal := strings.Cut(v[2:], "=")
			o := matchLong(spec, name)
			if exact && o != nil && o.long != name {
				o = nil
			}
			if o == nil {
				unknown = append(unknown, v)
				continue
			}
			f := found{o: o, src: v}
			switch {
			case hasVal:
				f.value, f.has = literal(val), true
			case o.arg == needArg && i+1 < len(args):
				i++
				f.value, f.has = args[i], true
			}
			fs = append(fs, f)
			continue
		}
		for j := 1; j < len(v); j++ {
			o := matchShort(spec, v[j])
			if o == nil {
				// Read on: a letter after it may be a known option or its
				// value; read as an option, it is refused rather than missed.
				unknown = append(unknown, "-"+v[j:j+1])
				continue
			}
			f := found{o: o, src: v}
			if o.arg != noArg {
				switch {
				case j+1 < len(v):
					f.value, f.has = literal(v[j+1:]), true
				case o.arg == needArg && i+1 < len(args):
					i++
					f.value, f.has = args[i], true
				}
				fs = append(fs, f)
				break
			}
			fs = append(fs, f)
		}
	}
	return fs, ops, maybe, unknown
}

// matchLong finds a long option by its name or a prefix of it; of
// several, the one with the gravest effect (an abbreviation bn cannot
// place is read as the most dangerous option it may be).
func matchLong(spec []opt, name string) *opt {
	var best *opt
	for i := range spec {
		o := &spec[i]
		if o.long == "" || !strings.HasPrefix(o.long, name) || name == "" {
			continue
		}
		if o.long == name {
			return o
		}
		if best == nil || o.eff > best.eff {
			best = o
		}
	}
	return best
}

func matchShort(spec []opt, c byte) *opt {
	for i := range spec {
		if spec[i].short == c {
			return &spec[i]
		}
	}
	return nil
}

// risky: the program has arguments bn refuses or checks, so an argument
// not known now that may be an option cannot be left to it.
func (p *program) risky() bool {
	return p.custom != nil || p.inner || p.operandWrites != nil || p.operandRefused != nil ||
		slices.ContainsFunc(p.opts, func(o opt) bool { return o.eff != plainOpt })
}

// check decides an allowed program's arguments under patterns.
func (p *program) check(w *walker, text string, words []word, d dirs) {
	c := call{text: text, name: words[0].value(), args: words[1:], d: d}
	if p.class == Runs {
		// Allowed whole by its pattern; the deny rules still see what
		// bn can see of what it runs.
		if len(w.denyRules()) > 0 {
			w.mode = open
			p.see(w, text, words, d, 0)
			w.mode = limited
		}
		return
	}
	if p.custom != nil {
		// Its own checks say better why what they refuse is refused.
		if p.custom(w, c); !w.stopped() {
			w.optionsUnknown(c, p)
		}
		return
	}
	if p.inner && w.unknownOpt(c, p.options(), p.posix) || w.optionsUnknown(c, p) {
		return
	}
	fs, ops, maybe := p.args(c.args)
	if !w.options(c, fs) {
		return
	}
	if len(maybe) > 0 && p.risky() {
		w.refuse(refused(text, "the argument %s is not known before the line runs and may be an option of %s (some of which run commands or write files); write it out, or after --", maybe[0].src, c.name))
		return
	}
	if p.operandRefused != nil {
		for _, op := range ops {
			if why := p.operandRefused(op, fs); why != "" {
				w.refuse(refused(text, "%s %s %s; bn refuses it under patterns", c.name, op.src, why))
				return
			}
		}
	}
	if p.unpacks != nil {
		if why := p.unpacks(p, c.args).remote; why != "" {
			w.refuse(refused(text, "%s", why))
			return
		}
	}
	if p.operandWrites != nil {
		for _, i := range p.operandWrites(ops, fs) {
			w.writeArg(text, c.name, agents.KindCreate, ops[i], d)
		}
	}
	if p.inner && len(ops) > p.lead && w.runnerMoves(&c, fs) {
		w.innerCommand(c, ops[p.lead:])
	}
}

// runnerMoves follows the directory unshare and nsenter run their command
// in (-w/--wd, as env -C), and refuses another root (unshare -R, nsenter
// -r) or the target's directory (nsenter -w alone), where bn cannot place
// the paths the command names; false when it refused.
func (w *walker) runnerMoves(c *call, fs []found) bool {
	if c.name != "unshare" && c.name != "nsenter" {
		return true
	}
	for _, f := range fs {
		switch {
		case f.o.long == "root":
			w.refuse(refused(c.text, "%s %s runs the command under another root directory, where bn cannot place the files it names; run it without", c.name, spelt(f)))
			return false
		case f.o.long == "wd" && !f.has:
			w.refuse(refused(c.text, "%s %s runs the command in the target process's directory, which bn cannot follow; give the directory (--wd=DIR)", c.name, spelt(f)))
			return false
		case f.o.long == "wd":
			_, c.d = w.e.cdDirs([]word{literal("cd"), f.value}, c.d, false)
		}
	}
	return true
}

// options applies the options found: refused ones refuse, written files
// are decided as writes.
func (w *walker) options(c call, fs []found) bool {
	for _, f := range fs {
		switch f.o.eff {
		case refuseOpt:
			if f.o.when != nil && f.has && !f.o.when(f.value) {
				continue
			}
			w.refuse(refused(c.text, "%s %s %s; bn refuses it under patterns", c.name, f.src, f.o.why))
			return false
		case writeOpt:
			if !f.has {
				continue
			}
			if f.o.when != nil && (!f.value.static() || f.o.when(f.value)) {
				w.refuse(refused(c.text, "%s %s names %s, a command it runs (%s); bn refuses it under patterns", c.name, spelt(f), f.value.src, f.o.why))
				return false
			}
			w.writeArg(c.text, c.name+" "+strings.SplitN(f.src, "=", 2)[0], agents.KindCreate, f.value, c.d)
			if w.stopped() {
				return false
			}
		}
	}
	return true
}

// optionsRun decides, under a shell allowed whole, what the options
// found make the program run, as the deny rules would the command
// itself: a line as sh -c's, a program as a command of its own. What bn
// cannot read (a value not known before the line runs, a file that
// names programs) is refused where deny rules hold the shell; a file
// that names files to read is refused beside a deny of reading by
// namedUnreadable.
func (w *walker) optionsRun(c call, fs []found) {
	for _, f := range fs {
		if f.o.runs == runsNothing || !f.has || f.o.when != nil && !f.o.when(f.value) {
			continue
		}
		v := f.value.value()
		if f.o.runs == runsExec {
			v = tarExec(v)
		}
		switch {
		case len(w.denyRules()) == 0 && (!f.value.static() || f.o.runs == runsUnread || v == ""):
		case !f.value.static():
			w.refuse(refused(c.text, "%s %s runs a command not known before the line runs, which %s could refuse; write it out", c.name, spelt(f), w.holds()))
		case f.o.runs == runsUnread:
			w.refuse(refused(c.text, "%s %s %s, which bn does not read, so it cannot check them against %s; give their options on the line", c.name, spelt(f), f.o.why, w.holds()))
		case v == "" && !strings.HasPrefix(f.value.value(), "exec="):
			w.refuse(refused(c.text, "%s %s runs the command after \"exec\", which bn reads only written as exec=CMD, and %s could refuse it; write it as exec=CMD", c.name, spelt(f), w.holds()))
		case v == "":
			w.refuse(refused(c.text, "%s %s runs a command bn does not read (tar unquotes it and reads its backslash escapes), which %s could refuse; write it without backslashes, as exec=CMD", c.name, spelt(f), w.holds()))
		case f.o.runs == runsProgram:
			w.innerCommand(c, []word{literal(v)})
		default:
			w.subline(v, c.text, c.d)
		}
		if w.stopped() {
			return
		}
	}
}

// tarExec is the line tar's --checkpoint-action=exec=LINE runs: after
// "exec=", a pair of quotes around it removed; "" when bn cannot read it
// (no "=", or a backslash, whose escapes tar reads as C's).
func tarExec(v string) string {
	_, line, ok := strings.Cut(v, "=")
	if !ok || !strings.HasPrefix(v, "exec=") || strings.Contains(line, `\`) {
		return ""
	}
	if len(line) > 1 && (line[0] == '"' || line[0] == '\'') && line[len(line)-1] == line[0] {
		line = line[1 : len(line)-1]
	}
	return line
}

// spelt is an option found as written, without its value: "--output"
// of "--output=f", "-o" of "-of" or "-xo".
func spelt(f found) string {
	if s := strings.SplitN(f.src, "=", 2)[0]; strings.HasPrefix(s, "--") {
		return s
	}
	return "-" + string(f.o.short)
}

// innerCommand decides the command a runner runs, as a command of its
// own (it must be allowed too), whose text is its words.
func (w *walker) innerCommand(c call, inner []word) {
	if len(inner) == 0 {
		return
	}
	srcs := make([]string, len(inner))
	for i, x := range inner {
		srcs[i] = x.src
	}
	text := strings.Join(srcs, " ")
	save := w.last
	if w.mode == limited {
		w.limitedCommand(text, inner, c.d, true)
	} else {
		w.openCommand(text, inner, c.d, c.depth+1)
	}
	if !w.stopped() {
		w.last = save
	}
}

// see finds, under a shell allowed whole, the commands a program runs,
// for the deny rules.
func (p *program) see(w *walker, text string, words []word, d dirs, depth int) {
	c := call{text: text, name: baseName(words[0].value()), args: words[1:], d: d, depth: depth}
	if p.custom != nil {
		p.custom(w, c)
		return
	}
	if p.inner && w.unknownOpt(c, p.options(), p.posix) {
		return
	}
	fs, ops, maybe := p.args(c.args)
	if w.optionsRun(c, fs); w.stopped() {
		return
	}
	if p.unpacks != nil && len(w.denyRules()) > 0 && p.unpacks(p, c.args).remote != "" {
		w.refuse(refused(text, "%s may reach an archive on another host by running rsh (or --rsh-command's program), which runs commands there that bn cannot check against %s; give the archive as ./FILE, or add --force-local", c.name, w.holds()))
		return
	}
	if !p.inner {
		return
	}
	if len(maybe) > 0 {
		w.refuse(refused(text, "the argument %s is not known before the line runs and may change what %s runs, which %s could refuse", maybe[0].src, c.name, w.holds()))
		return
	}
	if len(ops) > p.lead && w.runnerMoves(&c, fs) {
		w.innerCommand(c, ops[p.lead:])
	}
}

// argWrites notes the files an allowed program writes through its
// arguments where its check did not: under a shell allowed whole, the
// options that write a file (sort -o, curl -o) and tee's operands,
// decided as writes as a redirection is; and, under any shell, every
// operand of a program that writes the files its arguments name (cp, mv,
// rm, touch, dd of=), recorded but not decided (which operands it writes
// is the program's to say: cp only reads its first), so that the hook's
// guard refuses a write onto what defines or enforces the agent. A
// program that decides its own arguments (sed -i, git --output) records
// its writes itself. Best effort: an interpreter or a script writes what
// no check of the line sees.
func (w *walker) argWrites(text string, p *program, words []word, d dirs) {
	if w.stopped() || p.custom != nil && p.unpacks == nil { // an unpacker's are recorded here
		return
	}
	name := baseName(words[0].value())
	if p.inner {
		// A runner's own output (strace -o, time -o), before its command.
		if w.mode != limited {
			fs, _, _ := p.args(words[1:])
			w.openWrites(text, name, fs, d)
		}
		return
	}
	var u unpack
	if p.unpacks != nil {
		u = p.unpacks(p, words[1:])
	}
	if made, in := makesLink(name, words[1:], u.writes); made {
		start := len(w.accesses)
		defer func() { w.linking(text, in, start) }()
	}
	fs, ops, _ := p.args(words[1:])
	if w.mode != limited { // under patterns, check decided these
		w.openWrites(text, name, fs, d)
		if p.operandWrites != nil {
			for _, i := range p.operandWrites(ops, fs) {
				w.writeArg(text, name, agents.KindCreate, ops[i], d)
			}
		}
	}
	if u.writes {
		if w.unpacked(text, name, u, d); w.stopped() {
			return
		}
	}
	if p.class != Writes && !p.edits {
		return
	}
	for _, f := range fs {
		if f.o.eff == seenOpt && f.has {
			w.seen(agents.KindEdit, name+" "+strings.SplitN(f.src, "=", 2)[0], f.value, d)
		}
	}
	removed := removedOperands(name, fs, len(ops))
	od := operandDirs(w.e.programs, words, d)
	for i, op := range ops {
		targets := []word{op}
		if p.assigns != "" {
			targets = assigned(op, p.assigns)
		}
		for _, t := range targets {
			start := len(w.accesses)
			w.seen(agents.KindEdit, name, t, od)
			for j := start; j < len(w.accesses) && i < removed; j++ {
				w.accesses[j].Removes = true
				if dereferences(name, fs) && w.accesses[j].Resolved != "" {
					// Once this loop is done: what it records is not the operand's.
					defer w.removedThrough(name, w.accesses[j])
				}
			}
		}
	}
	if p.copies {
		w.copied(name, fs, ops, d)
	}
	if p.backs {
		w.backups(name, fs, ops, d)
	}
	if p.packs {
		w.packed(name, fs, ops, d)
	}
}

// openWrites decides, under a shell allowed whole, the files a
// program's options write, as a redirection is; a value naming a command
// it runs (strace -o '|cmd', which sh -c runs) is decided as a line.
func (w *walker) openWrites(text, name string, fs []found, d dirs) {
	for _, f := range fs {
		if f.o.eff != writeOpt || !f.has || w.stopped() {
			continue
		}
		if f.o.when != nil && f.value.static() && f.o.when(f.value) {
			w.subline(f.value.value()[1:], text, d)
			continue
		}
		w.writeArg(text, name+" "+strings.SplitN(f.src, "=", 2)[0], agents.KindCreate, f.value, d)
	}
}

// assigned is the files an operand NAME=VALUE names (dd's of=): each
// value it may become (braces, bash's and zsh's readings), or the word
// itself, unknown, when bn cannot know it.
func assigned(op word, name string) []word {
	if op.vals == nil {
		return []word{op}
	}
	var out []word
	for _, v := range op.vals {
		if f, ok := strings.CutPrefix(v, name+"="); ok {
			out = append(out, literal(f))
		}
	}
	return out
}

// makesLink says whether a command makes a link (ln, link, cp -s, cp -l,
// or cp with an option bn cannot read) or, in, may bring one in: files
// it copies, moves or unpacks may be symlinks (mv, an unpacker, cp
// copying links as links, rsync -a or -l without -L).
func makesLink(name string, args []word, unpacks bool) (made, in bool) {
	switch {
	case name == "ln" || name == "link":
		return true, false
	case name == "mv" || unpacks:
		return true, true
	case name != "cp" && name != "rsync":
		return false, false
	}
	// deref is how cp treats the links it copies, as the last option
	// that says sets it: 'L' follows them, 'P' (-d) copies them, 'H'
	// copies those below its operands; 0 by default (copies them when
	// recursive). rsync copies them with -l (-a) unless -L.
	var deref byte
	recursive, links := false, false
	for _, a := range args {
		v := a.value()
		switch {
		case !a.static():
			if a.option {
				return true, name == "rsync"
			}
		case v == "--":
			return false, false
		case strings.HasPrefix(v, "--"):
			n, val, _ := strings.Cut(v[2:], "=")
			long := func(full string, least int) bool { return len(n) >= least && strings.HasPrefix(full, n) }
			switch {
			case name == "rsync":
				switch n {
				case "archive", "links":
					links = true
				case "copy-links":
					deref = 'L'
				}
			case long("link", 1) || long("symbolic-link", 2):
				return true, false
			case long("archive", 2):
				recursive, deref = true, 'P'
			case long("recursive", 3):
				recursive = true
			case long("no-dereference", 4):
				deref = 'P'
			case long("dereference", 3):
				deref = 'L'
			case long("preserve", 2) && (strings.Contains(val, "links") || strings.Contains(val, "all")):
				links = true
			}
		case strings.HasPrefix(v, "-") && len(v) > 1:
			for _, c := range []byte(v[1:]) {
				switch {
				case name == "rsync" && (c == 'a' || c == 'l'):
					links = true
				case name == "rsync" && c == 'L':
					deref = 'L'
				case name == "rsync":
				case c == 's' || c == 'l':
					return true, false
				case c == 'a':
					recursive, deref = true, 'P'
				case c == 'r' || c == 'R':
					recursive = true
				case c == 'd' || c == 'P':
					deref = 'P'
				case c == 'H' || c == 'L':
					deref = c
				}
				if c == 't' || c == 'S' { // a value follows
					break
				}
			}
		}
	}
	brings := links && deref != 'L'
	if name == "cp" {
		brings = links || deref == 'P' || (deref == 'H' || deref == 0) && recursive
	}
	return brings, brings
}

// removedOperands is how many of a writer's n operands, from the first,
// it removes or moves away whole (a directory with all under it): every
// one of rm, rmdir and unlink, mv's sources.
func removedOperands(name string, fs []found, n int) int {
	switch name {
	case "rm", "rmdir", "unlink":
		return n
	case "mv":
		if slices.ContainsFunc(fs, func(f found) bool { return f.o.long == "target-directory" && f.has }) {
			return n
		}
		return n - 1
	case "tar", "bsdtar":
		// --remove-files removes what it archives: every file under
		// each operand, and the operand.
		if slices.ContainsFunc(fs, func(f found) bool { return f.o.long == "remove-files" }) {
			return n
		}
	}
	return 0
}

// dereferences says whether tar follows the symlinks it archives (-h,
// --dereference): then what it reads, and with --remove-files removes,
// under an operand is also where the symlinks there lead.
func dereferences(name string, fs []found) bool {
	return (name == "tar" || name == "bsdtar") && slices.ContainsFunc(fs, func(f found) bool { return f.o.short == 'h' || f.o.long == "dereference" })
}

// removedThrough records, for the hook's guard, the removal of where the
// symlinks under a removed operand a lead out of it (linksOut): tar -h
// --remove-files src, with src/m -> ../.claude, removes .claude's files.
func (w *walker) removedThrough(name string, a Access) {
	links, to, over := linksOut(w.e.ctx.FS, a.Resolved, w.e.ctx.treeTime)
	if over != "" {
		w.accesses = append(w.accesses, Access{Kind: agents.KindEdit, Path: a.Path, Removes: true,
			Unknown: fmt.Sprintf("%s follows the symlinks under %s, which holds %s, and one among them may lead out of it", name, a.Path, over)})
	}
	for i, rel := range links {
		link := filepath.Join(a.Path, rel)
		if to[i] == "" {
			w.accesses = append(w.accesses, Access{Kind: agents.KindEdit, Path: link, Removes: true,
				Unknown: fmt.Sprintf("%s follows %s, a symlink bn cannot resolve", name, link)})
			continue
		}
		w.accesses = append(w.accesses, Access{Kind: agents.KindEdit, Path: link, Resolved: to[i], Removes: true})
	}
}

// operandDirs are the directories a program may take its operands from:
// d, and for tar every directory of the chain its -C options name (each
// relative to the one before), as GNU tar reads each operand relative to
// the -C before it, which bn does not place word by word. A -C not
// known before the line runs is a directory bn cannot follow ("").
func operandDirs(programs map[string]*program, words []word, d dirs) dirs {
	name := baseName(words[0].value())
	p := programs[name]
	if name != "tar" && name != "bsdtar" || p == nil {
		return d
	}
	fs, _, _ := p.args(words[1:])
	at, out := slices.Clone(d.at), d
	for _, f := range fs {
		if f.o.short != 'C' || !f.has {
			continue
		}
		for i, dir := range at {
			switch v := f.value.value(); {
			case !f.value.static():
				at[i] = ""
			case filepath.IsAbs(v):
				at[i] = v
			case dir != "":
				at[i] = filepath.Join(dir, v)
			}
		}
		out.at = unionOf(out.at, at)
	}
	return out
}

// writeArg decides a file a program writes through its arguments.
func (w *walker) writeArg(text, what string, k agents.Kind, v word, d dirs) {
	if v.static() && (v.value() == "-" || slices.Contains(devices, v.value())) {
		return
	}
	w.file(k, what, v, d, false)
}

func (w *walker) denyRules() []rule {
	var out []rule
	for _, r := range w.e.deny {
		if r.sh.set {
			out = append(out, r)
		}
	}
	return out
}

// lookup finds what bn knows of a program by its command word's base
// name.
func (w *walker) lookup(name string) *program {
	return w.e.programs[baseName(name)]
}

// ProgramClass says what bn knows of a program named by a shell
// pattern's command word, with the risk it reports for it.
func ProgramClass(name string) (Class, string) {
	p := programTable()[baseName(name)]
	if p == nil {
		return Unknown, ""
	}
	return p.class, p.note
}

const (
	// A program's note is its name, then one of these: joined, not
	// formatted, as every process that checks a shell line builds the
	// table (programTable) first.
	runsNote   = " runs whatever code its arguments or files name: allowing it is allowing the shell, and deny rules cannot hold against it"
	writesNote = " writes the files its arguments name, which bn does not check against edit rules"
)

// programTable is what bn knows of each program, by name. It is built on
// first use, not at start: only the commands that check a line need it.
// The checks reach it through their engine (engine.programs), as a
// program's own checks look programs up too.
var programTable = sync.OnceValue(func() map[string]*program {
	programs := make(map[string]*program, 300) // about as many as it holds
	for _, n := range []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "rbash", "yash", "posh", "busybox-sh"} {
		programs[n] = &program{class: Runs, note: n + runsNote, custom: shellCall}
	}
	for _, n := range []string{"fish", "csh", "tcsh", "pwsh", "powershell", "cmd", "nu", "elvish", "xonsh",
		"python", "python2", "python3", "pypy", "pypy3", "perl", "ruby", "irb", "node", "nodejs", "deno", "bun", "bunx", "php", "lua", "luajit",
		"tclsh", "wish", "rscript", "julia", "osascript", "java", "jshell", "groovy", "scala", "kotlin", "swift", "dotnet", "guile", "racket", "sbcl", "clisp", "ghci", "runghc", "ocaml", "erl", "elixir", "iex",
		"make", "gmake", "cmake", "ninja", "meson", "bazel", "just", "task", "npm", "npx", "pnpm", "yarn", "corepack", "pip", "pip3", "pipx", "uv", "uvx", "poetry", "tox", "nox", "pytest", "jest", "vitest", "mocha",
		"go", "cargo", "rustc", "gradle", "gradlew", "mvn", "mvnw", "ant", "sbt", "rake", "bundle", "gem", "composer", "mix",
		"docker", "podman", "kubectl", "helm", "terraform", "ansible", "ansible-playbook", "vagrant", "nix", "nix-shell",
		"ssh", "su", "runuser", "pkexec", "script", "expect", "tmux", "screen", "parallel", "at", "batch", "crontab", "systemd-run",
		"xdg-open", "open", "vim", "vi", "nvim", "emacs", "nano", "ed", "ex", "gdb", "lldb", "chroot"} {
		programs[n] = &program{class: Runs, note: n + runsNote}
	}
	for _, n := range []string{"cp", "mv", "rm", "rmdir", "mkdir", "touch", "ln", "link", "unlink", "install", "dd", "truncate", "chmod", "chown", "chgrp",
		"shred", "mkfifo", "mknod", "split", "csplit", "patch", "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd", "7z", "7za", "7zr", "unzip", "rsync", "cpio"} {
		programs[n] = &program{class: Writes, note: n + writesNote}
	}
	for _, n := range []string{"vim", "vi", "nvim", "emacs", "nano", "ed", "ex"} {
		programs[n].edits = true
	}
	programs["go"].custom = goCall
	seeRunners(programs)
	programs["dd"].assigns = "of"
	for n, audit := range plainReaders {
		programs[n] = &program{class: Reads, audit: audit}
	}
	checkedReaders(programs)
	fileWriters(programs)
	programs["bn"] = &program{class: Reads, custom: bnCall,
		audit: "its commands that write (export, import, init, fetch, session init, system host-init) and launch, which starts another agent, are refused where the rules limit writes and by the hook's guard (bnCall)"}
	programs["wget"] = &program{class: Writes, custom: wgetCall, note: "wget fetches what its arguments name"}
	programs["tar"] = &program{class: Writes, note: "tar" + writesNote, unpacks: tarUnpack, opts: []opt{
		flagOpt('x', "extract"), flagOpt(0, "get"), flagOpt('c', "create"), flagOpt('t', "list"), flagOpt('r', "append"), flagOpt('u', "update"),
		flagOpt('d', "diff"), flagOpt('A', "catenate"), flagOpt('O', "to-stdout"), flagOpt('P', "absolute-names"),
		runner(0, "to-command", "runs a program for every file", runsLine), runner('I', "use-compress-program", "runs a program to compress", runsLine),
		tarCheckpoint, runner('F', "info-script", "runs a script at the end of each volume", runsLine),
		runner(0, "new-volume-script", "runs a script at the end of each volume", runsLine),
		runner(0, "rsh-command", "runs a program to reach a remote archive", runsProgram),
		refuse(0, "rmt-command", "runs a program to reach a remote archive"), seen('f', "file"), valued('C', "directory"), valued('b', "blocking-factor"),
		valued('T', "files-from"), valued('X', "exclude-from"), seen('g', "listed-incremental"), seen(0, "index-file"), seen(0, "volno-file"), valued('K', "starting-file"), valued('N', "newer"),
		valued('H', "format"), valued('L', "tape-length"), valued('V', "label")}}
	programs["split"].opts = []opt{refuse(0, "filter", "runs a shell command for each piece")}
	// GNU's -S/--suffix and BSD install's -B name the backups -b makes;
	// install's other options that take a value are read so that no value
	// is taken for the destination.
	backup := []opt{flagOpt('b', ""), {long: "backup", arg: optArg}, valued('S', "suffix")}
	programs["install"].opts = append([]opt{refuse(0, "strip-program", "names the program install strips with, which it runs"),
		valued('t', "target-directory"), flagOpt('T', "no-target-directory"), valued('B', ""), valued('g', "group"), valued('m', "mode"),
		valued('o', "owner"), valued('f', "")}, backup...)
	programs["ln"].opts = append([]opt{valued('t', "target-directory"), flagOpt('T', "no-target-directory")}, backup...)
	programs["zip"] = &program{class: Reads, custom: zipCall,
		audit: "it writes its archive (the first operand, or -O's), its log (-lf) and a temporary archive in -b's directory, and -m removes what it adds: decided as writes; -TT/--unzip-command runs a command: refused; its two-letter short options read as zip reads them (zipCall)"}
	programs["scp"] = &program{class: Writes, note: "scp" + writesNote, opts: []opt{
		refuse('S', "", "names the program to connect with"), refuse('D', "", "names a local SFTP server program, which it runs"), refuse('o', "", "passes ssh options, some of which run commands"), refuse('F', "", "reads an ssh configuration, which can run commands"),
		valued('P', ""), valued('i', ""), valued('c', ""), valued('l', ""), valued('J', "")}}
	programs["rsync"].opts = []opt{refuse('e', "rsh", "names the program to connect with"), refuse(0, "rsync-path", "names the program to run on the other side"),
		refuseFlag(0, "daemon", "runs a server, whose configuration (--config) can run commands"), writes(0, "log-file"), valued(0, "log-file-format"),
		writes(0, "write-batch"), writes(0, "only-write-batch"), valued(0, "read-batch"), flagOpt('b', "backup"), valued(0, "suffix"), valued(0, "backup-dir")}
	programs["rsync"].custom = rsyncCall
	programs["tar"].oldStyle = true
	programs["bsdtar"] = &program{class: Writes, note: "bsdtar" + writesNote, unpacks: tarUnpack, opts: programs["tar"].opts, oldStyle: true}
	programs["unzip"].opts = []opt{valued('d', ""), valued('x', ""), flagOpt('l', ""), flagOpt('v', ""), flagOpt('t', ""), flagOpt('p', ""),
		flagOpt('c', ""), flagOpt('z', ""), flagOpt('Z', ""), flagOpt(':', "")}
	programs["cpio"].opts = []opt{flagOpt('i', "extract"), flagOpt('o', "create"), flagOpt('p', "pass-through"), flagOpt('t', "list"),
		valued('D', "directory"), flagOpt(0, "no-absolute-filenames"), seen('F', "file"), valued('I', ""), writes('O', ""), valued('E', "pattern-file"),
		valued('H', "format"), valued('M', "message"), valued('R', "owner"), valued('C', "io-size"), flagOpt(0, "force-local"),
		runner(0, "rsh-command", "names the program cpio runs to reach a remote archive", runsProgram)}
	programs["cpio"].custom = cpioCall
	programs["patch"].opts = []opt{valued('d', "directory"), valued('i', "input"), valued('p', "strip"), writes('o', "output"), writes('r', "reject-file"),
		valued('B', "prefix"), valued('Y', "basename-prefix"), valued('z', "suffix"), valued('D', "ifdef"), valued('F', "fuzz"), valued('V', "version-control"),
		flagOpt(0, "dry-run")}
	for _, n := range []string{"7z", "7za", "7zr"} {
		programs[n].unpacks = sevenZipUnpack
	}
	programs["unzip"].unpacks = unzipUnpack
	programs["cpio"].unpacks = cpioUnpack
	programs["patch"].unpacks = patchUnpack
	programs["rsync"].unpacks = rsyncUnpack
	for _, n := range []string{"cp", "mv"} {
		programs[n].opts, programs[n].copies = append([]opt{valued('t', "target-directory"), flagOpt('T', "no-target-directory")}, backup...), true
	}
	programs["rsync"].copies = true
	for _, n := range []string{"cp", "mv", "ln", "install", "rsync"} {
		programs[n].backs = true
	}
	programs["git"] = &program{class: Reads, custom: gitCall, audit: "its options and subcommands that run programs or write files are decided in git.go and gittree.go (gitCall)",
		note: "git runs programs its configuration and repository name (core.pager, core.fsmonitor, diff.external, textconv drivers, hooks): whoever can write .git/config, .git/hooks or a nested repository can make an allowed git command run anything"}
	programs["git-lfs"] = &program{class: Reads, custom: gitLFSCall, note: programs["git"].note,
		audit: "install, track, checkout, pull, migrate and others write git's configuration, hooks, .gitattributes and the working tree: decided as git lfs (gitCall)"}
	programs["find"] = &program{class: Reads, custom: findCall, audit: "-exec, -execdir, -ok, -okdir run commands: decided as commands; -delete removes, -fprint, -fprintf, -fls write: decided as writes (findCall)"}
	programs["xargs"] = &program{class: Runner, custom: xargsCall}
	programs["sed"] = &program{class: Reads, custom: sedCall, audit: "-i writes the files it is given: edits; the script's w, s///w write and e, s///e run commands: refused; -f reads a script bn does not read: refused (sedCall)"}
	for _, n := range []string{"awk", "gawk", "mawk", "nawk"} {
		programs[n] = &program{class: Reads, custom: awkCall, audit: "its program runs commands (system, pipes) and writes files (print > file), and gawk's -d, -o and -p write files: refused (awkCall)"}
	}
	programs["env"] = &program{class: Runner, custom: envCall}
	programs["flock"] = &program{class: Runner, custom: flockCall}
	programs["watch"] = &program{class: Runner, custom: watchCall}
	programs["sudo"] = &program{class: Runner, custom: sudoCall, note: "sudo runs its command as another user"}
	runners := map[string]*program{
		"command":    {opts: []opt{flagOpt('p', "")}},
		"builtin":    {},
		"exec":       {opts: []opt{flagOpt('c', ""), flagOpt('l', ""), valued('a', "")}},
		"nice":       {opts: []opt{valued('n', "adjustment")}},
		"nohup":      {},
		"time":       {opts: []opt{flagOpt('p', "portability"), flagOpt('v', "verbose"), flagOpt('a', "append"), flagOpt('q', "quiet"), valued('f', "format"), writes('o', "output")}},
		"timeout":    {opts: []opt{valued('s', "signal"), valued('k', "kill-after"), flagOpt(0, "preserve-status"), flagOpt(0, "foreground"), flagOpt('v', "verbose")}, lead: 1},
		"stdbuf":     {opts: []opt{valued('i', "input"), valued('o', "output"), valued('e', "error")}},
		"setsid":     {opts: []opt{flagOpt('c', "ctty"), flagOpt('f', "fork"), flagOpt('w', "wait")}},
		"ionice":     {opts: []opt{valued('c', "class"), valued('n', "classdata"), flagOpt('t', "ignore")}},
		"taskset":    {opts: []opt{flagOpt('a', "all-tasks"), flagOpt('c', "cpu-list")}, lead: 1},
		"chrt":       {opts: []opt{flagOpt('a', "all-tasks"), flagOpt('b', "batch"), flagOpt('d', "deadline"), flagOpt('f', "fifo"), flagOpt('i', "idle"), flagOpt('o', "other"), flagOpt('r', "rr"), flagOpt('R', "reset-on-fork"), valued('T', "sched-runtime"), valued('P', "sched-period"), valued('D', "sched-deadline"), flagOpt('m', "max"), flagOpt('v', "verbose")}, lead: 1},
		"doas":       {opts: []opt{valued('u', ""), valued('C', ""), flagOpt('n', ""), flagOpt('s', "")}},
		"unbuffer":   {opts: []opt{flagOpt('p', "")}},
		"nocorrect":  {},
		"repeat":     {lead: 1},
		"noglob":     {},
		"-":          {},
		"busybox":    {},
		"toybox":     {},
		"caffeinate": {opts: []opt{flagOpt('d', ""), flagOpt('i', ""), flagOpt('m', ""), flagOpt('s', ""), flagOpt('u', ""), valued('t', ""), valued('w', "")}},
		"strace": {opts: []opt{stracePipe, flagOpt('f', "follow-forks"), flagOpt(0, "output-separately"), valued('e', ""), valued('p', "attach"), valued('s', "string-limit"), valued('u', "user"), refuse('E', "env", "sets the environment of the command it runs"), valued('O', ""), valued('S', "summary-sort-by"), valued('P', "trace-path"), valued('X', ""), valued('b', "detach-on"), valued('I', "interruptible"), valued('a', "columns"),
			// strace --help (6.x): its flags, and the long forms of -e's qualifiers.
			{short: 'D', long: "daemonize", arg: optArg}, flagOpt('z', "successful-only"), flagOpt('Z', "failed-only"), flagOpt('i', "instruction-pointer"),
			flagOpt('k', "stack-traces"), flagOpt('n', "syscall-number"), flagOpt('A', "output-append-mode"), {short: 'q', long: "quiet", arg: optArg},
			{short: 'r', long: "relative-timestamps", arg: optArg}, {short: 't', long: "absolute-timestamps", arg: optArg},
			{short: 'T', long: "syscall-times", arg: optArg}, flagOpt('v', "no-abbrev"), {short: 'x', long: "strings-in-hex", arg: optArg},
			valued(0, "const-print-style"), {short: 'y', long: "decode-fds", arg: optArg}, {short: 'Y', long: "decode-pids", arg: optArg},
			flagOpt('c', "summary-only"), flagOpt('C', "summary"), valued(0, "summary-syscall-overhead"), valued('U', "summary-columns"),
			flagOpt('w', "summary-wall-clock"), flagOpt('d', "debug"), flagOpt(0, "seccomp-bpf"), {long: "tips", arg: optArg},
			valued(0, "trace"), valued(0, "signal"), valued(0, "status"), valued(0, "abbrev"), valued(0, "verbose"), valued(0, "raw"),
			valued(0, "read"), valued(0, "write"), valued(0, "kvm"), valued(0, "inject"), valued(0, "fault")}},
		"ltrace": {opts: []opt{writes('o', "output"), valued('e', ""), valued('p', ""), valued('s', ""), valued('u', ""), valued('a', "align"), valued('A', ""), valued('D', "debug"), valued('F', "config"), valued('l', "library"), valued('n', "indent"), valued('x', "")}},
	}
	for n, p := range runners {
		p.class, p.inner, p.posix = Runner, true, true
		programs[n] = p
	}
	// command -v and -V look a name up, they do not run it; ionice -p and
	// taskset/chrt -p act on running processes.
	programs["command"].custom = lookupOnly('v', 'V')
	programs["ionice"].custom = lookupOnly('p', 'P', 'u')
	programs["taskset"].custom = lookupOnly('p')
	programs["chrt"].custom = lookupOnly('p')
	programs["strace"].custom = straceCall
	listOptions(programs)
	return programs
})

// tarCheckpoint: tar's --checkpoint-action runs a command for exec=CMD
// (GNU tar's checkpoint.c takes every action that starts with "exec" as
// one); its other actions print or wait.
var tarCheckpoint = opt{long: "checkpoint-action", arg: needArg, eff: refuseOpt, why: "runs a command at checkpoints", runs: runsExec,
	when: func(v word) bool { return !v.static() || strings.HasPrefix(v.value(), "exec") }}

// stracePipe: strace -o writes its trace to the file it names, or pipes
// it to the command after a leading | or ! (sh -c runs it).
var stracePipe = opt{short: 'o', long: "output", arg: needArg, eff: writeOpt, why: "strace pipes its trace to what follows | or !",
	when: func(v word) bool { return strings.HasPrefix(v.value(), "|") || strings.HasPrefix(v.value(), "!") }}

// rsyncCall decides rsync's options under patterns, as any program's
// are, and the script its --write-batch=FILE (or --only-write-batch)
// writes beside FILE, FILE.sh. What it copies, and under a shell
// allowed whole its option's files, are recorded as any copier's
// (argWrites); FILE.sh lies where FILE does, which the guard sees.
func rsyncCall(w *walker, c call) {
	if w.mode != limited {
		return
	}
	p := w.e.programs["rsync"]
	fs, _, maybe := parseOpts(p.options(), c.args, false)
	if !w.options(c, fs) {
		return
	}
	if len(maybe) > 0 {
		w.refuse(refused(c.text, "the argument %s is not known before the line runs and may be an option of rsync (some of which run commands or write files); write it out, or after --", maybe[0].src))
		return
	}
	for _, f := range fs {
		if strings.HasSuffix(f.o.long, "write-batch") && f.has && f.value.static() {
			if w.writeArg(c.text, "rsync "+strings.SplitN(f.src, "=", 2)[0], agents.KindCreate, literal(f.value.value()+".sh"), c.d); w.stopped() {
				return
			}
		}
	}
}

// straceCall: with -ff (or --output-separately) strace writes each
// process's trace to -o's FILE.PID, not to FILE: decided as FILE.PID.
func straceCall(w *walker, c call) {
	p := w.e.programs["strace"]
	fs, ops, maybe := parseOpts(p.options(), c.args, p.posix)
	forks, apart := 0, false
	for _, f := range fs {
		if f.o.short == 'f' {
			forks++
		}
		apart = apart || f.o.long == "output-separately"
	}
	for i, f := range fs {
		if (forks >= 2 || apart) && f.o.short == 'o' && f.has && f.value.static() && !f.o.when(f.value) {
			fs[i].value = literal(f.value.value() + ".PID")
		}
	}
	if w.mode != limited {
		w.openWrites(c.text, c.name, fs, c.d)
	}
	runInner(w, c, p, fs, ops, maybe)
}

// lookupOnly wraps a runner whose given flags make it run nothing.
func lookupOnly(flags ...byte) func(w *walker, c call) {
	return func(w *walker, c call) {
		p := w.e.programs[c.name]
		spec := append(slices.Clone(p.options()), flagsOf(flags)...)
		if w.unknownOpt(c, spec, true) {
			return
		}
		fs, ops, maybe := parseOpts(spec, c.args, true)
		for _, f := range fs {
			if slices.Contains(flags, f.o.short) {
				return
			}
		}
		runInner(w, c, p, fs, ops, maybe)
	}
}

func flagsOf(fl []byte) []opt {
	out := make([]opt, len(fl))
	for i, f := range fl {
		out[i] = flagOpt(f, "")
	}
	return out
}

// unknownOpt refuses a runner's option its table spec does not name
// (--help and --version aside, and nice's -N): it may take a value, and
// then the command the runner runs is not the word bn reads as its
// command (coreutils 9.6's env -a NAME, BSD xargs -J STR, FreeBSD env -L
// USER). True when it refused.
func (w *walker) unknownOpt(c call, spec []opt, posix bool) bool {
	_, _, _, unknown := scanOpts(spec, c.args, posix, false)
	for _, u := range unknown {
		if u == "--help" || u == "--version" || c.name == "nice" && strings.Trim(u, "-0123456789") == "" {
			continue
		}
		w.refuse(refused(c.text, "%s %s is an option bn does not know; it may take a value, and then what %s runs is not the command bn reads (env -a NAME, BSD xargs -J); leave it out", c.name, strings.SplitN(u, "=", 2)[0], c.name))
		return true
	}
	return false
}

// runInner finishes a runner: its options, then its command.
func runInner(w *walker, c call, p *program, fs []found, ops, maybe []word) {
	if w.mode == limited && !w.options(c, fs) {
		return
	}
	if len(maybe) > 0 {
		w.refuse(refused(c.text, "the argument %s is not known before the line runs and may change what %s runs; write it out", maybe[0].src, c.name))
		return
	}
	if len(ops) > p.lead {
		w.innerCommand(c, ops[p.lead:])
	}
}

func indexes(n, from int) []int {
	var out []int
	for i := from; i < n; i++ {
		out = append(out, i)
	}
	return out
}

// shellCall: sh -c LINE is decided as a line, under the deny rules; a
// shell reading a script or its input runs what bn cannot see.
func shellCall(w *walker, c call) {
	var script *word
	ops := []word{}
	i := 0
	for ; i < len(c.args); i++ {
		a := c.args[i]
		if !a.static() {
			if a.option {
				w.refuse(refused(c.text, "the argument %s is not known before the line runs and may be an option of %s", a.src, c.name))
				return
			}
			break
		}
		v := a.value()
		if v == "--" || v == "-" {
			i++
			break
		}
		if !strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "+") {
			break
		}
		switch {
		case v == "-o" || v == "+o" || v == "-O" || v == "+O" || v == "--rcfile" || v == "--init-file":
			i++
		case strings.HasPrefix(v, "--"):
		case strings.Contains(v, "c") && v[0] == '-':
			script = &word{}
		}
	}
	ops = c.args[i:]
	switch {
	case script != nil && len(ops) > 0:
		if line, ok := joinStatic(ops[:1]); ok {
			w.subline(line, c.text, c.d)
			return
		}
		w.refuse(refused(c.text, "%s runs a command line not known before the line runs, which %s could refuse; run the commands themselves", c.name, w.holds()))
	case len(ops) == 0:
		w.refuse(refused(c.text, "%s reads commands from its input, which bn cannot check against %s; run the commands themselves", c.name, w.holds()))
	default:
		w.advise(fmt.Sprintf("%s runs the script %s, which bn does not read: deny rules cannot see inside it", c.name, ops[0].src))
	}
}
