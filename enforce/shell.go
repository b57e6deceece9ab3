package enforce

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"mvdan.cc/sh/v3/syntax"
)

// Bounds on what bn decides. A line over MaxLine bytes, or nested
// deeper than MaxDepth, is refused under any limit before it is
// walked: a hook must answer, and must not run out of stack to do it.
// (Linux passes one argument of at most 128 KiB to a program: no shell
// line a tool runs with -c is longer.)
const (
	MaxLine  = 128 << 10
	MaxDepth = 100
)

// mode is how far a shell line is held.
type mode int

const (
	// free: the shell is allowed whole and nothing of it is denied; only
	// file rules still apply to its redirections, as denies.
	free mode = iota
	// open: the shell is allowed whole but some commands are denied.
	// Every command is matched against the denies as the shell would
	// run it; what could hide a command from them is refused.
	open
	// limited: only the commands the allow patterns name may run.
	limited
)

// shell decides a shell command line.
func (e *engine) shell(line string) Decision {
	m, d, done := e.shellMode()
	if done {
		return d
	}
	for _, sh := range e.ctx.Shells {
		if sh == PowerShell || sh == Cmd {
			if m == free {
				return Decision{Allowed: true, List: d.List, Rule: d.Rule, Reason: d.Reason, Unparsed: true}
			}
			return refused("", "bn does not parse %s command lines, so under a limit of the shell it refuses them; run the command in bash or zsh", sh)
		}
	}
	unparsed := func(format string, args ...any) Decision {
		if m == free {
			// Nothing to hold the line to, but what it writes may be
			// what defines the agent: the hook's guard refuses it.
			return Decision{Allowed: true, List: d.List, Rule: d.Rule, Reason: d.Reason, Unparsed: true,
				Accesses: []Access{{Kind: agents.KindEdit, Path: unparsedWrites, Unknown: fmt.Sprintf(format, args...)}}}
		}
		return refused("", format, args...)
	}
	if len(line) > MaxLine {
		return unparsed("the command line is %d bytes, over the %d bn decides; split it, or write long input to a file first", len(line), MaxLine)
	}
	if n := nesting(line); n > MaxDepth {
		return unparsed("the command line nests %d deep, deeper than the %d bn decides; split it into simpler commands", n, MaxDepth)
	}
	if i := strings.IndexByte(line, '\r'); i >= 0 {
		// bash and zsh keep a carriage return inside a word (git
		// diff\rexpr runs git's subcommand "diff\rexpr"); the parser
		// reads it as a blank, or drops it before a newline.
		return unparsed("the command line holds a carriage return (\\r) at byte %d, which bash and zsh keep inside a word where bn's parser reads a blank, so bn cannot tell what it runs; remove it (end lines with \\n alone)", i)
	}
	f, err := parse(line, syntax.LangBash)
	if err != nil {
		return unparsed("the command line does not parse as bash (%v), so bn cannot tell what it runs", err)
	}
	w := &walker{e: e, mode: m, line: line, dflt: d, cdpath: e.ctx.CDPATH != ""}
	w.stmts(f.Stmts, dirsOf(e.ctx.Dir))
	w.unplaceLinked()
	if w.stop != nil {
		if m == free && w.deep {
			// Nothing to hold the line to but file denies, and bn did
			// not see it all.
			return unparsed("%s", w.stop.Reason)
		}
		return w.named(*w.stop)
	}
	if m == open {
		w.evaluatedText()
		if w.stop != nil {
			return *w.stop
		}
	}
	if m != free {
		if r := e.sameInShells(line, f); r != "" {
			return refused("", "%s; bn refuses a line the shells would run differently", r)
		}
	}
	out := w.last
	if out.Reason == "" {
		out = d
	}
	out.Allowed = true
	out.Accesses = w.accesses
	out.Advisory = w.advisory
	if w.cmds < 2 {
		out.Command = ""
	}
	return out
}

// unplaceLinked makes every write of a line that makes a link, or may
// bring one in, unplaced (a linker's own writes stay placed when the
// line holds no other): bn resolves the links that exist when it
// decides, and a write through one the line makes (ln -s ../.claude
// src/L && cp x src/L/y) or brings in (cp -a /tmp/evil/. src && echo x
// > src/L) lands where bn cannot tell, in whatever order the commands
// run (& and | run them at once), so the hook's guard refuses it.
func (w *walker) unplaceLinked() {
	for i := range w.accesses {
		a := &w.accesses[i]
		if a.Kind == agents.KindRead {
			continue
		}
		j := slices.IndexFunc(w.links, func(l linker) bool { return !slices.Contains(l.own, i) })
		if j < 0 {
			continue
		}
		l := w.links[j]
		a.ResolvedNow, a.Resolved, a.Linked, a.LinkIn = a.Resolved, "", l.text, l.in
		if l.in {
			a.Unknown = "the line may bring a link in (" + l.text + ") that it may go through"
		} else {
			a.Unknown = "the line also makes a link (" + l.text + ") that it may go through"
		}
	}
}

