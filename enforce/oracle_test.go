package enforce

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"mvdan.cc/sh/v3/syntax"
)

// The differential oracle: every line the engine allows is run in real
// bash and zsh, where every program is a recorder and every command the
// shell runs is traced, and the run is held to the agent's rules with a
// matcher of its own: nothing may run that a pattern does not allow (or,
// under a shell allowed whole, that a deny names), and no file may be
// written that the rules do not allow.

type oracleRun struct {
	ID    int
	Shell string // bash or zsh
	Eval  bool   // run through eval, as Claude Code does
	Exit  int    // what every recorded program exits with
	Line  string
	Dir   string
	Home  string
}

type oracleExec struct {
	Path string   `json:"path"`
	Argv []string `json:"argv"`
}

type oracleFile struct {
	Path    string
	New     bool
	Deleted bool
}

type oracleResult struct {
	ID      int
	Execs   []oracleExec
	Trace   []string
	Files   []oracleFile
	Timeout bool
	Err     string
}

// oracleTree makes the repository lines run in: src/a.go, out/, .env,
// a symlink out of the repository and one to the home's .bashrc.
func oracleTree(t testing.TB) (root, home string) {
	dir := t.TempDir()
	root, home = filepath.Join(dir, "repo"), filepath.Join(dir, "home")
	for _, d := range []string{filepath.Join(root, "src", "sub"), filepath.Join(root, "out"), home, filepath.Join(dir, "outside")} {
		require.NoError(t, os.MkdirAll(d, 0o755))
	}
	for _, f := range []string{filepath.Join(root, "src", "a.go"), filepath.Join(root, ".env"), filepath.Join(home, ".bashrc"), filepath.Join(root, "list")} {
		require.NoError(t, os.WriteFile(f, []byte("x\n"), 0o644))
	}
	require.NoError(t, os.Symlink(filepath.Join(dir, "outside"), filepath.Join(root, "src", "link")))
	require.NoError(t, os.Symlink(filepath.Join(home, ".bashrc"), filepath.Join(root, "src", "rc")))
	return root, home
}

// oracleLine is one line decided for one agent.
type oracleLine struct {
	agent oracleAgent
	line  string
}

// oracleCheck runs the allowed lines with the recorder rec and returns
// every violation.
func oracleCheck(t *testing.T, rec, root, home string, lines []oracleLine) []string {
	var runs []oracleRun
	for i, l := range lines {
		for j, sh := range []string{"bash", "zsh"} {
			runs = append(runs, oracleRun{ID: len(runs), Shell: sh, Eval: (i+j)%2 == 1, Exit: (i / 2) % 2, Line: l.line, Dir: root, Home: home})
		}
	}
	results := runOracle(t, rec, runs)
	var bad []string
	for _, res := range results {
		r := runs[res.ID]
		l := lines[res.ID/2]
		if res.Err != "" {
			t.Fatalf("the sandbox could not run %q: %s", r.Line, res.Err)
		}
		for _, v := range violations(l.agent.tools, root, r, res) {
			bad = append(bad, fmt.Sprintf("%s, %s%s, %q: %s", l.agent.name, r.Shell, map[bool]string{true: " (eval)"}[r.Eval], r.Line, v))
		}
	}
	return bad
}

