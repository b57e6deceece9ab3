package enforce

import (
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/binnacle-dev/bn/agents"
)

// zipOpt is one of zip's options as zip 3.0 lists them (zip -so): a
// short name of one or two letters, a long name zip takes by any
// prefix, and whether it takes a value (req) or a list (the words up to
// the next that starts with -).
type zipOpt struct {
	short, long string
	req, list   bool
	neg         bool // a trailing - negates it (-X-)
}

// zipOpts: zip -so, zip 3.0. The options bn decides: -TT (runs its
// value, with -T), -O (the archive written), -lf (the log), -b (the
// directory of the temporary archive), -m (removes what it adds). Built
// on first use, as the program table is.
var zipOpts = sync.OnceValue(func() []zipOpt {
	var out []zipOpt
	for _, f := range strings.Fields(`0:store 1:compress-1 2:compress-2 3:compress-3 4:compress-4 5:compress-5 6:compress-6 7:compress-7 8:compress-8 9:compress-9
		A:adjust-sfx b:temp-path:req c:entry-comments d:delete db:display-bytes:neg dc:display-counts:neg dd:display-dots:neg dg:display-globaldots:neg
		ds:dot-size:req du:display-usize:neg dv:display-volume:neg D:no-dir-entries DF:difference-archive e:encrypt F:fix FF:fixfix FI:fifo:neg
		FS:filesync f:freshen fd:force-descriptors fz:force-zip64:neg g:grow h:help H: ?: h2:more-help i:include:list j:junk-paths J:junk-sfx
		k:DOS-names l:to-crlf ll:from-crlf lf:logfile-path:req la:log-append:neg li:log-info:neg L:license m:move mm: MM:must-match n:suffixes:req
		nw:no-wild o:latest-time O:output-file:req p:paths P:password:req q:quiet r:recurse-paths R:recurse-patterns RE:regex s:split-size:req
		sp:split-pause sv:split-verbose sb:split-bell sc:show-command sd:show-debug sf:show-files:neg so:show-options su:show-unicode:neg
		sU:show-just-unicode:neg t:from-date:req tt:before-date:req T:test TT:unzip-command:req u:update U:copy-entries UN:unicode:req v:verbose
		:version ws:wild-stop-dirs x:exclude:list X:strip-extra:neg y:symlinks z:archive-comment Z:compression-method:req @:names-stdin`) {
		parts := strings.Split(f, ":")
		o := zipOpt{short: parts[0], long: parts[1]}
		if len(parts) > 2 {
			o.req, o.list, o.neg = parts[2] == "req", parts[2] == "list", parts[2] == "neg"
		}
		out = append(out, o)
	}
	return out
})

// zipFound is an option of zip's found in a command, with its value.
type zipFound struct {
	o     *zipOpt
	src   string
	value word
	has   bool
}

// zipArgs reads zip's arguments as zip does: a short option of two
// letters before one of one (-lf, -TT, -rTT CMD), a value glued (after
// an optional =) or in the next word, a list up to the next word
// starting with -, long options by any prefix, -- ending the options
// (after the archive). unsure is the first word bn cannot read: not
// known before the line runs, or an option zip does not have.
func zipArgs(args []word) (fs []zipFound, ops []word, unsure string) {
	list := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.value()
		switch {
		case !a.static():
			if a.option {
				return fs, ops, a.src
			}
			ops = append(ops, a)
			continue
		case list && !strings.HasPrefix(v, "-"):
			continue // a pattern of -i or -x
		case v == "--":
			return fs, append(ops, args[i+1:]...), unsure
		case v == "-" || !strings.HasPrefix(v, "-"):
			ops = append(ops, a)
			continue
		}
		list = false
		if strings.HasPrefix(v, "--") {
			name, val, hasVal := strings.Cut(v[2:], "=")
			o := zipLong(name)
			if o == nil {
				return fs, ops, a.src
			}
			f := zipFound{o: o, src: v}
			switch {
			case hasVal:
				f.value, f.has = literal(val), true
			case o.req && i+1 < len(args):
				i++
				f.value, f.has = args[i], true
			}
			fs, list = append(fs, f), o.list && !hasVal
			continue
		}
		for j := 1; j < len(v); {
			o := zipShort(v[j:])
			if o == nil {
				return fs, ops, a.src
			}
			j += len(o.short)
			if o.neg && j < len(v) && v[j] == '-' {
				j++
			}
			f := zipFound{o: o, src: v}
			if o.req || o.list {
				rest := strings.TrimPrefix(v[j:], "=")
				switch {
				case rest != "":
					f.value, f.has = literal(rest), true
				case o.req && i+1 < len(args):
					i++
					f.value, f.has = args[i], true
				}
				list = o.list && rest == ""
				fs = append(fs, f)
				break
			}
			fs = append(fs, f)
		}
	}
	return fs, ops, unsure
}