// linker is a command of the line that makes a link (ln, link, cp -s)
// or, in, may bring one in (cp -a, rsync -a, mv, tar x, git checkout):
// a write through it lands where bn cannot tell when it decides
// (unplaceLinked). own are the indexes in accesses of its own writes.
type linker struct {
	text string
	in   bool
	own  []int
}

// linking records text as a linker whose own writes are the accesses
// from start on.
func (w *walker) linking(text string, in bool, start int) {
	l := linker{text: text, in: in}
	for i := start; i < len(w.accesses); i++ {
		l.own = append(l.own, i)
	}
	w.links = append(w.links, l)
}

// named puts the command that decided before a refusal's reason, when
// the line holds more than that command.
func (w *walker) named(d Decision) Decision {
	if d.Command != "" && d.Command != strings.Join(strings.Fields(w.line), " ") {
		d.Reason = fmt.Sprintf("command %q: %s", d.Command, d.Reason)
	}
	return d
}

// shellMode says how a shell line is held, or decides it outright: a
// shell denied whole, or not allowed at all. d is what allows the shell
// whole (the rule, or "unrestricted"). A shell allowed whole is free
// only when nothing of it is denied and the rules limit no write: a
// write is a write, in a redirection or a line eval runs.
func (e *engine) shellMode() (m mode, d Decision, done bool) {
	var denies bool
	for _, r := range e.deny {
		if r.bad || r.whole(agents.KindShell) {
			return 0, e.denied(r, ""), true
		}
		denies = denies || slices.Contains(r.kinds, agents.KindShell)
	}
	var whole, patterns bool
	switch {
	case e.all:
		whole, d = true, e.unrestricted()
	default:
		for _, r := range e.allow {
			if r.whole(agents.KindShell) {
				whole, d = true, e.allowed(r, "")
				break
			}
			patterns = patterns || !r.bad && slices.Contains(r.kinds, agents.KindShell)
		}
	}
	switch {
	case whole && !denies && !e.limits(agents.KindEdit) && !e.limits(agents.KindCreate):
		return free, d, false
	case whole:
		// Denies, or writes the rules limit: every command is seen as
		// the shell would run it, and what could hide one refused.
		return open, d, false
	case patterns:
		return limited, Decision{}, false
	}
	return 0, Decision{Reason: "no allow rule matches: the agent may not use the shell"}, true
}

func parse(line string, lang syntax.LangVariant) (*syntax.File, error) {
	return syntax.NewParser(syntax.KeepComments(false), syntax.Variant(lang)).Parse(strings.NewReader(line), "")
}

// nesting is how deep brackets and backquotes nest in s, counting those
// inside quotes too: an overestimate only leaves a line undecided. It
// bounds the parser's recursion before it runs.
func nesting(s string) int {
	depth, deepest, inBackquote := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			depth = max(depth-1, 0)
		case '`':
			if inBackquote {
				depth = max(depth-1, 0)
			} else {
				depth++
			}
			inBackquote = !inBackquote
		}
		deepest = max(deepest, depth)
	}
	return deepest
}

// walker walks one parsed line, in one mode, collecting its commands'
// decisions, its accesses, and the first refusal.
type walker struct {
	e     *engine
	mode  mode
	line  string
	dflt  Decision // what allows the shell whole, in free and open mode
	depth int
	stop  *Decision
	last  Decision // the decision of the last command allowed
	cmds  int
	deep  bool // the walk stopped at MaxDepth
	// evaluated are the variables arithmetic reads, texts those the line
	// sets to what may not be a number (a shell allowed whole).
	evaluated []string
	texts     map[string]bool
	accesses  []Access
	advisory  []string
	// cdpath: the shell may have a CDPATH (the line sets one, or the
	// shell starts with one), so a cd to a relative name goes where bn
	// cannot tell.
	cdpath bool
	// gitEnv names a variable the line sets that moves git's working
	// tree or repository (GIT_WORK_TREE, GIT_DIR), so bn cannot place
	// what git writes there; "" when none.
	gitEnv string
	// gitFileEnv names a variable the line sets to a value that may name
	// a file git writes (GIT_INDEX_FILE, GIT_TRACE…); "" when none.
	gitFileEnv string
	// goEnv names a variable the line sets that moves where go install
	// writes (GOBIN, GOPATH, go's env file); "" when none.
	goEnv string
	// backupEnv: the line sets SIMPLE_BACKUP_SUFFIX or VERSION_CONTROL,
	// which name the backups cp, mv, ln and install make (backups).
	backupEnv bool
	// defined are the names the line makes functions or aliases of:
	// running one may change the shell's directory.
	defined map[string]bool
	// links are the commands of the line that make a link or may bring
	// one in (linker).
	links []linker
	// here are the directories the statement walked runs in: a "~-" in
	// its words is the previous one.
	here dirs
	// input is the file the statement walked reads its standard input
	// from (< FILE); nil when bn cannot name it (a pipe, the shell's).
	input *word
	// inline is the text a here-string or here-document hands the
	// statement's standard input (<<< W, << EOF); nil when there is none.
	inline *word
	// namedSets: the line runs a command that sets a variable it is
	// given the name of (read, printf -v, declare, arithmetic, …), which
	// may be OLDPWD.
	namedSets bool
}

