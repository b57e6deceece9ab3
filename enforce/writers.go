package enforce

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/binnacle-dev/bn/agents"
)

// The writers: programs that write a file an option or operand names,
// each read against its GNU and BSD manual (man, --help) for the
// options and operands that write files; audit says what was found and
// how bn decides it. An option that names the file written is a write,
// decided as a redirection is under patterns and under a shell allowed
// whole, so that the hook's guard sees it; a Writes program's operands
// are recorded for the guard as cp's are.
func fileWriters(programs map[string]*program) {
	programs["iconv"] = &program{class: Reads, audit: "-o/--output writes (GNU; BSD iconv has none): decided as a write; -f, -t name encodings",
		opts: []opt{writes('o', "output"), valued('f', "from-code"), valued('t', "to-code")}}
	for _, n := range []string{"msgfmt", "msgmerge", "msgcat", "msgconv", "msgunfmt", "msginit", "msguniq", "msgattrib", "msgfilter", "msggrep", "msgcomm", "msgen"} {
		programs[n] = &program{class: Writes, note: n + writesNote, opts: []opt{writes('o', "output-file"), valued('D', "directory")},
			audit: "-o/--output-file writes: decided as a write; msgfmt writes messages.mo without -o, msgmerge -U its operand in place: operands recorded as written"}
	}
	programs["msgfilter"].note = "msgfilter runs the filter program it names"
	programs["msgfilter"].class = Runs
	programs["xgettext"] = &program{class: Writes, note: "xgettext" + writesNote, opts: []opt{writes('o', "output"), valued('p', "output-dir"), valued('D', "directory"), valued('f', "files-from")},
		audit: "-o/--output writes: decided as a write (in -p's directory too: operands recorded)"}
	// openssl's options are single-dash words (-out FILE, -keyout FILE),
	// which no getopt reads: every operand is recorded as written, so the
	// file after -out is too. It loads engines and providers (-engine,
	// OPENSSL_CONF), which run code.
	programs["openssl"] = &program{class: Writes, note: "openssl writes the files its arguments name (-out, -keyout), and -engine and -provider load code",
		audit: "-out, -keyout, enc -out, req -out and the like write the file after them: every operand is recorded as written"}
	for _, n := range []string{"gpg", "gpg2"} {
		programs[n] = &program{class: Runs, note: n + " runs programs it is configured with (--photo-viewer, keyserver helpers, --exec-path)",
			audit: "-o/--output writes: decided as a write under a shell allowed whole", opts: []opt{writes('o', "output"), valued('r', "recipient"), valued('u', "local-user"), valued(0, "homedir")}}
	}
	programs["uudecode"] = &program{class: Writes, note: "uudecode" + writesNote, custom: uudecodeCall,
		audit: "-o/--output-file writes: decided as a write; without -o (or BSD's -p, to standard output) it writes the file its input's begin line names, which bn cannot know: refused where the rules limit writes, a write bn cannot place otherwise (uudecodeCall)"}
	for _, n := range []string{"fallocate", "mkfifo", "mknod", "ar", "ranlib", "objcopy", "strip"} {
		programs[n] = &program{class: Writes, note: n + writesNote}
	}
	programs["fallocate"].opts = []opt{valued('o', "offset"), valued('l', "length")}
	programs["mkfifo"].opts = []opt{valued('m', "mode")}
	programs["mknod"].opts = []opt{valued('m', "mode")}
	programs["strip"].opts = []opt{writes('o', ""), valued('R', "remove-section"), valued('K', "keep-symbol"), valued('N', "strip-symbol"), valued('F', "target"), valued('I', "input-target"), valued('O', "output-target")}
	// A compiler or linker writes -o's file (a.out without); its
	// single-dash options (-fno-omit-frame-pointer) are no clusters of
	// letters, so ccCall reads -o itself. Compilers and linkers load
	// plugins and run the programs their specs name: allowed whole, they
	// are allowing the shell.
	for _, n := range []string{"gcc", "cc", "c++", "g++", "clang", "clang++", "c99", "tcc", "ld", "ld.bfd", "ld.gold", "ld.lld", "lld", "as"} {
		programs[n] = &program{class: Runs, note: n + runsNote, custom: ccCall,
			audit: "-o FILE, -oFILE, --output, -MF (compilers) and -Map (linkers) write: decided as writes (ccCall)"}
	}
	// A compressor writes beside each operand the name with its suffix
	// added (-S's), or, decompressing, taken off (packed).
	for _, n := range []string{"gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "lzma", "unlzma", "zstd", "unzstd", "lz4", "lzip", "brotli", "compress", "uncompress"} {
		p := programs[n]
		if p == nil {
			p = &program{class: Writes, note: n + writesNote}
			programs[n] = p
		}
		p.packs = true
	}
	for _, n := range []string{"gzip", "gunzip", "xz", "unxz", "lzma", "unlzma", "zstd", "unzstd", "lzip", "brotli"} {
		programs[n].opts = append(programs[n].opts, valued('S', "suffix"), flagOpt('N', "name"), flagOpt('d', "decompress"))
	}
	// zstd, lzip and brotli write -o's file; zstd its --trace log and
	// files in --output-dir-flat's and --output-dir-mirror's directory.
	for _, n := range []string{"zstd", "unzstd", "lzip", "brotli"} {
		programs[n].opts = append([]opt{seen('o', "output")}, programs[n].opts...)
	}
	for _, n := range []string{"zstd", "unzstd"} {
		programs[n].opts = append(programs[n].opts, seen(0, "trace"), seen(0, "output-dir-flat"), seen(0, "output-dir-mirror"))
	}
	for _, n := range []string{"sponge", "yq"} {
		programs[n] = &program{class: Writes, note: n + writesNote, audit: "sponge writes its operand; yq -i/--inplace its operands: every operand recorded as written"}
	}
	// sdiff merges into -o's file interactively: its input's e command
	// runs an editor, and --diff-program names the program it compares
	// with.
	programs["sdiff"] = &program{class: Runs, note: "sdiff runs the program --diff-program names, and with -o the editor its input asks for",
		opts: []opt{writes('o', "output"), valued('I', "ignore-matching-lines"), valued('w', "width"), valued(0, "tabsize"), valued(0, "diff-program")}}
	// ssh-keygen writes -f's key (and KEY.pub beside it), and loads the
	// PKCS#11 or FIDO library -D and -w name, which runs its code.
	programs["ssh-keygen"] = &program{class: Runs, note: "ssh-keygen loads the PKCS#11 or FIDO library -D and -w name, which runs its code",
		opts: []opt{writes('f', ""), valued('b', ""), valued('C', ""), valued('N', ""), valued('t', ""), valued('O', ""), valued('Z', ""), valued('a', ""), valued('E', ""),
			valued('I', ""), valued('n', ""), valued('V', ""), valued('z', ""), valued('s', ""), valued('D', ""), valued('w', ""), valued('P', ""), valued('m', ""),
			valued('r', ""), valued('R', ""), valued('F', ""), valued('M', ""), valued('Y', ""), valued('G', ""), valued('T', ""), valued('J', ""), valued('j', ""), valued('S', "")}}
	// tic writes the compiled entries under -o's directory (ncurses'
	// manual: -odir), else $TERMINFO or ~/.terminfo; its operand is the
	// source it reads, recorded as written as every Writes operand is.
	programs["tic"] = &program{class: Writes, note: "tic" + writesNote,
		opts: []opt{writes('o', ""), valued('e', ""), valued('R', "")}}
	// pandoc writes -o's file, --log's and the media --extract-media
	// names, and runs the filters --filter and --lua-filter name: under a
	// shell allowed whole, the deny rules see --filter's program (a Lua
	// filter is a script, as python3's is) and refuse a defaults file,
	// whose filters bn does not read.
	programs["pandoc"] = &program{class: Runs, note: "pandoc runs the filters --filter and --lua-filter name, and its defaults files (-d) name more",
		opts: []opt{writes('o', "output"), writes(0, "log"), writes(0, "extract-media"), valued('f', "from"), valued('r', "read"), valued('t', "to"), valued('w', "write"),
			runner('F', "filter", "runs the filter it names", runsProgram), valued('L', "lua-filter"), valued('M', "metadata"), valued('V', "variable"),
			runner('d', "defaults", "reads a defaults file, whose filters are programs pandoc runs", runsUnread), valued('c', "css"),
			valued('H', "include-in-header"), valued('B', "include-before-body"), valued('A', "include-after-body")}}
	programs["exiftool"] = &program{class: Runs, custom: exiftoolCall, note: "exiftool evaluates the Perl expressions its arguments hold (-if, ${TAG;EXPR}): allowing it is allowing the shell"}
	// localedef writes the locale its operand names (a path, or a name in
	// the archive), under --prefix's directory when given.
	programs["localedef"] = &program{class: Writes, note: "localedef" + writesNote,
		opts: []opt{valued('f', "charmap"), valued('i', "inputfile"), valued('u', "repertoire-map"), valued('A', "alias-file"), writes(0, "prefix"),
			valued(0, "no-warnings"), valued(0, "warnings")}}
	programs["sqlite3"] = &program{class: Runs, note: "sqlite3 runs the commands its input and arguments name (.shell, .system, .output): allowing it is allowing the shell",
		custom: sqliteCall, audit: "it writes its database, the first operand: recorded as written (sqliteCall)"}
}

