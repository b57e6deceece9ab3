package enforce

import (
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/binnacle-dev/bn/agents"
)

// Programs that run code (allowing one is allowing the shell) but whose
// command bn can still see, for the deny rules of a shell allowed whole:
// the command chroot, unshare, nsenter and runuser -u run after their
// options, the line su -c and script -c hand to a shell, parallel's
// command before its ":::". ssh runs its command on another host, which
// no deny rule here sees: refused where deny rules hold the shell.
var (
	chrootOpts  = []opt{valued(0, "userspec"), valued(0, "groups"), flagOpt(0, "skip-chdir")}
	unshareOpts = []opt{valued('S', "setuid"), valued('G', "setgid"), valued('R', "root"), valued('w', "wd"), valued(0, "propagation"),
		valued(0, "setgroups"), valued(0, "map-user"), valued(0, "map-group"), valued(0, "map-users"), valued(0, "map-groups"),
		valued(0, "monotonic"), valued(0, "boottime"), {long: "kill-child", arg: optArg}, {short: 'm', long: "mount", arg: optArg},
		{short: 'u', long: "uts", arg: optArg}, {short: 'i', long: "ipc", arg: optArg}, {short: 'n', long: "net", arg: optArg},
		{short: 'p', long: "pid", arg: optArg}, {short: 'U', long: "user", arg: optArg}, {short: 'C', long: "cgroup", arg: optArg},
		{short: 'T', long: "time", arg: optArg}, flagOpt('f', "fork"), flagOpt('r', "map-root-user"), flagOpt('c', "map-current-user"),
		flagOpt(0, "map-auto"), {long: "mount-proc", arg: optArg}, flagOpt(0, "keep-caps")}
	nsenterOpts = []opt{valued('t', "target"), valued('S', "setuid"), valued('G', "setgid"), valued('W', "wdns"),
		{short: 'r', long: "root", arg: optArg}, {short: 'w', long: "wd", arg: optArg}, {short: 'm', long: "mount", arg: optArg},
		{short: 'u', long: "uts", arg: optArg}, {short: 'i', long: "ipc", arg: optArg}, {short: 'n', long: "net", arg: optArg},
		{short: 'p', long: "pid", arg: optArg}, {short: 'U', long: "user", arg: optArg}, {short: 'C', long: "cgroup", arg: optArg},
		{short: 'T', long: "time", arg: optArg}, flagOpt('a', "all"), flagOpt(0, "preserve-credentials"), flagOpt('F', "no-fork"),
		flagOpt('Z', "follow-context")}
	// su's and runuser's; -c and --session-command hand a line to a shell.
	suOpts = []opt{valued('c', "command"), valued(0, "session-command"), valued('s', "shell"), valued('g', "group"),
		valued('G', "supp-group"), valued('w', "whitelist-environment"), valued('u', "user")}
	scriptOpts = []opt{valued('c', "command"), valued('E', "echo"), writes('T', "log-timing"), writes('I', "log-in"), writes('O', "log-out"),
		writes('B', "log-io"), valued('m', "logging-format"), valued('o', "output-limit"), {short: 't', long: "timing", arg: optArg, eff: writeOpt}}
	parallelOpts = []opt{valued('j', "jobs"), valued('S', "sshlogin"), valued('a', "arg-file"), valued('d', "delimiter"), valued('E', ""),
		valued('I', ""), valued('n', "max-args"), valued('N', "max-replace-args"), valued('L', "max-lines"), valued(0, "colsep"),
		valued(0, "results"), valued(0, "joblog"), valued(0, "tmpdir"), valued(0, "workdir"), valued(0, "timeout"), valued(0, "delay"),
		valued(0, "retries"), valued(0, "tag-string"), valued(0, "env"), valued(0, "sshloginfile"), valued(0, "basefile"), valued(0, "memfree"),
		valued(0, "load"), valued(0, "block")}
)

// seeRunners makes the code runners whose command bn can see show it to
// the deny rules; under patterns they stay allowed whole by their
// pattern, as every program that runs code is.
func seeRunners(programs map[string]*program) {
	for n, spec := range map[string]struct {
		opts []opt
		lead int
	}{"chroot": {chrootOpts, 1}, "unshare": {unshareOpts, 0}, "nsenter": {nsenterOpts, 0}} {
		p := programs[n]
		if p == nil {
			p = &program{class: Runs, note: n + runsNote}
			programs[n] = p
		}
		p.opts, p.lead, p.inner, p.posix = spec.opts, spec.lead, true, true
	}
	programs["su"].custom = suCall
	programs["runuser"].custom = suCall
	programs["script"].custom = scriptCall
	programs["parallel"].custom = parallelCall
	programs["ssh"].custom = sshCall
}

// lineOf hands the line an option names (su -c, script -c) to the deny
// rules; true when the option was found.
func lineOf(w *walker, c call, fs []found, names ...string) bool {
	for _, f := range fs {
		if !slices.Contains(names, f.o.long) {
			continue
		}
		if line, ok := joinStatic([]word{f.value}); ok && f.has {
			w.subline(line, c.text, c.d)
			return true
		}
		w.refuse(refused(c.text, "%s runs a command line not known before the line runs, which %s could refuse; run the commands themselves", c.name, w.holds()))
		return true
	}
	return false
}