func (w *walker) stopped() bool { return w.stop != nil }

// fail refuses the line for what it holds.
func (w *walker) fail(format string, args ...any) {
	if w.stop == nil {
		d := refused("", format, args...)
		w.stop = &d
	}
}

// refuse refuses the line with a decision made on one command.
func (w *walker) refuse(d Decision) {
	if w.stop == nil {
		w.stop = &d
	}
}

// advise notes a risk bn cannot decide, once.
func (w *walker) advise(s string) {
	if !slices.Contains(w.advisory, s) {
		w.advisory = append(w.advisory, s)
	}
}

// src is a node's source text, with runs of blanks made one space.
func (w *walker) src(n syntax.Node) string {
	if n == nil || !n.Pos().IsValid() || !n.End().IsValid() {
		return ""
	}
	a, b := int(n.Pos().Offset()), int(n.End().Offset())
	if a < 0 || b > len(w.line) || a > b {
		return ""
	}
	return strings.Join(strings.Fields(w.line[a:b]), " ")
}

// enter counts one level of nesting; false (and a refusal) past MaxDepth.
func (w *walker) enter() bool {
	w.depth++
	if w.depth > MaxDepth {
		w.deep = true
		w.fail("the command line nests deeper than the %d levels bn decides; split it into simpler commands", MaxDepth)
		return false
	}
	return true
}

func (w *walker) leave() { w.depth-- }

// dirs are the directories a command may run in (at): more than one
// after a cd that may fail; "" is one bn cannot know. prev are, alike,
// those the shell's previous directory ($OLDPWD, "~-") may be: a cd
// bn follows sets it to the directory it leaves.
type dirs struct{ at, prev []string }

func dirsOf(d string) dirs { return dirs{at: []string{d}, prev: []string{""}} }

// unknownDirs: after a command that may move the shell by a road bn does
// not follow, neither directory is known.
func unknownDirs() dirs { return dirsOf("") }

func (d dirs) union(o dirs) dirs { return dirs{at: unionOf(d.at, o.at), prev: unionOf(d.prev, o.prev)} }

func unionOf(a, b []string) []string {
	out := slices.Clone(a)
	for _, x := range b {
		if !slices.Contains(out, x) {
			out = append(out, x)
		}
	}
	if len(out) > 8 {
		return []string{""}
	}
	return out
}

func (d dirs) equal(o dirs) bool { return sameSet(d.at, o.at) && sameSet(d.prev, o.prev) }

func sameSet(a, b []string) bool {
	return len(a) == len(b) && !slices.ContainsFunc(a, func(x string) bool { return !slices.Contains(b, x) })
}

// previous is the shell's previous directory, when bn knows it: one, the
// same whichever way the line came.
func (d dirs) previous() (string, bool) {
	if len(d.prev) != 1 || d.prev[0] == "" {
		return "", false
	}
	return d.prev[0], true
}

// stmts walks a list run one after the other; it returns the
// directories the list may end in.
func (w *walker) stmts(list []*syntax.Stmt, d dirs) dirs {
	for _, s := range list {
		if w.stopped() {
			return d
		}
		_, d = w.stmt(s, d)
	}
	return d
}

// nullCommand holds a statement of redirections alone to the deny rules
// as the command zsh runs for it: $NULLCMD (cat), and for a single
// reading redirection $READNULLCMD (more; cat when it is unset).
func (w *walker) nullCommand(s *syntax.Stmt) {
	runs := []string{"cat"}
	if len(s.Redirs) == 1 && s.Redirs[0].Op == syntax.RdrIn {
		runs = append(runs, "more")
	}
	for _, name := range runs {
		if dec, hit := w.denyMatch(w.src(s), []word{literal(name)}); hit {
			dec.Reason = fmt.Sprintf("%s has redirections and no command, for which zsh runs %s: %s; name the program, or write : > FILE to empty a file", w.src(s), name, dec.Reason)
			w.refuse(dec)
			return
		}
	}
}