// ccCall: a compiler's, assembler's or linker's output files (-o FILE,
// -oFILE, --output[=]FILE, -MF FILE, -Map[=]FILE), decided as writes,
// those the compiler passes to the linker too (-Wl,-o,FILE,
// -Xlinker -o -Xlinker FILE); without -o, what it writes in the working
// directory (ccDefault).
func ccCall(w *walker, c call) {
	args := linkerArgs(c.args)
	if slices.ContainsFunc(args, func(a word) bool { return a.src == "-###" }) {
		return // -### prints the commands the compiler would run and runs none
	}
	named := false // -o names the output
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.value()
		if !a.static() {
			if a.option && (w.mode == limited || w.e.limits(agents.KindCreate)) {
				w.refuse(refused(c.text, "the argument %s is not known before the line runs and may be an option of %s that writes a file (-o); write it out", a.src, c.name))
				return
			}
			continue
		}
		var out word
		what := c.name
		switch {
		case slices.Contains([]string{"-o", "--output", "-MF", "-Map", "--Map"}, v) && i+1 < len(args):
			i++
			out, what = args[i], c.name+" "+v
		case strings.HasPrefix(v, "--output="), strings.HasPrefix(v, "-Map="), strings.HasPrefix(v, "--Map="):
			name, value, _ := strings.Cut(v, "=")
			out, what = literal(value), c.name+" "+name
		case strings.HasPrefix(v, "-MF") && len(v) > 3:
			out, what = literal(v[3:]), c.name+" -MF"
		case strings.HasPrefix(v, "-o") && len(v) > 2:
			out, what = literal(v[2:]), c.name+" -o"
		default:
			continue
		}
		named = named || strings.HasPrefix(v, "-o") || strings.HasPrefix(v, "--output")
		if w.writeArg(c.text, what, agents.KindCreate, out, c.d); w.stopped() {
			return
		}
	}
	if !named {
		ccDefault(w, c, args)
	}
}