// suCall: su -c LINE and runuser -c LINE run LINE in the user's shell;
// runuser -u USER CMD runs CMD; without either, a shell reads commands.
func suCall(w *walker, c call) {
	fs, ops, maybe := parseOpts(suOpts, c.args, true)
	if len(maybe) > 0 {
		w.refuse(refused(c.text, "the argument %s is not known before the line runs and may change what %s runs; write it out", maybe[0].src, c.name))
		return
	}
	if lineOf(w, c, fs, "command", "session-command") {
		return
	}
	if c.name == "runuser" && slices.ContainsFunc(fs, func(f found) bool { return f.o.short == 'u' }) {
		w.innerCommand(c, ops)
		return
	}
	w.refuse(refused(c.text, "%s starts a shell that reads commands bn cannot check against %s; run the commands with %s -c", c.name, w.holds(), c.name))
}

// scriptCall: script -c LINE runs LINE in a shell; without it, a shell
// reads commands.
func scriptCall(w *walker, c call) {
	fs, ops, maybe := parseOpts(scriptOpts, c.args, false)
	if len(maybe) > 0 {
		w.refuse(refused(c.text, "the argument %s is not known before the line runs and may change what script runs; write it out", maybe[0].src))
		return
	}
	// Its typescript (the first operand; BSD script's command follows it,
	// and its -t takes a number, which may be read as the first) and its
	// logs (-T, -I, -O, -B, -tFILE) are files it writes.
	for _, f := range fs {
		if f.o.eff == writeOpt && f.has {
			w.writeArg(c.text, "script "+spelt(f), agents.KindCreate, f.value, c.d)
		}
	}
	for i, op := range ops {
		if i == 0 {
			w.writeArg(c.text, "script", agents.KindCreate, op, c.d)
		} else {
			w.seen(agents.KindCreate, "script", op, c.d)
		}
	}
	if w.stopped() {
		return
	}
	if !lineOf(w, c, fs, "command") {
		w.refuse(refused(c.text, "script starts a shell that reads commands bn cannot check against %s; run the commands with script -c", w.holds()))
	}
}

var parallelSeparators = []string{":::", "::::", ":::+", "::::+"}

// parallelCall: parallel runs its words before ":::" (or "::::") as a
// shell line, once per argument; with none, each argument is a line.
func parallelCall(w *walker, c call) {
	if w.unknownOpt(c, parallelOpts, true) {
		return
	}
	fs, ops, maybe := parseOpts(parallelOpts, c.args, true)
	if len(maybe) > 0 {
		w.refuse(refused(c.text, "the argument %s is not known before the line runs and may change what parallel runs; write it out", maybe[0].src))
		return
	}
	repl := ""
	for _, f := range fs {
		if f.o.short == 'I' && f.has {
			if !f.value.static() {
				w.refuse(refused(c.text, "parallel -I's replace string %s is not known before the line runs; write it out", f.value.src))
				return
			}
			repl = f.value.value()
		}
	}
	end := slices.IndexFunc(ops, func(x word) bool { return x.static() && slices.Contains(parallelSeparators, x.value()) })
	if end < 0 {
		w.refuse(refused(c.text, "parallel reads the commands it runs from its input, which bn cannot check against %s; write the command before :::", w.holds()))
		return
	}
	lines := [][]word{ops[:end]}
	if end == 0 { // the arguments are the commands
		lines = nil
		for _, x := range ops[1:] {
			if !slices.Contains(parallelSeparators, x.value()) {
				lines = append(lines, []word{x})
			}
		}
	}
	for _, l := range lines {
		line, ok := joinStatic(l)
		if !ok {
			w.refuse(refused(c.text, "parallel runs a command not known before the line runs, which %s could refuse; write it out", w.holds()))
			return
		}
		w.subline(line, c.text, c.d)
		if r := parallelReplaced(l, repl); r != "" && !w.stopped() {
			// What the line holds as written is decided; what the
			// replacement makes of it is not.
			w.refuse(refused(c.text, "parallel replaces %s in its command with each argument, so bn cannot tell what runs where it stands for the command word or inside a line given as one word; write the command word out, and each argument as a word of its own", r))
			return
		}
	}
}

// parallelRepl matches GNU parallel's replacement strings: {}, {.}, {/},
// {//}, {/.}, {#}, {%}, {N} and their forms, {= perl =}. Compiled on
// first use: only a line with parallel needs it, not bn's start.
var parallelRepl = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{=.*?=\}|\{[^{}\s]*\}`) })

// parallelReplaced is a replacement string (or -I's, repl) that stands
// where bn would read a command: in a command's first word, or in a
// word that holds a line of its own (a blank or an operator in it). ""
// when there is none.
func parallelReplaced(l []word, repl string) string {
	for i, x := range l {
		v := x.value()
		if i > 0 && !strings.ContainsAny(v, " \t\n;|&()<>`$") {
			continue
		}
		if repl != "" && strings.Contains(v, repl) {
			return repl
		}
		if r := parallelRepl().FindString(v); r != "" {
			return r
		}
	}
	return ""
}

// sshCall: ssh runs its command on another host, where no check here
// holds.
func sshCall(w *walker, c call) {
	w.refuse(refused(c.text, "ssh runs commands on another host, which bn cannot check against %s; run them there under its own rules", w.holds()))
}