// stmt walks one statement from directories d; ok are the directories
// it ends in when it succeeds, all those it may end in.
func (w *walker) stmt(s *syntax.Stmt, d dirs) (ok, all dirs) {
	if !w.enter() {
		return d, d
	}
	defer w.leave()
	defer func(here dirs, in, inline *word) { w.here, w.input, w.inline = here, in, inline }(w.here, w.input, w.inline)
	w.here, w.input, w.inline = d, nil, nil
	if s.Coprocess && w.mode == limited {
		w.fail("a coprocess runs a command beside the shell; run it on its own")
		return d, d
	}
	for _, r := range s.Redirs {
		w.redirect(r, d)
	}
	if w.stopped() {
		return d, d
	}
	switch c := s.Cmd.(type) {
	case nil:
		// zsh runs $NULLCMD (cat) for redirections with no command,
		// and $READNULLCMD (a pager: more, or less, which runs what
		// LESSOPEN names) for a single reading one.
		switch {
		case len(s.Redirs) == 0:
		case w.mode == limited:
			w.fail("%s has redirections and no command, for which zsh runs $NULLCMD (cat) or, reading, $READNULLCMD (more), which the patterns do not name; name the program (cat < FILE), or write : > FILE to empty a file", w.src(s))
		case w.mode == open:
			w.nullCommand(s)
		}
		return d, d
	case *syntax.CallExpr:
		return w.call(c, d)
	case *syntax.BinaryCmd:
		switch c.Op {
		case syntax.AndStmt:
			okX, allX := w.stmt(c.X, d)
			okY, allY := w.stmt(c.Y, okX)
			return okY, allX.union(allY)
		case syntax.OrStmt:
			okX, allX := w.stmt(c.X, d)
			okY, allY := w.stmt(c.Y, allX)
			return okX.union(okY), allX.union(allY)
		default: // pipes: bash runs each side in a subshell, zsh the last in the shell
			w.stmt(c.X, d)
			_, allY := w.stmt(c.Y, d)
			return d.union(allY), d.union(allY)
		}
	case *syntax.Subshell:
		w.stmts(c.Stmts, d)
		return d, d
	case *syntax.Block:
		out := w.stmts(c.Stmts, d)
		return out, out
	case *syntax.IfClause:
		out := d
		for ic := c; ic != nil && !w.stopped(); ic = ic.Else {
			out = out.union(w.stmts(ic.Cond, d))
			out = out.union(w.stmts(ic.Then, out))
		}
		return out, out
	case *syntax.WhileClause:
		out := w.stmts(c.Cond, d)
		out = out.union(w.stmts(c.Do, out))
		if !out.equal(d) {
			out = unknownDirs() // a directory changed in a loop: unknown
		}
		return out, out
	case *syntax.ForClause:
		return w.forClause(c, d)
	case *syntax.CaseClause:
		w.word(c.Word, otherWord)
		out := d
		for _, it := range c.Items {
			for _, p := range it.Patterns {
				w.word(p, otherWord)
			}
			out = out.union(w.stmts(it.Stmts, d))
		}
		return out, out
	case *syntax.FuncDecl:
		if w.mode == limited {
			w.fail("defining a function lets a later command run what it holds; run the commands themselves")
			return d, d
		}
		if c.Name != nil {
			w.define(c.Name.Value)
		}
		for _, n := range c.Names {
			w.define(n.Value)
		}
		w.stmt(c.Body, unknownDirs())
		return d, d
	case *syntax.ArithmCmd:
		if w.mode == limited {
			w.fail("((…)) evaluates arithmetic, which can run commands through the variables it reads; the patterns do not name it")
			return d, d
		}
		w.arithm(c.X)
		return d, d
	case *syntax.LetClause:
		if w.mode == limited {
			w.fail("let evaluates arithmetic, which can run commands through the variables it reads; the patterns do not name it")
			return d, d
		}
		for _, x := range c.Exprs {
			w.arithm(x)
		}
		return d, d
	case *syntax.TestClause:
		if w.mode == limited {
			w.fail("[[ … ]] evaluates its operands (as arithmetic for -eq and the like, which can run commands); use test or [ if the patterns allow it")
			return d, d
		}
		w.test(c.X)
		return d, d
	case *syntax.DeclClause:
		return w.decl(c, d)
	case *syntax.TimeClause:
		if c.Stmt == nil {
			return d, d
		}
		return w.stmt(c.Stmt, d)
	case *syntax.CoprocClause:
		if w.mode == limited {
			w.fail("a coprocess runs a command beside the shell; run it on its own")
			return d, d
		}
		w.stmt(c.Stmt, d)
		return d, d
	}
	w.fail("bn does not decide %s commands; write the line with plain commands", strings.TrimPrefix(fmt.Sprintf("%T", s.Cmd), "*syntax."))
	return d, d
}

// forClause walks a loop. A loop variable is an assignment: under
// patterns it may not name a variable the shell or a program reads
// (for PATH in …, zsh's path).
func (w *walker) forClause(c *syntax.ForClause, d dirs) (ok, all dirs) {
	switch l := c.Loop.(type) {
	case *syntax.WordIter:
		if w.mode == limited && !loopVariable(l.Name.Value) {
			w.fail("the loop variable %q may change what commands run; name it in lower case (not a name the shell reads, like path)", l.Name.Value)
			return d, d
		}
		for _, it := range l.Items {
			w.word(it, argWord)
			if !isNumber(it.Lit()) {
				w.setsText(l.Name.Value)
			}
		}
	case *syntax.CStyleLoop:
		if w.mode == limited {
			w.fail("for ((…)) evaluates arithmetic, which can run commands through the variables it reads")
			return d, d
		}
		w.arithm(l.Init)
		w.arithm(l.Cond)
		w.arithm(l.Post)
	}
	out := w.stmts(c.Do, d)
	if !out.equal(d) {
		out = unknownDirs()
	}
	return out, out
}

// loopVariable: lower case, and none of zsh's lower-case names tied to
// what the shell runs or reads.
func loopVariable(name string) bool {
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_') {
			return false
		}
	}
	return !slices.Contains([]string{"path", "fpath", "cdpath", "manpath", "module_path", "mailpath", "psvar", "watch", "signals", "pipestatus", "argv", "histchars", "prompt", "status"}, name)
}