// ccSources are the suffixes of the files a compiler compiles (gcc's
// manual, Options Controlling the Kind of Output), ccCxxSources those of
// them that are C++ (-save-temps keeps NAME.ii for them), ccObjects
// those it only links.
var (
	ccCxxSources = []string{".ii", ".cc", ".cp", ".cxx", ".cpp", ".CPP", ".c++", ".C"}
	ccSources    = append([]string{".c", ".i", ".m", ".mi", ".mm", ".M", ".mii", ".s", ".S", ".sx"}, ccCxxSources...)
	ccObjects    = []string{".o", ".a", ".so", ".obj"}
)

// ccDefault: without -o a compiler, assembler or linker that links
// writes a.out in the working directory, and one that stops before
// linking (-c, -S) writes each source's base name with .o or .s there
// (gcc's manual, -o); -E, -M and -fsyntax-only write to standard output
// or nothing. A source is a file with a source's suffix, or any operand
// after -x LANG (the language given, not read from the suffix). -MD and
// -MMD write each source's NAME.d unless -MF names the file, and
// -save-temps its NAME.i (.ii for C++), NAME.s and NAME.o. Decided as
// creates, as -o's file is.
func ccDefault(w *walker, c call, args []word) {
	stop, lang, deps, mf, temps := "", "", false, false, false
	var sources, inputs []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.value()
		switch {
		case !a.static():
		case slices.Contains([]string{"-c", "-S", "-E", "-M", "-MM", "-fsyntax-only"}, v):
			stop = v
		case v == "-x" && i+1 < len(args):
			i++
			lang = args[i].value()
		case strings.HasPrefix(v, "-x"):
			lang = v[2:]
		case v == "-MD" || v == "-MMD":
			deps = true
		case strings.HasPrefix(v, "-MF"):
			mf = true
		case v == "-save-temps" || strings.HasPrefix(v, "-save-temps="):
			temps = true
		case strings.HasPrefix(v, "-"):
		case slices.Contains(ccSources, filepath.Ext(v)) || (lang != "" && lang != "none"):
			sources = append(sources, v)
			inputs = append(inputs, v)
		case slices.Contains(ccObjects, filepath.Ext(v)):
			inputs = append(inputs, v)
		}
	}
	var outs []string
	for _, src := range sources {
		name := strings.TrimSuffix(filepath.Base(src), filepath.Ext(src))
		if suffix, ok := ccStopSuffix[stop]; ok {
			outs = append(outs, name+suffix)
		}
		if deps && !mf && stop != "-E" {
			outs = append(outs, name+".d")
		}
		if temps && stop != "-E" && stop != "-fsyntax-only" {
			pre := ".i"
			if slices.Contains(ccCxxSources, filepath.Ext(src)) || strings.HasPrefix(lang, "c++") {
				pre = ".ii"
			}
			outs = append(outs, name+pre, name+".s", name+".o")
		}
	}
	if stop == "" && len(inputs) > 0 {
		outs = append(outs, "a.out")
	}
	what := c.name + " without -o"
	if stop != "" {
		what = c.name + " " + stop + " without -o"
	}
	for _, o := range outs {
		if w.writeArg(c.text, what, agents.KindCreate, literal(o), c.d); w.stopped() {
			return
		}
	}
}