// violations holds one run to the rules, with a matcher of the oracle's
// own.
func violations(tools agents.Tools, root string, r oracleRun, res oracleResult) []string {
	allow, deny, whole := shellRules(tools)
	var out []string
	ran := func(what string, words []string) {
		if len(words) == 0 {
			return
		}
		words = slices.Clone(words)
		name := strings.ToLower(filepath.Base(words[0]))
		for _, d := range deny {
			if naiveMatch(d, append([]string{name}, lowered(words[1:])...)) {
				out = append(out, fmt.Sprintf("%s %q, which deny %q names", what, strings.Join(words, " "), d))
			}
		}
		if whole {
			return
		}
		words[0] = filepath.Base(words[0])
		// git --no-pager diff is git diff, as patterns read it.
		for words[0] == "git" && len(words) > 2 && (words[1] == "--no-pager" || words[1] == "-P" || words[1] == "-C") {
			n := 1
			if words[1] == "-C" {
				n = 2
			}
			words = append(words[:1], words[1+n:]...)
		}
		if !slices.ContainsFunc(allow, func(p string) bool { return naiveMatch(p, words) }) {
			out = append(out, fmt.Sprintf("%s %q, which no allow pattern names", what, strings.Join(words, " ")))
		}
	}
	for _, e := range res.Execs {
		ran("ran", append([]string{e.Path}, e.Argv[1:]...))
		for _, inner := range runsInside(e.Argv) {
			ran("ran, through "+filepath.Base(e.Path)+",", inner)
		}
		for _, f := range writesOf(e.Argv) {
			// A program's own writes are held under patterns; under a
			// shell allowed whole they are its risk, reported advisory.
			if !whole && !naiveWrite(tools, root, r.Dir, f, true) {
				out = append(out, fmt.Sprintf("%s wrote %s, which the rules do not allow", filepath.Base(e.Path), f))
			}
		}
	}
	skip := r.Eval // the eval that runs the line
	for _, tr := range res.Trace {
		if skip {
			skip = false
			continue
		}
		if r.Shell == "zsh" && leadingAssignment.MatchString(tr) {
			// zsh traces assignments (a loop's among them) unquoted: the
			// value cannot be told from a command after it. What such a
			// command runs is traced or recorded on its own.
			continue
		}
		words := traceWords(tr)
		if len(words) == 0 || slices.Contains([]string{"for", "case", "select"}, words[0]) ||
			!whole && slices.Contains(builtins, words[0]) {
			continue
		}
		ran("the shell ran", words)
	}
	for _, f := range res.Files {
		if f.Deleted {
			out = append(out, "deleted "+f.Path)
			continue
		}
		if !naiveWrite(tools, root, r.Dir, f.Path, f.New) {
			out = append(out, fmt.Sprintf("wrote %s, which the rules do not allow", f.Path))
		}
	}
	if res.Timeout {
		out = append(out, "did not finish in 5 seconds")
	}
	return out
}

func lowered(ws []string) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = strings.ToLower(w)
	}
	return out
}

// shellRules are the arguments of the shell allow and deny rules, and
// whether the shell is allowed whole.
func shellRules(tools agents.Tools) (allow, deny []string, whole bool) {
	whole = tools.All
	for _, list := range []struct {
		rules []string
		into  *[]string
	}{{tools.Allow, &allow}, {tools.Deny, &deny}} {
		for _, s := range list.rules {
			p, _ := agents.ParseToolPattern(s)
			if !slices.Contains(agents.KindsOf(p.Kind), agents.KindShell) {
				continue
			}
			arg := "*"
			if p.HasArg {
				arg = p.Arg
			}
			if arg == "*" && list.into == &allow {
				whole = true
			}
			*list.into = append(*list.into, arg)
		}
	}
	return allow, deny, whole
}

// naiveMatch: a pattern's words start the command's words ("git diff"
// and "git diff:*" alike), or a pattern with '*' matches the words
// joined by spaces.
func naiveMatch(pattern string, words []string) bool {
	p := strings.Join(strings.Fields(pattern), " ")
	if stem, ok := strings.CutSuffix(p, ":*"); ok {
		p = stem
		if strings.Contains(stem, "*") {
			p = stem + "*"
		}
	}
	if strings.Contains(p, "*") {
		return agents.MatchWildcard(p, strings.Join(words, " "))
	}
	fields := strings.Fields(p)
	return len(words) >= len(fields) && slices.Equal(words[:len(fields)], fields)
}

// runsInside are the commands a recorded program would have run: the
// runners', find's -exec, sh -c's line.
func runsInside(argv []string) [][]string {
	name := filepath.Base(argv[0])
	args := argv[1:]
	skipOpts := func(a []string, valued string) []string {
		for len(a) > 0 && strings.HasPrefix(a[0], "-") && a[0] != "-" {
			if a[0] == "--" {
				return a[1:]
			}
			if len(a[0]) == 2 && strings.Contains(valued, a[0][1:]) {
				a = a[1:]
			}
			a = a[1:]
		}
		return a
	}
	switch name {
	case "env":
		a := skipOpts(args, "uCS")
		for len(a) > 0 && strings.Contains(a[0], "=") {
			a = a[1:]
		}
		return [][]string{a}
	case "timeout":
		if a := skipOpts(args, "sk"); len(a) > 1 {
			return [][]string{a[1:]}
		}
	case "nice", "nohup", "stdbuf", "setsid", "sudo", "xargs", "time", "busybox", "noglob", "command", "builtin", "exec":
		return [][]string{skipOpts(args, "nioeuIaLPsdE")}
	case "find":
		var out [][]string
		for i, a := range args {
			if a == "-exec" || a == "-execdir" || a == "-ok" || a == "-okdir" {
				j := i + 1
				for j < len(args) && args[j] != ";" && args[j] != "+" {
					j++
				}
				out = append(out, args[i+1:j])
			}
		}
		return out
	case "sh", "bash", "zsh", "dash":
		for i, a := range args {
			if strings.HasPrefix(a, "-") && strings.Contains(a, "c") && i+1 < len(args) {
				return lineCommands(args[i+1])
			}
		}
	}
	return nil
}