// decl walks declare, export, local, readonly, typeset: refused under
// patterns (they set variables); otherwise refused only where they
// evaluate (-i, -n, subscripts).
func (w *walker) decl(c *syntax.DeclClause, d dirs) (ok, all dirs) {
	w.namedSets = true
	name := c.Variant.Value
	if w.mode == limited {
		w.fail("%s sets variables, which can change what later commands run; the patterns do not name it", name)
		return d, d
	}
	for _, a := range c.Args {
		if a.Naked && a.Name == nil && a.Value != nil {
			v := w.word(a.Value, argWord)
			if w.mode != free && v.static() && strings.HasPrefix(v.value(), "-") && strings.ContainsAny(v.value(), "inAEF") {
				w.fail("%s %s makes variables that evaluate their values (integers, zsh's floats, references), which can run commands", name, v.value())
				return d, d
			}
			if w.mode != free && !v.static() {
				w.fail("%s with a name not known before the line runs can evaluate it; write the name itself", name)
				return d, d
			}
			continue
		}
		w.assign(a)
	}
	w.cmds++
	return d, d
}

// assign walks an assignment's index and value.
func (w *walker) assign(a *syntax.Assign) {
	if a.Name != nil && !(a.Naked && a.Value == nil) && !(a.Value != nil && a.Array == nil && a.Index == nil && numberWord(a.Value)) {
		w.setsText(a.Name.Value)
	}
	if a.Index != nil {
		w.index(a.Index)
	}
	if a.Value != nil {
		w.word(a.Value, assignWord)
	}
	if a.Array != nil {
		for _, el := range a.Array.Elems {
			if el.Index != nil {
				w.index(el.Index)
			}
			if el.Value != nil {
				w.word(el.Value, assignWord)
			}
		}
	}
	if a.Name != nil {
		w.setsPlace(a.Name.Value)
	}
	if w.mode != free && a.Name != nil && dangerousVariable(a.Name.Value) {
		w.fail("setting %s can make the shell run commands (prompts, start-up files, function paths)", a.Name.Value)
	}
}

// dangerousVariable names variables the shell itself evaluates as code
// or reads code from.
func dangerousVariable(name string) bool {
	switch name {
	case "PS1", "PS2", "PS3", "PS4", "PROMPT", "PROMPT2", "PROMPT3", "PROMPT4", "RPROMPT", "RPS1", "RPS2", "SPROMPT",
		"PROMPT_COMMAND", "BASH_ENV", "ENV", "FPATH", "fpath", "ZDOTDIR", "BASH_LOADABLES_PATH", "module_path", "MODULE_PATH":
		return true
	}
	return false
}

// index walks an array subscript: arithmetic for indexed arrays, which
// evaluates what it names.
func (w *walker) index(x syntax.ArithmExpr) {
	if wd, ok := x.(*syntax.Word); ok {
		if v := wd.Lit(); v == "@" || v == "*" || isNumber(v) {
			return
		}
	}
	if wd, ok := x.(*syntax.Word); ok {
		w.operand(wd, "an array subscript is arithmetic, which")
		return
	}
	if w.mode != free {
		w.fail("an array subscript is evaluated as arithmetic, which can run commands through the variables it names")
		return
	}
	w.arithm(x)
}

// arithm walks an arithmetic expression. Outside free mode only numbers
// are allowed: a name is a variable, whose value is evaluated in turn
// and can run a command through an array subscript (x='a[$(cmd)]').
func (w *walker) arithm(x syntax.ArithmExpr) {
	if x == nil || w.stopped() {
		return
	}
	w.namedSets = true
	if !w.enter() {
		return
	}
	defer w.leave()
	switch a := x.(type) {
	case *syntax.BinaryArithm:
		w.arithm(a.X)
		w.arithm(a.Y)
	case *syntax.UnaryArithm:
		if w.mode == limited && (a.Op == syntax.Inc || a.Op == syntax.Dec) {
			w.fail("arithmetic that assigns (++, --) reads and sets variables")
			return
		}
		w.arithm(a.X)
	case *syntax.ParenArithm:
		w.arithm(a.X)
	case *syntax.Word:
		w.operand(a, "arithmetic")
	default:
		if w.mode != free {
			w.fail("bn does not decide this arithmetic (%s)", w.src(x))
		}
	}
}

// operand walks an operand of arithmetic (or of a [[ ]] comparison, a
// subscript, an offset). A number evaluates to itself. A variable's value
// is evaluated in turn, and a subscript in it runs commands
// (x='a[$(cmd)]'; echo $((x))): under patterns bn refuses it; under a
// shell allowed whole it notes the name, and refuses the line at its end
// if the line gives that variable a value that is not a number, or it is
// one the shell sets from the line's own words ($_, REPLY, $1).
func (w *walker) operand(wd *syntax.Word, what string) {
	if isNumber(wd.Lit()) {
		return
	}
	if w.mode == open {
		if name, ok := variableOf(wd); ok {
			w.evaluated = append(w.evaluated, name)
			return
		}
	}
	if w.mode != free {
		w.fail("%s evaluates the variables it names (%s), and a value can run commands through an array subscript; use numbers only", what, w.src(wd))
		return
	}
	w.word(wd, otherWord)
}