// ccStopSuffix is the suffix of the file -c and -S write for each source.
var ccStopSuffix = map[string]string{"-c": ".o", "-S": ".s"}

// linkerArgs is a compiler's arguments with those it passes to the linker
// in their place: each of -Wl,A,B's (A B) and -Xlinker's word.
func linkerArgs(args []word) []word {
	var out []word
	for i := 0; i < len(args); i++ {
		v := args[i].value()
		switch {
		case strings.HasPrefix(v, "-Wl,"):
			for _, l := range strings.Split(v[len("-Wl,"):], ",") {
				out = append(out, literal(l))
			}
		case v == "-Xlinker" && i+1 < len(args):
			i++
			out = append(out, args[i])
		default:
			out = append(out, args[i])
		}
	}
	return out
}

// goOutputs are the flags of go's build and test through which it writes
// a file: the binary (-o) and test's profiles and trace.
var goOutputs = []string{"o", "coverprofile", "cpuprofile", "memprofile", "blockprofile", "mutexprofile", "trace"}

// goCall: go build -o FILE, go test -c -o FILE and go test's profiles
// (-coverprofile=FILE, written in -outputdir's directory when it names
// one) are writes, decided as a compiler's -o is; with -C DIR (or
// -outputdir) bn does not place them, and they are writes it cannot
// name. A go flag takes one dash or two, its value after '=' or as the
// next word. go takes -C DIR before the subcommand too (go -C DIR
// build), where it is its first flag.
func goCall(w *walker, c call) {
	all, moved := c.args, ""
	if len(all) > 0 && all[0].static() {
		if name, _, glued := strings.Cut(strings.TrimLeft(all[0].value(), "-"), "="); name == "C" && strings.HasPrefix(all[0].value(), "-") {
			moved, all = "go -C", all[1:]
			if !glued && len(all) > 0 {
				all = all[1:]
			}
		}
	}
	if len(all) == 0 || !all[0].static() || !slices.Contains([]string{"build", "test", "run", "install", "vet"}, all[0].value()) {
		return
	}
	sub, args := all[0].value(), all[1:]
	var outs []found
	var ops []word
	compiles, value := sub == "build", false // value: the word is the flag before's
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.value()
		if !a.static() {
			v = a.src
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(v, "-"), "-"), "=")
		if !strings.HasPrefix(v, "-") || name == "" {
			if !value {
				ops = append(ops, a)
			}
			value = false
			continue
		}
		value = !hasVal && !slices.Contains(goBools, name)
		if sub == "test" && name == "c" && (!hasVal || val == "true") {
			compiles = true
		}
		if name == "C" || name == "outputdir" {
			moved = "go -" + name
		}
		if !slices.Contains(goOutputs, name) {
			continue
		}
		f := found{src: "-" + name}
		switch {
		case !a.static():
			f.value = dynamic(a.src, false)
		case hasVal:
			f.value = literal(val)
		case i+1 < len(args):
			i++
			f.value = args[i]
		default:
			continue
		}
		outs = append(outs, f)
	}
	if sub == "install" && !goInstall(w, c) {
		return
	}
	if len(outs) == 0 && compiles && (sub == "test" || goOnePackage(ops)) {
		goBinary(w, c, sub, moved)
		return
	}
	for _, f := range outs {
		if moved != "" {
			if !w.unnamedWrite(c, fmt.Sprintf("go %s %s writes %s in the directory %s names, which bn does not place", sub, f.src, f.value.src, moved), "files", "run it without "+moved) {
				return
			}
			continue
		}
		if w.writeArg(c.text, "go "+sub+" "+f.src, agents.KindCreate, f.value, c.d); w.stopped() {
			return
		}
	}
}