func zipShort(s string) *zipOpt {
	opts := zipOpts()
	for _, n := range []int{2, 1} {
		for i := range opts {
			if o := &opts[i]; len(s) >= n && o.short == s[:n] {
				return o
			}
		}
	}
	return nil
}

// zipLong finds a long option by a prefix; of several, -TT's, as the
// gravest.
func zipLong(name string) *zipOpt {
	var best *zipOpt
	opts := zipOpts()
	for i := range opts {
		o := &opts[i]
		if o.long == "" || name == "" || !strings.HasPrefix(o.long, name) {
			continue
		}
		if o.long == name || o.short == "TT" {
			return o
		}
		if best == nil {
			best = o
		}
	}
	return best
}

// zipCall: zip writes its archive (the first operand, .zip added to a
// name without one; -O's when given), its log (-lf, .log added alike)
// and a temporary archive in -b's directory, removes what it adds with
// -m, and runs -TT's command to test the archive. Under patterns -TT
// is refused and the writes decided; under a shell allowed whole they
// are recorded for the hook's guard.
func zipCall(w *walker, c call) {
	fs, ops, unsure := zipArgs(c.args)
	if unsure != "" {
		if w.mode == limited {
			w.refuse(refused(c.text, "zip %s is an option bn cannot read (not known before the line runs, or not zip's), which may be one that runs a command or writes a file; bn refuses it under patterns", unsure))
			return
		}
		for _, op := range c.args {
			w.seen(agents.KindEdit, "zip", op, c.d)
		}
		return
	}
	type target struct {
		what string
		v    word
		kind agents.Kind
	}
	var writes []target
	if len(ops) > 0 {
		writes = append(writes, target{"zip", withExt(ops[0], ".zip"), agents.KindCreate})
	}
	for _, f := range fs {
		spelt := strings.SplitN(f.src, "=", 2)[0]
		switch {
		case f.o.short == "TT" && w.mode == limited:
			w.refuse(refused(c.text, "zip %s runs a command to test the archive; bn refuses it under patterns", spelt))
			return
		case f.o.short == "TT" && f.has && f.value.static():
			w.subline(f.value.value(), c.text, c.d) // sh -c runs it, with the archive's name added
		case f.o.short == "TT" && len(w.denyRules()) > 0:
			w.refuse(refused(c.text, "zip %s runs a command not known before the line runs, which %s could refuse; write it out", spelt, w.holds()))
			return
		case !f.has:
		case f.o.short == "O":
			writes = append(writes, target{"zip " + spelt, f.value, agents.KindCreate})
		case f.o.short == "lf":
			writes = append(writes, target{"zip " + spelt, withExt(f.value, ".log"), agents.KindCreate})
		case f.o.short == "b" && f.value.static():
			writes = append(writes, target{"zip " + spelt, literal(path.Join(filepath.ToSlash(f.value.value()), "ziXXXXXX")), agents.KindCreate})
		case f.o.short == "b":
			writes = append(writes, target{"zip " + spelt, f.value, agents.KindCreate})
		}
	}
	for _, f := range fs {
		if f.o.short == "m" && len(ops) > 1 {
			for _, op := range ops[1:] {
				writes = append(writes, target{"zip -m", op, agents.KindEdit})
			}
			break
		}
	}
	for _, t := range writes {
		if w.mode == limited {
			w.writeArg(c.text, t.what, t.kind, t.v, c.d)
		} else {
			w.seen(t.kind, t.what, t.v, c.d)
		}
		if w.stopped() {
			return
		}
	}
}

// withExt is the file zip writes for a name: ext added to a name
// without an extension.
func withExt(v word, ext string) word {
	if !v.static() || v.value() == "-" || filepath.Ext(v.value()) != "" {
		return v
	}
	return literal(v.value() + ext)
}