// variableOf is the variable an operand names: x, $x or ${x}.
func variableOf(wd *syntax.Word) (string, bool) {
	if len(wd.Parts) != 1 {
		return "", false
	}
	switch p := wd.Parts[0].(type) {
	case *syntax.Lit:
		return p.Value, syntax.ValidName(p.Value)
	case *syntax.ParamExp:
		if p.Param == nil || p.Excl || p.Length || p.Index != nil || p.Slice != nil || p.Repl != nil || p.Exp != nil || p.Flags != nil || len(p.Modifiers) > 0 {
			return "", false
		}
		return p.Param.Value, true
	}
	return "", false
}

// shellSet are the variables the shell sets from what a line holds.
var shellSet = []string{"_", "REPLY", "OPTARG", "PWD", "OLDPWD", "BASH_REMATCH", "MAPFILE", "BASH_COMMAND", "BASH_ARGV", "FUNCNAME",
	"1", "2", "3", "4", "5", "6", "7", "8", "9", "@", "*", "0", "match", "MATCH", "reply"}

// evaluatedText refuses, at the end of a line under a shell allowed
// whole, arithmetic on a variable the line set to something other than
// a number.
func (w *walker) evaluatedText() {
	for _, name := range w.evaluated {
		if slices.Contains(shellSet, name) || w.texts[name] {
			w.fail("arithmetic evaluates $%s, which holds words of the line itself (a value that is not a number), and a subscript in it can run commands; use numbers, or a variable the line sets to a number", name)
			return
		}
	}
}

// setsText notes that the line gives a variable a value that may not be
// a number.
func (w *walker) setsText(name string) {
	w.setsPlace(name)
	if w.gitFileEnv == "" && isGitFileVariable(name) {
		w.gitFileEnv = name
	}
	if w.texts == nil {
		w.texts = map[string]bool{}
	}
	w.texts[name] = true
}

// setsPlace notes a variable that changes where the shell or git goes:
// CDPATH, the variables that move git's working tree or where go install
// writes, and those that name backups.
func (w *walker) setsPlace(name string) {
	w.cdpath = w.cdpath || name == "CDPATH" || name == "cdpath"
	w.backupEnv = w.backupEnv || name == "SIMPLE_BACKUP_SUFFIX" || name == "VERSION_CONTROL"
	if w.gitEnv == "" && isGitPlaceVariable(name) {
		w.gitEnv = name
	}
	if w.goEnv == "" && slices.Contains(goPlaceVariables, name) {
		w.goEnv = name
	}
}

// numberWord: a word whose value is a number (a numeral, or $((…))).
func numberWord(wd *syntax.Word) bool {
	if isNumber(wd.Lit()) {
		return true
	}
	_, ok := wd.Parts[0].(*syntax.ArithmExp)
	return len(wd.Parts) == 1 && ok
}