// goBools are go build's and go test's flags that take no value (a
// word after one is a package), as go help build and go help testflag
// list them.
var goBools = []string{"a", "n", "race", "msan", "asan", "cover", "v", "work", "x", "trimpath", "linkshared", "buildvcs", "modcacherw", "json", "i",
	"c", "short", "failfast", "benchmem", "fullpath"}

// goOnePackage says whether go build's operands may name one package,
// whose binary, if it is main, go build writes in the working directory:
// none (the directory's), one without "...", or .go files. For more than
// one package it writes nothing.
func goOnePackage(ops []word) bool {
	return len(ops) == 0 || len(ops) == 1 && !strings.Contains(ops[0].src, "...") ||
		!slices.ContainsFunc(ops, func(o word) bool { return !o.static() || !strings.HasSuffix(o.value(), ".go") })
}

// goBinary: go build of one package without -o writes its binary (if it
// is main) in the working directory, named after the package, and go
// test -c the test binary PKG.test: names bn does not know before the
// line runs. Where the rules limit writes, refused unless the agent may
// create every file there; under no limit, left to the shell.
func goBinary(w *walker, c call, sub, moved string) {
	if !w.e.limits(agents.KindEdit) && !w.e.limits(agents.KindCreate) {
		return
	}
	what := "go build without -o writes the binary of a main package, named after the package,"
	if sub == "test" {
		what = "go test -c without -o writes the test binary, PKG.test,"
	}
	fix := "name the file with -o FILE"
	if sub == "build" {
		fix += " (go build ./... builds every package and writes nothing)"
	}
	if moved != "" {
		w.refuse(refused(c.text, "%s in the directory %s names, which bn does not place, and the rules limit what the agent may change; %s, without %s", what, moved, fix, moved))
		return
	}
	for _, dir := range c.d.at {
		pl, err := w.e.locate(".", dir)
		if dir == "" || err != nil || !w.e.wholeDir(pl) {
			where := "the working directory, where the rules do not let the agent create every file"
			if dir == "" {
				where = "the working directory, after a cd bn cannot follow"
			}
			w.refuse(refused(c.text, "%s in %s; %s", what, where, fix))
			return
		}
	}
}