// lineCommands are the simple commands of a line, as words (those it
// can read).
func lineCommands(line string) [][]string {
	f, err := syntax.NewParser().Parse(strings.NewReader(line), "")
	if err != nil {
		return [][]string{{"sh", "-c", line}}
	}
	var out [][]string
	syntax.Walk(f, func(n syntax.Node) bool {
		if c, ok := n.(*syntax.CallExpr); ok && len(c.Args) > 0 {
			var ws []string
			for _, a := range c.Args {
				ws = append(ws, a.Lit())
			}
			out = append(out, ws)
		}
		return true
	})
	return out
}

// writesOf are the files a recorded program would have written through
// its arguments.
func writesOf(argv []string) []string {
	var out []string
	name := filepath.Base(argv[0])
	for i, a := range argv[1:] {
		next := ""
		if i+2 < len(argv) {
			next = argv[i+2]
		}
		switch {
		case name == "git" && strings.HasPrefix(a, "--output="):
			out = append(out, strings.TrimPrefix(a, "--output="))
		case name == "git" && a == "--output", name == "sort" && a == "-o", name == "find" && strings.HasPrefix(a, "-fprint"):
			out = append(out, next)
		case name == "tee" && !strings.HasPrefix(a, "-"):
			out = append(out, a)
		}
	}
	return out
}

// naiveWrite: the rules allow writing path (absolute, or relative to
// dir), a new file or not; path rules are relative to root.
func naiveWrite(tools agents.Tools, root, dir, path string, isNew bool) bool {
	if path == "" || path == "-" || strings.HasPrefix(path, "/dev/") && !strings.HasPrefix(path, "/dev/shm") {
		return path != "" && strings.HasPrefix(path, "/dev/") || path == "-"
	}
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	rel, err := filepath.Rel(root, path)
	inRepo := err == nil && !strings.HasPrefix(rel, "..")
	matches := func(s string, k agents.Kind) bool {
		p, _ := agents.ParseToolPattern(s)
		if !slices.Contains(agents.KindsOf(p.Kind), k) {
			return false
		}
		if !p.HasArg || p.Arg == "*" {
			return true
		}
		return inRepo && agents.MatchWildcard(p.Arg, filepath.ToSlash(rel))
	}
	may := func(k agents.Kind) bool {
		return !slices.ContainsFunc(tools.Deny, func(d string) bool { return matches(d, k) }) &&
			(tools.All || slices.ContainsFunc(tools.Allow, func(a string) bool { return matches(a, k) }))
	}
	// A new file is a create; a changed one an edit, or an overwrite
	// (a create) — the oracle cannot tell which, and takes either.
	return may(agents.KindCreate) || !isNew && may(agents.KindEdit)
}

var leadingAssignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=`)

// traceWords reads a traced command's words, its assignments left out.
func traceWords(tr string) []string {
	var ws []string
	f, err := syntax.NewParser().Parse(strings.NewReader(tr), "")
	if err == nil && len(f.Stmts) > 0 {
		if c, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok {
			for _, a := range c.Args {
				ws = append(ws, unquoteWord(a))
			}
			return ws
		}
	}
	for _, w := range strings.Fields(tr) {
		if len(ws) == 0 && strings.Contains(w, "=") && !strings.HasPrefix(w, "=") {
			continue
		}
		ws = append(ws, w)
	}
	return ws
}

func unquoteWord(w *syntax.Word) string {
	var b strings.Builder
	for _, p := range w.Parts {
		switch x := p.(type) {
		case *syntax.Lit:
			b.WriteString(strings.ReplaceAll(x.Value, `\`, ""))
		case *syntax.SglQuoted:
			if v, ok := ansiC(x.Value); x.Dollar && ok {
				b.WriteString(v)
			} else {
				b.WriteString(x.Value)
			}
		case *syntax.DblQuoted:
			for _, q := range x.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				}
			}
		}
	}
	return b.String()
}

// oracleLines generates n lines per agent from seed, and decides them.
func oracleLines(root, home string, n int, seed uint64) (allowed []oracleLine, total int) {
	for ai, a := range oracleAgents {
		g := newGen(nil, seed+uint64(ai), a)
		for range n {
			line := g.line()
			total++
			d := Decide(a.tools, shellUse(line), Context{Root: root, Home: home})
			if d.Allowed {
				allowed = append(allowed, oracleLine{a, line})
			}
		}
	}
	return allowed, total
}

// TestOracle: lines from the grammar, for every shape of rules; every
// line the engine allows runs only what its rules allow.
func TestOracle(t *testing.T) {
	if testing.Short() {
		t.Skip("the oracle runs shells")
	}
	rec := buildRecorder(t)
	root, home := oracleTree(t)
	lines, total := oracleLines(root, home, 400, 1)
	bad := oracleCheck(t, rec, root, home, lines)
	t.Logf("oracle: %d lines generated, %d allowed, %d runs in bash and zsh, %d violations", total, len(lines), 2*len(lines), len(bad))
	for _, b := range bad {
		t.Error(b)
	}
}

// FuzzShellLine steers the line generator with the fuzzer's bytes, for
// one agent of every shape: the engine never fails to answer, and (when
// fuzzing, where the sandbox runs) a line it allows runs only what the
// rules allow. TestFuzzCorpus runs the kept corpus through the oracle in
// one batch.
func FuzzShellLine(f *testing.F) {
	for i := range oracleAgents {
		f.Add([]byte{0, 1, 2, 3}, uint8(i))
	}
	root, home := oracleTree(f)
	fuzzing := flag.Lookup("test.fuzz") != nil && flag.Lookup("test.fuzz").Value.String() != ""
	rec := ""
	if fuzzing {
		rec = buildRecorder(f)
	}
	f.Fuzz(func(t *testing.T, data []byte, agent uint8) {
		a := oracleAgents[int(agent)%len(oracleAgents)]
		line := newGen(data, 1, a).line()
		d := Decide(a.tools, shellUse(line), Context{Root: root, Home: home})
		if d.Reason == "" {
			t.Fatalf("%s: %q decided with no reason", a.name, line)
		}
		if d.Allowed && fuzzing {
			for _, b := range oracleCheck(t, rec, root, home, []oracleLine{{a, line}}) {
				t.Error(b)
			}
		}
	})
}

// TestFuzzCorpus runs the lines of FuzzShellLine's kept corpus that the
// engine allows through the oracle.
func TestFuzzCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("the oracle runs shells")
	}
	rec := buildRecorder(t)
	root, home := oracleTree(t)
	files, err := filepath.Glob("testdata/fuzz/FuzzShellLine/*")
	require.NoError(t, err)
	var allowed []oracleLine
	for _, file := range files {
		data, agent := readFuzzEntry(t, file)
		a := oracleAgents[int(agent)%len(oracleAgents)]
		line := newGen(data, 1, a).line()
		if Decide(a.tools, shellUse(line), Context{Root: root, Home: home}).Allowed {
			allowed = append(allowed, oracleLine{a, line})
		}
	}
	t.Logf("fuzz corpus: %d entries, %d lines allowed", len(files), len(allowed))
	for _, b := range oracleCheck(t, rec, root, home, allowed) {
		t.Error(b)
	}
}

// readFuzzEntry reads a corpus file of FuzzShellLine: a []byte and a
// byte, in the fuzzer's format.
func readFuzzEntry(t *testing.T, file string) ([]byte, uint8) {
	data, err := os.ReadFile(file)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	require.Len(t, lines, 3, file)
	b, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[1], "[]byte("), ")"))
	require.NoError(t, err, file)
	c, err := strconv.Unquote(strings.TrimSuffix(strings.TrimPrefix(lines[2], "byte("), ")"))
	require.NoError(t, err, file)
	return []byte(b), c[0]
}

// TestOracleSeesZshMath: the oracle sees what zsh's arithmetic runs in
// printf's numeric arguments and in repeat's, shift's and exit's
// operands (path[$(cmd)]), which the engine refuses: held to the rules
// without the engine, each line breaks them.
func TestOracleSeesZshMath(t *testing.T) {
	if testing.Short() {
		t.Skip("the oracle runs shells")
	}
	rec := buildRecorder(t)
	root, home := oracleTree(t)
	careful := oracleAgents[slices.IndexFunc(oracleAgents, func(a oracleAgent) bool { return a.name == "careful" })]
	var lines []oracleLine
	for _, line := range []string{`printf %d 'path[$(touch m)]'`, `print -f %d 'path[$(touch m)]'`, `repeat 'path[$(touch m)]' true`,
		`shift 'path[$(touch m)]'`, `exit 'path[$(touch m)]'`} {
		d := Decide(careful.tools, shellUse(line), Context{Root: root, Home: home})
		assert.False(t, d.Allowed, "%q: %s", line, d.Reason)
		lines = append(lines, oracleLine{careful, line}, oracleLine{careful, line}) // each runs in zsh once as it is, once through eval
	}
	bad := oracleCheck(t, rec, root, home, lines)
	for _, l := range lines {
		assert.True(t, slices.ContainsFunc(bad, func(b string) bool {
			return strings.Contains(b, "zsh") && strings.Contains(b, fmt.Sprintf("%q", l.line))
		}), "the oracle sees %q run touch in zsh", l.line)
	}
}