// isNumber: a literal that starts with a digit is never a variable.
func isNumber(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

// test walks a [[ ]] expression outside limited mode: the arithmetic
// comparisons evaluate their operands.
func (w *walker) test(x syntax.TestExpr) {
	if x == nil || w.stopped() || !w.enter() {
		return
	}
	defer w.leave()
	switch t := x.(type) {
	case *syntax.BinaryTest:
		switch t.Op {
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			for _, o := range []syntax.TestExpr{t.X, t.Y} {
				wd, ok := o.(*syntax.Word)
				if !ok {
					if w.mode != free {
						w.fail("[[ %s ]] compares as arithmetic, which evaluates the variables its operands name", w.src(t))
						return
					}
					continue
				}
				w.operand(wd, "[[ "+w.src(t)+" ]] compares as arithmetic, which")
			}
		}
		w.test(t.X)
		w.test(t.Y)
	case *syntax.UnaryTest:
		if t.Op == syntax.TsVarSet && w.mode != free {
			if wd, ok := t.X.(*syntax.Word); !ok || strings.Contains(wd.Lit(), "[") || wd.Lit() == "" {
				w.fail("[[ -v ]] with a subscript evaluates it as arithmetic")
				return
			}
		}
		w.test(t.X)
	case *syntax.ParenTest:
		w.test(t.X)
	case *syntax.Word:
		w.word(t, otherWord)
	}
}

// expansion walks a part of a word that expands: substitutions run
// commands, arithmetic and some parameter expansions evaluate.
func (w *walker) expansion(part syntax.WordPart, quoted bool) {
	if w.stopped() || !w.enter() {
		return
	}
	defer w.leave()
	switch p := part.(type) {
	case *syntax.CmdSubst:
		if w.mode == limited {
			w.fail("command substitution %s is refused under patterns: it runs commands inside another, and its output becomes words bn cannot check before the line runs (an option such as --output); run it on its own, then write its result into the command", w.src(p))
			return
		}
		w.stmts(p.Stmts, unknownDirs())
	case *syntax.ProcSubst:
		if w.mode == limited {
			w.fail("process substitution %s is refused under patterns: it runs commands beside another; run them on their own", w.src(p))
			return
		}
		w.stmts(p.Stmts, unknownDirs())
	case *syntax.ArithmExp:
		if p.Bracket && w.mode != free {
			w.fail("$[…] is arithmetic, which evaluates the variables it names; use numbers, or run the command without it")
			return
		}
		w.arithm(p.X)
	case *syntax.ParamExp:
		w.param(p, quoted)
	case *syntax.ExtGlob:
		if w.mode != free {
			w.fail("%s is a pattern with qualifiers in zsh, which can run commands; quote it", w.src(p))
		}
	default:
		if w.mode != free {
			w.fail("bn does not decide %s", w.src(part))
		}
	}
}

// param walks a parameter expansion. Outside free mode, only those that
// evaluate nothing: $x, ${x}, ${#x}, ${x:-word} and kin, ${x#pattern} and
// kin, ${x/a/b}; never indirection (${!x}), prompt and other @
// operators, subscripts or offsets that are not numbers, zsh flags.
// Under patterns it must also be quoted: zsh with GLOB_SUBST (which a
// user's configuration may set) reads an unquoted value as a pattern,
// and patterns can run commands there.
func (w *walker) param(p *syntax.ParamExp, quoted bool) {
	if w.mode == free {
		w.paramWords(p)
		return
	}
	bad := ""
	switch {
	case p.Flags != nil || p.NestedParam != nil || p.IsSet || p.Width || len(p.Modifiers) > 0 ||
		p.Split != syntax.OptUnset || p.GlobSubst != syntax.OptUnset || p.RcExpand != syntax.OptUnset:
		bad = "is a zsh expansion bash does not have"
	case p.Excl || p.Names != 0:
		bad = "is indirect expansion, which evaluates the name a variable holds (and its subscript, which can run commands)"
	case p.Exp != nil && p.Exp.Op == syntax.OtherParamOps:
		bad = "is a transformation (@P runs prompt expansion, which can run commands)"
	case p.Exp != nil && (p.Exp.Op == syntax.AssignUnset || p.Exp.Op == syntax.AssignUnsetOrNull):
		bad = "assigns a variable"
	case p.Exp != nil && p.Exp.Op >= syntax.MatchEmpty:
		bad = "is read differently by bash and zsh"
	case p.Slice != nil && !(numeric(p.Slice.Offset) && (p.Slice.Length == nil || numeric(p.Slice.Length))) && w.mode == limited:
		bad = "takes an offset evaluated as arithmetic"
	case p.Index != nil && !numeric(p.Index) && !isAll(p.Index) && w.mode == limited:
		bad = "has a subscript evaluated as arithmetic"
	case p.Param == nil:
		bad = "names no parameter"
	}
	if bad != "" {
		w.fail("%s %s; write the value itself", w.src(p), bad)
		return
	}
	if w.mode == limited && !quoted {
		w.fail("the unquoted %s may expand to several words or patterns; quote it: \"%s\"", w.src(p), w.src(p))
		return
	}
	w.paramWords(p)
}

// paramWords walks the words inside a parameter expansion.
func (w *walker) paramWords(p *syntax.ParamExp) {
	if p.Exp != nil && p.Exp.Word != nil {
		w.word(p.Exp.Word, otherWord)
	}
	if p.Repl != nil {
		w.word(p.Repl.Orig, otherWord)
		w.word(p.Repl.With, otherWord)
	}
	if w.mode != limited {
		if p.Index != nil && !isAll(p.Index) {
			w.index(p.Index)
		}
		if p.Slice != nil {
			w.arithm(p.Slice.Offset)
			w.arithm(p.Slice.Length)
		}
	}
}

func numeric(x syntax.ArithmExpr) bool {
	switch a := x.(type) {
	case *syntax.Word:
		return isNumber(a.Lit())
	case *syntax.UnaryArithm:
		return (a.Op == syntax.Minus || a.Op == syntax.Plus) && numeric(a.X)
	case *syntax.ParenArithm:
		return numeric(a.X)
	}
	return false
}

func isAll(x syntax.ArithmExpr) bool {
	wd, ok := x.(*syntax.Word)
	return ok && (wd.Lit() == "@" || wd.Lit() == "*")
}

// redirect walks one redirection from directories d: a write is an edit
// or create of its file, a read a read, and fd duplication nothing.
func (w *walker) redirect(r *syntax.Redirect, d dirs) {
	if r.N != nil && strings.HasPrefix(r.N.Value, "{") && w.mode == limited {
		w.fail("%s assigns a file descriptor to a variable; use a number", w.src(r))
		return
	}
	var body word
	if r.Hdoc != nil {
		body = w.word(r.Hdoc, otherWord)
	}
	var kind agents.Kind
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		t := w.word(r.Word, otherWord)
		if r.N == nil || r.N.Value == "0" {
			if r.Op != syntax.WordHdoc {
				t = body
			}
			w.inline = &t
		}
		return
	case syntax.RdrIn:
		kind = agents.KindRead
	case syntax.DplIn, syntax.DplOut:
		t := w.word(r.Word, targetWord)
		if v := t.value(); t.static() && (v == "-" || isFD(strings.TrimSuffix(v, "-"))) {
			return // duplicates or closes a descriptor
		}
		if r.Op == syntax.DplIn {
			w.file(agents.KindRead, "the redirection "+w.src(r), t, d, false)
			return
		}
		w.file(agents.KindCreate, "the redirection "+w.src(r), t, d, false) // >&file is &>file
		return
	case syntax.RdrOut, syntax.RdrClob, syntax.RdrAll, syntax.RdrAllClob:
		kind = agents.KindCreate
	case syntax.AppOut, syntax.AppClob, syntax.AppAll, syntax.AppAllClob, syntax.RdrInOut:
		kind = agents.KindEdit // or create, when the file is missing
	default:
		if w.mode != free {
			w.fail("bn does not decide the redirection %s", w.src(r))
		}
		return
	}
	t := w.word(r.Word, targetWord)
	if r.Op == syntax.RdrIn && (r.N == nil || r.N.Value == "0") {
		w.input = &t
	}
	w.file(kind, "the redirection "+w.src(r), t, d, r.Op == syntax.RdrInOut)
}