// goInstall: go install writes the binaries of the main packages it
// builds, named after them, in $GOBIN, else in the bin directory of
// $GOPATH's first entry, else in ~/go/bin (go help install, go help
// environment: the environment the line starts in, then what go env -w
// wrote in go's env file): a write of every file there (bn's own binary
// may be one), refused where the rules do not let the agent create
// every file there, recorded for the hook's guard otherwise. false when
// it refused.
func goInstall(w *walker, c call) bool {
	if w.goEnv != "" {
		return w.unnamedWrite(c, "the line sets "+w.goEnv+", which moves where go install writes the binaries it builds", "files", "run go install without it, or build with go build -o FILE")
	}
	dir, from := goBin(w.e)
	if dir == "" {
		return w.unnamedWrite(c, "go install writes the binaries it builds in $GOBIN or $GOPATH/bin, and bn knows neither, nor the home directory", "files", "build with go build -o FILE")
	}
	pl, err := w.e.locate(dir, w.e.ctx.Root)
	if err != nil {
		w.refuse(refused(c.text, "bn could not resolve %s, where go install writes (%s): %v", dir, from, err))
		return false
	}
	if (w.e.limits(agents.KindEdit) || w.e.limits(agents.KindCreate)) && !w.e.wholeDir(pl) {
		w.refuse(refused(c.text, "go install writes the binaries it builds, named after their packages, in %s (%s), where the rules do not let the agent create every file; build with go build -o FILE where it may", dir, from))
		return false
	}
	w.accesses = append(w.accesses, Access{Kind: agents.KindEdit, Path: dir, Resolved: pl.resolved, Tree: true,
		Fix: "build it with go build -o FILE, which writes only the file it names"})
	return true
}

// goPlaceVariables move where go install writes: set by the line, bn
// does not place it (goBin reads them from the environment the line
// starts in).
var goPlaceVariables = []string{"GOBIN", "GOPATH", "GOENV", "HOME", "XDG_CONFIG_HOME", "AppData"}

// goBin is the directory go install writes in, and what says so; ""
// when bn cannot tell.
func goBin(e *engine) (dir, from string) {
	get := func(k string) string {
		if e.ctx.Getenv == nil {
			return ""
		}
		return e.ctx.Getenv(k)
	}
	file := goEnvFile(e, get)
	value := func(k string) (string, string) {
		if v := get(k); v != "" {
			return v, "$" + k
		}
		return file[k], k + " in go's env file"
	}
	if v, from := value("GOBIN"); v != "" {
		return v, from
	}
	gopath, from := value("GOPATH")
	if gopath == "" {
		if e.ctx.Home == "" {
			return "", ""
		}
		gopath, from = filepath.Join(e.ctx.Home, "go"), "the default GOPATH, ~/go"
	}
	first, _, _ := strings.Cut(gopath, string(filepath.ListSeparator))
	return filepath.Join(first, "bin"), from
}

// goEnvFile is what go env -w wrote (GOENV's file, else go/env in the
// user's configuration directory: os.UserConfigDir's, from the line's
// environment), read through the decision's file system; nil when there
// is none.
func goEnvFile(e *engine, get func(string) string) map[string]string {
	path := get("GOENV")
	if path == "off" {
		return nil
	}
	if path == "" {
		var dir string
		switch {
		case runtime.GOOS == "windows":
			dir = get("AppData")
		case runtime.GOOS == "darwin" && e.ctx.Home != "":
			dir = filepath.Join(e.ctx.Home, "Library", "Application Support")
		case get("XDG_CONFIG_HOME") != "":
			dir = get("XDG_CONFIG_HOME")
		case e.ctx.Home != "":
			dir = filepath.Join(e.ctx.Home, ".config")
		}
		if dir == "" {
			return nil
		}
		path = filepath.Join(dir, "go", "env")
	}
	f, err := e.ctx.FS.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(io.LimitReader(f, maxGitFile))
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), "="); ok {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out
}

// uudecodeOpts are GNU's and BSD's uudecode options (BSD's -c, -i, -m,
// -r, -s change how it decodes, not where it writes).
var uudecodeOpts = []opt{writes('o', "output-file"), flagOpt('p', ""), flagOpt('c', ""), flagOpt('i', ""), flagOpt('m', ""), flagOpt('r', ""), flagOpt('s', "")}

