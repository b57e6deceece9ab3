package enforce

import (
	"math/rand/v2"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// The line generator: command lines built from the shell's grammar
// (lists, pipelines, compound commands, substitutions, expansions,
// redirections, quoting, prefixes), driven by bytes so that the fuzzer
// steers it, and by a seeded generator once the bytes run out.

// oracleAgent is one shape of rules bn supports, under which lines are
// generated and decided.
type oracleAgent struct {
	name  string
	tools agents.Tools
}

// oracleAgents cover every pattern shape: words, ":*" stems, '*'
// anywhere, runners and programs with checked arguments, path-limited
// writes, a shell allowed whole with denies (policy denies among them),
// and a shell allowed whole with file denies only.
var oracleAgents = []oracleAgent{
	{"differ", agents.Tools{Allow: []string{"read", "shell(git diff:*)", "shell(git log)", "shell(ls)", "shell(head:*)"}}},
	{"gitter", agents.Tools{Allow: []string{"read(src/*)", "shell(git:*)", "edit(src/*)", "create(out/*)"}}},
	{"globber", agents.Tools{Allow: []string{"shell(ls*)", "shell(git * --stat)", "shell(cat src/*)", "create(out/*)"}}},
	{"runner", agents.Tools{Allow: []string{"shell(timeout:*)", "shell(xargs:*)", "shell(env:*)", "shell(git log:*)", "shell(find:*)", "write(out/*)"}}},
	{"editor", agents.Tools{Allow: []string{"shell(sed:*)", "shell(awk:*)", "shell(tee:*)", "shell(sort:*)", "edit(src/*)", "create(out/*)"}}},
	{"careful", agents.Tools{All: true, Deny: []string{"shell(rm:*)", "shell(git push)", "shell(touch:*)", "edit(.env)", "create(.env)"}}},
	{"opener", agents.Tools{Allow: []string{"shell", "read", "write(out/*)"}, Deny: []string{"shell(rm:*)", "shell(curl:*)"}}},
	{"free", agents.Tools{All: true, Deny: []string{"edit(.env)", "create(.env)", "create(src/*)"}}},
}

type gen struct {
	data  []byte
	pos   int
	rnd   *rand.Rand
	depth int
	// prefer are the command words of the agent's allow patterns, picked
	// half the time: lines the engine allows are the ones the oracle
	// runs.
	prefer []string
}

func newGen(data []byte, seed uint64, a oracleAgent) *gen {
	g := &gen{data: data, rnd: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
	for _, s := range a.tools.Allow {
		if p, err := agents.ParseToolPattern(s); err == nil && p.HasArg && p.Kind == "shell" {
			w := strings.Fields(strings.TrimSuffix(p.Arg, ":*"))[0]
			g.prefer = append(g.prefer, strings.TrimRight(w, "*"))
		}
	}
	return g
}

func (g *gen) n(k int) int {
	if g.pos < len(g.data) {
		b := g.data[g.pos]
		g.pos++
		return int(b) % k
	}
	return g.rnd.IntN(k)
}

func (g *gen) pick(xs ...string) string { return xs[g.n(len(xs))] }

// chance is true one time in k.
func (g *gen) chance(k int) bool { return g.n(k) == 0 }

func (g *gen) line() string {
	g.depth = 0
	return g.list()
}

func (g *gen) list() string {
	g.depth++
	defer func() { g.depth-- }()
	s := g.pipeline()
	for g.depth < 4 && g.chance(3) {
		s += g.pick("; ", " && ", " || ", " | ", " |& ", " & ", "\n") + g.pipeline()
	}
	return s
}

func (g *gen) pipeline() string {
	s := g.command()
	if g.chance(12) {
		s = "! " + s
	}
	if g.chance(12) {
		s += " &"
	}
	return s
}

func (g *gen) command() string {
	if g.depth >= 3 || !g.chance(5) {
		return g.simple()
	}
	switch g.n(11) {
	case 0:
		return "( " + g.list() + " )" + g.redirs()
	case 1:
		return "{ " + g.list() + "; }" + g.redirs()
	case 2:
		return "if " + g.list() + "; then " + g.list() + "; fi"
	case 3:
		return "while false; do " + g.list() + "; done"
	case 4:
		return "for " + g.pick("f", "PATH", "path", "x", "IFS") + " in " + g.arg("ls") + " b; do " + g.list() + "; done"
	case 5:
		return "case " + g.arg("ls") + " in x) " + g.list() + ";; *) " + g.list() + ";; esac"
	case 6:
		return g.pick("f", "git", "ls") + "() { " + g.list() + "; }; " + g.pick("f", "git diff", "ls")
	case 7:
		return "[[ " + g.arg("ls") + " " + g.pick("-eq", "==", "-lt", "-v") + " 1 ]] && " + g.simple()
	case 8:
		return "(( " + g.pick("1", "x", "a[$_]", "1+1", "i++") + " )) && " + g.simple()
	case 9:
		return g.pick("sh -c ", "bash -c ", "eval ", "zsh -c ", "timeout 5 sh -c ", "flock out/lock -c ", "watch -n1 ") + quote(g.simple())
	default:
		return "time " + g.simple()
	}
}

var commandWords = []string{"git", "git", "git", "ls", "head", "cat", "rm", "echo", "find", "xargs", "sed", "awk", "tee", "sort",
	"timeout", "env", "sh", "bash", "eval", "source", ".", "trap", "alias", "true", "cd", "printf", "read", "export", "touch",
	"python3", "make", "curl", "declare", "exec", "command", "builtin", "hash", "fc", "r", "set", "shopt", "setopt", "enable", "mapfile"}

func (g *gen) simple() string {
	var s string
	if g.chance(6) {
		s += g.pick("LC_ALL=C ", "GIT_EXTERNAL_DIFF=touch ", "PAGER=touch ", "GIT_PAGER=cat ", "x=1 ", "PATH=/tmp ", "PS4='$(touch ps4)' ", "BASH_ENV=x ")
	}
	if g.chance(5) {
		s += g.pick("command ", "builtin ", "exec ", "env ", "env -i ", "env LC_ALL=C ", "nice -n 1 ", "nohup ", "timeout 5 ",
			"xargs ", "sudo ", "noglob ", "stdbuf -oL ", "setsid ", "busybox ", "find . -exec ", "xargs -I{} ")
	}
	name := g.pick(commandWords...)
	if len(g.prefer) > 0 && g.chance(2) {
		name = g.pick(g.prefer...)
	}
	s += g.word(name, true)
	for n := g.n(4); n > 0; n-- {
		s += " " + g.arg(name)
	}
	if strings.HasSuffix(s, "-exec "+name) || strings.Contains(s, "find . -exec") {
		s += " {} \\;"
	}
	return s + g.redirs()
}

// word writes w as the shell would read it back as w, or as something
// that only looks like it.
func (g *gen) word(w string, command bool) string {
	if !g.chance(3) {
		return w
	}
	switch g.n(16) {
	case 0:
		return "'" + w + "'"
	case 1:
		return `"` + w + `"`
	case 2:
		return `\` + w
	case 3:
		if len(w) > 1 {
			return w[:1] + `""` + w[1:]
		}
	case 4:
		return "$'" + w + "'"
	case 5:
		return "/usr/bin/" + w
	case 6:
		return "./" + w
	case 7:
		return "~/" + w
	case 8:
		return `"$W"`
	case 9:
		return "$(echo " + w + ")"
	case 10:
		return "`echo " + w + "`"
	case 11:
		return w[:1] + "*"
	case 12:
		return "{" + w + ",touch}"
	case 13:
		return "=" + w
	case 14:
		if command {
			return "$W"
		}
		return "${W:-" + w + "}"
	case 15:
		return `$'\x` + hex2(w[0]) + `'` + w[1:]
	}
	return w
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

var gitWords = []string{"diff", "diff", "log", "push", "status", "show", "config", "--stat", "--oneline", "-5", "--output=out/x", "--output=src/new",
	"--output", "~/.bashrc", "--ext-diff", "--no-pager", "-c", "core.pager=touch", "-C", "src", "--", "src/", "*.go", "HEAD~1", "--out=out/y",
	"alias.x=!touch", "-p", "--textconv", "grep", "-O", "rebase", "-x", "submodule", "foreach", "--git-dir=/tmp", "--exec-path=/tmp"}

var argWords = []string{"-la", "-n", "1", "x", "src/a.go", `"a b"`, "*.go", "--", "-exec", "rm", "{}", `\;`, "-delete", "-fprint", "out/f",
	"'s/a/b/'", "'s/a/b/w out/w'", "'e touch x'", "'1d'", "-i", "-e", `'BEGIN{system("touch x")}'`, `'{print > "out/y"}'`, "'{print $1}'",
	"touch", "-c", "'touch x'", "-o", "out/s", "src/rc", "out/t", "-a", "--compress-program=touch", "-S", "'touch x'", "-v", "'a[$(touch v)]'"}

var expansions = []string{`"$_"`, "$_", "$((1+1))", "$(( $_ ))", "$[1]", `"${!_}"`, `"${_@P}"`, "'a[$(touch m)]'", "$(touch m)", "`touch m`",
	"<(touch m)", `"${x:-$(touch m)}"`, "~/x", "{a,b}", `"$HOME"`, "$x[1]", "${x}", `"${#x}"`, "${x:0:1}", `"${x[$_]}"`, `"${x:$_}"`,
	`$'\x41'`, "*(e:'touch q':)", "=(touch m)", "$~x", "$=x", `"$x"`, "!!", "%1", "a=~/x", "~-/x", "of=~-/x", `"$(<src/a.go)"`, "$'a\\nb'", `$"x"`}

func (g *gen) arg(cmd string) string {
	switch g.n(4) {
	case 0:
		return g.pick(expansions...)
	case 1:
		if cmd == "git" {
			return g.word(g.pick(gitWords...), false)
		}
	}
	return g.word(g.pick(argWords...), false)
}

var redirTargets = []string{"out/x", "src/a.go", "src/new", "~/.bashrc", "/tmp/x", "../x", "src/link/x", "src/rc", "/dev/null",
	"/dev/tcp/127.0.0.1/9", `"$F"`, "out/../src/a.go", ".env", "out/*.x", "{out/a,out/b}", "/dev/stderr", "/proc/self/fd/1", "~-/x"}

func (g *gen) redirs() string {
	var s string
	for g.chance(3) {
		switch g.n(14) {
		case 0, 1:
			s += " > " + g.pick(redirTargets...)
		case 2:
			s += " >> " + g.pick(redirTargets...)
		case 3:
			s += " 2>&1"
		case 4:
			s += " 2>/dev/null"
		case 5:
			s += " < " + g.pick(redirTargets...)
		case 6:
			s += " &> " + g.pick(redirTargets...)
		case 7:
			s += " >| " + g.pick(redirTargets...)
		case 8:
			s += " <> " + g.pick(redirTargets...)
		case 9:
			s += " >&" + g.pick("out/v", "2", "1", "-", "3")
		case 10:
			s += " <<< " + g.pick("word", `"$(touch h)"`, "'$(touch h)'")
		case 11:
			s += " " + g.pick("{fd}", "3") + "> " + g.pick(redirTargets...)
		case 12:
			s += " <<" + g.pick("EOF", "'EOF'") + "\n" + g.pick("$(touch h)", "text", "`touch h`") + "\nEOF\n"
		default:
			s += " >! " + g.pick(redirTargets...)
		}
	}
	return s
}

// quote single-quotes s for a shell.
func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