func isFD(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// devices are files a redirection may name that are not files.
var devices = []string{"/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/fd/0", "/dev/fd/1", "/dev/fd/2", "/dev/zero",
	"/proc/self/fd/0", "/proc/self/fd/1", "/proc/self/fd/2"}

// file decides a file a redirection or a program (what) reads or
// writes, from the directories d; inout: it is read too (<>).
func (w *walker) file(kind agents.Kind, what string, t word, d dirs, inout bool) {
	w.touch(kind, what, t, d, inout, true)
}

// seen records a file a program may write without deciding it (argWrites).
func (w *walker) seen(kind agents.Kind, what string, t word, d dirs) {
	w.touch(kind, what, t, d, false, false)
}

// touch records a file a line reads or writes, and decides it against
// the rules when decide is set.
func (w *walker) touch(kind agents.Kind, what string, t word, d dirs, inout, decide bool) {
	if w.stopped() {
		return
	}
	op := what
	if !t.static() {
		if decide && (w.mode == limited || w.e.limits(kind)) {
			w.fail("%s names a file not known before the line runs, so bn cannot check it against the rules for %s; write the file name itself", op, kind)
			return
		}
		w.accesses = append(w.accesses, Access{Kind: kind, Path: t.src, Unknown: unknownName})
		return
	}
	name := t.value()
	if slices.Contains(devices, name) {
		return
	}
	if strings.HasPrefix(name, "/dev/tcp/") || strings.HasPrefix(name, "/dev/udp/") {
		if decide && w.mode == limited {
			w.fail("%s opens a network connection, which the patterns do not name", op)
		}
		return
	}
	for _, dir := range d.at {
		if dir == "" && !filepath.IsAbs(name) {
			if decide && (w.mode == limited || w.e.limits(kind)) {
				w.fail("%s names a relative file after a cd bn cannot follow; use an absolute path, or cd to a plain directory name", op)
				return
			}
			w.accesses = append(w.accesses, Access{Kind: kind, Path: name, Unknown: unknownDir})
			continue
		}
		pl, err := w.e.locate(name, dir)
		if err != nil {
			// Recorded even when refused: under a shell allowed whole a
			// command's refusal is dropped, and the hook's guard holds.
			w.accesses = append(w.accesses, Access{Kind: kind, Path: name, Unknown: err.Error()})
			if decide {
				w.fail("bn could not resolve %s (%v), so %s is refused", name, err, op)
				return
			}
			continue
		}
		k := kind
		if k == agents.KindEdit && !pl.exists {
			k = agents.KindCreate
		}
		kinds := []agents.Kind{k}
		if inout {
			kinds = append(kinds, agents.KindRead)
		}
		for _, k := range kinds {
			w.accesses = append(w.accesses, Access{Kind: k, Path: name, Resolved: pl.resolved})
			if !decide {
				continue
			}
			dec := w.e.access(k, pl)
			if d, denied := w.e.deniedPath(agents.KindEdit, pl); k == agents.KindCreate && pl.exists && denied {
				dec = d // overwriting a file changes it: a deny of edits holds
			}
			if !dec.Allowed {
				dec.Reason = fmt.Sprintf("%s %s %s: %s", op, accessVerb(k), name, dec.Reason)
				w.refuse(dec)
				return
			}
		}
	}
}

// unparsedWrites is the Access.Path of what a line bn could not read
// may write.
const unparsedWrites = "files"

// Why bn cannot place a file a line names (Access.Unknown).
const (
	unknownName = "its name is not known before the line runs"
	unknownDir  = "it is a relative path after a cd bn cannot follow"
)

func accessVerb(k agents.Kind) string {
	switch k {
	case agents.KindRead:
		return "reads"
	case agents.KindEdit:
		return "changes"
	}
	return "writes"
}

// limits reports whether the rules limit kind to some paths: it is not
// allowed whole, or a deny names some of it. A file bn cannot name might
// be one they refuse.
func (e *engine) limits(kind agents.Kind) bool {
	if slices.ContainsFunc(e.deny, func(r rule) bool { return r.bad || slices.Contains(r.kinds, kind) }) {
		return true
	}
	return !e.all && !slices.ContainsFunc(e.allow, func(r rule) bool { return r.whole(kind) })
}