// uudecodeCall: uudecode writes -o's file, or without -o (or BSD's -p,
// to standard output) the file its input's begin line names, which bn
// cannot know.
func uudecodeCall(w *walker, c call) {
	fs, _, maybe := parseOpts(uudecodeOpts, c.args, false)
	if len(maybe) > 0 && (w.mode == limited || w.e.limits(agents.KindCreate)) {
		w.refuse(refused(c.text, "the argument %s is not known before the line runs and may be an option of uudecode (-o writes a file); write it out", maybe[0].src))
		return
	}
	named := false
	for _, f := range fs {
		switch {
		case f.o.eff == writeOpt && f.has:
			named = true
			if w.writeArg(c.text, "uudecode "+spelt(f), agents.KindCreate, f.value, c.d); w.stopped() {
				return
			}
		case f.o.short == 'p':
			named = true // to standard output (BSD)
		}
	}
	if !named {
		w.unnamedWrite(c, "uudecode writes the file its input's begin line names, which bn does not know before the line runs", "files", "name the file with -o FILE, or write to standard output with -p")
	}
}

// sqliteCall records sqlite3's database, the first operand, as written
// (sqlite3 creates it, and writes it unless -readonly): for the hook's
// guard, not decided against the rules, as a query only reads it. The
// commands after it and -cmd's write the files their dot-commands and SQL
// name (sqliteWrites).
func sqliteCall(w *walker, c call) {
	var cmds []word
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		v := strings.TrimLeft(a.value(), "-")
		switch {
		case !a.static() || !strings.HasPrefix(a.value(), "-"):
			w.seen(agents.KindEdit, "sqlite3", a, c.d)
			sqliteWrites(w, c, append(cmds, c.args[i+1:]...))
			return
		case strings.HasPrefix(v, "A"):
			// -A runs .archive with the rest, which writes the files it names.
			for _, r := range c.args[i+1:] {
				w.seen(agents.KindEdit, "sqlite3 -A", r, c.d)
			}
			return
		case v == "cmd" && i+1 < len(c.args):
			i++
			cmds = append(cmds, c.args[i])
		case slices.Contains([]string{"init", "newline", "nullvalue", "separator", "vfs", "mmap", "maxsize", "heap", "escape"}, v):
			i++
		case v == "lookaside" || v == "pagecache":
			i += 2
		}
	}
	sqliteWrites(w, c, cmds)
}

// sqliteDotWrites are sqlite3's dot-commands that write the file their
// last word names (.output and .once with no file write to standard
// output); .log's on, off, stdout and stderr name none.
var sqliteDotWrites = []string{".output", ".once", ".save", ".backup", ".log", ".trace", ".open", ".clone"}

// sqliteSQL matches SQL that writes a file its string names: ATTACH
// 'FILE' and VACUUM INTO 'FILE'. Compiled on first use.
var sqliteSQL = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?is)\b(?:attach(?:\s+database)?|vacuum(?:\s+\w+)?\s+into)\s+'([^']*)'`)
})

// sqliteWrites records, for the hook's guard, the files sqlite3's
// commands write: a dot-command's file (.output FILE, .backup FILE; one
// starting with | is a command it runs, decided as a line, as .shell's
// and .system's are) and the file
// of ATTACH 'FILE' and VACUUM INTO 'FILE'. A command not known before the
// line runs may write any file: a write bn cannot name.
func sqliteWrites(w *walker, c call, cmds []word) {
	for _, a := range cmds {
		if !a.static() {
			w.unnamedWrite(c, fmt.Sprintf("sqlite3 runs %s, not known before the line runs, whose dot-commands and SQL (.output FILE, ATTACH) may write any file", a.src), "files", "write the command out")
			return
		}
		for _, line := range strings.Split(a.value(), "\n") {
			f := strings.Fields(line)
			if len(f) < 2 {
				continue
			}
			rest := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(line), f[0]))
			pipe := strings.IndexByte(rest, '|')
			switch {
			case f[0] == ".shell" || f[0] == ".system":
				w.subline(rest, c.text, c.d)
			case (f[0] == ".output" || f[0] == ".once") && pipe >= 0:
				// .output '|CMD' pipes what follows to CMD, which runs.
				w.subline(strings.TrimRight(rest[pipe+1:], `'"`), c.text, c.d)
			case !slices.Contains(sqliteDotWrites, f[0]) || f[0] == ".log" && slices.Contains([]string{"on", "off", "stdout", "stderr"}, f[1]):
			case !strings.HasPrefix(f[len(f)-1], "-"): // .once -x opens a program of the system's
				w.seen(agents.KindCreate, "sqlite3 "+f[0], literal(strings.Trim(f[len(f)-1], `'"`)), c.d)
			}
			if w.stopped() {
				return
			}
		}
		for _, m := range sqliteSQL().FindAllStringSubmatch(a.value(), -1) {
			if m[1] != "" && m[1] != ":memory:" {
				w.seen(agents.KindCreate, "sqlite3", literal(m[1]), c.d)
			}
		}
	}
}

// packSuffixes are the suffixes compressors add and take off.
var packSuffixes = []string{".gz", ".z", ".Z", "-gz", "-z", "_z", ".bz2", ".bz", ".xz", ".lzma", ".lz", ".zst", ".lz4", ".br", ".tgz", ".taz", ".tbz2", ".tbz", ".txz", ".tzst"}

// packed records, for the hook's guard, what a compressor writes beside
// each operand: the name with -S's suffix added, and the name with its
// suffix taken off (.tgz and its kin become .tar), which decompressing
// writes (gunzip .mcp.json.gz writes .mcp.json). A suffix not known
// before the line runs, or gzip -N, which takes the name stored in the
// file, makes it a write bn cannot place.
func (w *walker) packed(name string, fs []found, ops []word, d dirs) {
	suffixes := slices.Clone(packSuffixes)
	var added []string
	unpacks := strings.HasPrefix(name, "gun") || slices.ContainsFunc(fs, func(f found) bool { return f.o.long == "decompress" })
	for _, f := range fs {
		switch {
		case f.o.long == "name" && !unpacks:
		case f.o.long == "suffix" && f.has && f.value.static():
			suffixes = append(suffixes, f.value.value())
			added = append(added, f.value.value())
		case f.o.long == "suffix" && f.has, f.o.long == "name":
			for _, op := range ops {
				w.accesses = append(w.accesses, Access{Kind: agents.KindCreate, Path: op.src + " (what " + name + " writes)",
					Unknown: name + " " + spelt(f) + " names what it writes in a way bn cannot know before the line runs"})
			}
			return
		}
	}
	for _, op := range ops {
		if !op.static() {
			continue // recorded as an operand bn cannot place
		}
		v := op.value()
		var out []string
		for _, s := range added {
			out = append(out, v+s)
		}
		for _, s := range suffixes {
			if base, ok := strings.CutSuffix(v, s); ok && base != "" && !strings.HasSuffix(base, "/") {
				if strings.HasPrefix(s, ".t") { // .tgz and its kin
					base += ".tar"
				}
				out = append(out, base)
			}
		}
		for _, o := range out {
			w.seen(agents.KindCreate, name, literal(o), d)
		}
	}
}

// exiftoolCall records what exiftool writes: -o's file (a name with %
// codes, or one not known before the line runs, made per input: unplaced),
// what -w writes beside each input (unplaced), and every other operand,
// which a tag assignment (-TAG=VALUE) rewrites in place. Its options are
// words, not clusters of letters (-overwrite_original is not -o).
func exiftoolCall(w *walker, c call) {
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		v := strings.ToLower(a.value())
		switch {
		case !a.static():
			w.accesses = append(w.accesses, Access{Kind: agents.KindEdit, Path: a.src, Unknown: "exiftool's argument " + a.src + " is not known before the line runs and may be -o or a file it rewrites"})
		case (v == "-o" || v == "-out") && i+1 < len(c.args):
			i++
			if out := c.args[i]; out.static() && !strings.Contains(out.value(), "%") {
				w.writeArg(c.text, "exiftool -o", agents.KindCreate, out, c.d)
			} else {
				w.accesses = append(w.accesses, Access{Kind: agents.KindCreate, Path: out.src, Unknown: "exiftool -o makes the name per input (% codes)"})
			}
		case v == "-w" || strings.HasPrefix(v, "-w!") || strings.HasPrefix(v, "-w+") || v == "-textout":
			w.accesses = append(w.accesses, Access{Kind: agents.KindCreate, Path: "files beside exiftool's inputs", Unknown: "exiftool " + a.value() + " writes a file beside each input, named by the extension it gives"})
			i++
		case !strings.HasPrefix(v, "-"):
			w.seen(agents.KindEdit, "exiftool", a, c.d)
		}
		if w.stopped() {
			return
		}
	}
}
