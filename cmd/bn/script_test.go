package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/adrg/xdg"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/internal/wine"
	"github.com/binnacle-dev/bn/mcpserver"
	"github.com/binnacle-dev/bn/verify"
	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script/*.txtar")

// corpusDir holds real agent files from public repositories (each folder
// with its README and licences): claude-agents, claude-agents-2,
// claude-agents-3, copilot-agents, opencode-agents.
func corpusDir() string {
	dir, _ := filepath.Abs(filepath.Join("..", "..", "testdata", "corpus"))
	return dir
}

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"bn": func() {
			xdg.Reload() // the script's HOME and XDG_* variables, not the test binary's
			main()
		},
		"bn-mcp": func() {
			xdg.Reload()
			os.Exit(mcpserver.Main(os.Args[1:], "test"))
		},
		"bn-verify": func() {
			xdg.Reload()
			os.Exit(verify.Main(os.Args[1:], os.Stdout, os.Stderr))
		},
	})
}

// TestScripts runs the end-to-end scripts in testdata/script. Each runs in
// its own directory with HOME and the XDG directories inside it, so no
// script ever reads or writes the real home directory.
func TestScripts(t *testing.T) {
	testscript.Run(t, scriptParams(filepath.Join("testdata", "script")))
}

// TestReadmeTour runs the README's two-minute tour, as written, in a
// fresh directory with an empty home, and compares what it prints with
// the output README shows.
func TestReadmeTour(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("the tour is a POSIX shell script, and there is no sh to run it (Windows)")
	}
	tour := readmeBlock(t, "<!-- tour -->\n```sh\n", "```\n<!-- end tour -->")
	output := readmeBlock(t, "<!-- tour output -->\n```text\n", "```\n<!-- end tour output -->")
	dir := t.TempDir()
	script := "exec sh -e tour.sh\ncmp stdout output.txt\n-- tour.sh --\n" + tour + "-- output.txt --\n" + output
	if err := os.WriteFile(filepath.Join(dir, "tour.txtar"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, scriptParams(dir))
}

// TestReadmeMigration holds that testdata/script/migrate_readme.txtar
// runs README's migration as written: each bn command of its block, less
// the comment, is an exec line of the script, in the same order. The
// script itself (with real files, a hand edit and the checks) runs in
// TestScripts, on every system.
func TestReadmeMigration(t *testing.T) {
	block := readmeBlock(t, "<!-- migration -->\n```sh\n", "```\n<!-- end migration -->")
	script, err := os.ReadFile(filepath.Join("testdata", "script", "migrate_readme.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	comment := regexp.MustCompile(`\s+#\s.*$`)
	lines := strings.Split(string(script), "\n")
	n := 0
	for _, line := range strings.Split(block, "\n") {
		cmd := comment.ReplaceAllString(line, "")
		if !strings.HasPrefix(cmd, "bn ") {
			continue // git add names what export printed; not a bn step
		}
		n++
		i := slices.Index(lines, "exec "+cmd)
		if i < 0 {
			t.Fatalf("migrate_readme.txtar does not run README's %q (as exec %s), or runs it before the step above it", cmd, cmd)
		}
		lines = lines[i+1:]
	}
	if n == 0 {
		t.Fatal("README's migration block has no bn command")
	}
}

// readmeBlock is the text of README.md between start and end.
func readmeBlock(t *testing.T, start, end string) string {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), start)
	block, _, ok2 := strings.Cut(rest, end)
	if !ok || !ok2 {
		t.Fatalf("README.md has no block between %q and %q", start, end)
	}
	return block
}

func scriptParams(dir string) testscript.Params {
	return testscript.Params{
		Dir:           dir,
		UpdateScripts: *update,
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"gen":      gen,
			"parallel": parallel,
			"waitfor":  waitfor,
			"append":   appendTo,
			"replace":  replace,
			"truncate": truncate,
			"files":    listFiles,
			"status":   status,
			"pty":      ptyExec,
			"hookcall": hookCall,
			// lookpath VAR PROG sets VAR to where PROG is on the script's
			// PATH, to run it by that path under another PATH.
			"lookpath": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 2 {
					ts.Fatalf("usage: lookpath VAR PROG")
				}
				ts.Setenv(args[0], scriptProgram(ts, args[1]))
			},
			// sessionhash VAR DIR sets VAR to binnacle's session hash of DIR,
			// computed here independently of the resolver.
			"sessionhash": func(ts *testscript.TestScript, neg bool, args []string) {
				if len(args) != 2 {
					ts.Fatalf("usage: sessionhash VAR DIR")
				}
				canon, err := filepath.EvalSymlinks(ts.MkAbs(args[1]))
				ts.Check(err)
				sum := sha256.Sum256([]byte(canon))
				ts.Setenv(args[0], hex.EncodeToString(sum[:])[:12])
			},
		},
		Condition: func(cond string) (bool, error) {
			switch cond {
			case "root":
				return os.Geteuid() == 0, nil
			case "clients":
				// The real clients, installed (make test-clients-install)
				// and named in BN_CLIENTS_DIR: the scripts that run them
				// get it as $CLIENTS.
				return os.Getenv("BN_CLIENTS_DIR") != "", nil
			case "wine":
				// Under Wine, which lacks Windows behaviours a script may
				// depend on (wine.Symlinks: a symlink made is not there).
				return wine.Running(), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			home := filepath.Join(env.WorkDir, "home")
			env.Setenv("HOME", home)
			env.Setenv("XDG_CONFIG_HOME", filepath.Join(home, ".config"))
			env.Setenv("XDG_DATA_HOME", filepath.Join(home, ".local", "share"))
			env.Setenv("CORPUS", corpusDir())
			env.Setenv("CLIENTS", os.Getenv("BN_CLIENTS_DIR"))
			for _, v := range []string{"BN_CONFIG_DIR", "BN_DATA_DIR", "BN_CACHE_DIR", "BN_REPO", "BN_CONTAINER_MODE", "BN_STORAGE_HASH", "XDG_CACHE_HOME"} {
				env.Setenv(v, "")
			}
			return os.MkdirAll(home, 0o755)
		},
	}
}

// scriptProgram finds a program on the script's PATH.
func scriptProgram(ts *testscript.TestScript, name string) string {
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			return filepath.Join(dir, name)
		}
	}
	ts.Fatalf("%s not found on the script's PATH", name)
	return ""
}

// scriptEnv is the script's environment for a program a command of this
// file starts: the variables bn reads, and those that say an agent tool
// runs it.
func scriptEnv(ts *testscript.TestScript) []string {
	vars := []string{"PATH", "HOME", "TMPDIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "BN_CACHE_DIR", "BN_FORMAT"}
	for _, d := range dialect.All() {
		vars = append(vars, d.Info().AgentEnv...)
		if t := d.Info().TerminalEnv; t != "" {
			vars = append(vars, t)
		}
	}
	var env []string
	for _, v := range vars {
		if val := ts.Getenv(v); val != "" {
			env = append(env, v+"="+val)
		}
	}
	return env
}

// parallel runs N copies of a command side by side, "{i}" in its
// arguments replaced by each copy's number, and fails unless every copy
// exits 0 (or, negated, unless one fails). With -kill D, each copy is
// killed after D: what a crash at any moment leaves is for the script's
// next commands to check.
//
//	parallel [-kill D] N CMD ARGS...
func parallel(ts *testscript.TestScript, neg bool, args []string) {
	var kill time.Duration
	if len(args) > 2 && args[0] == "-kill" {
		d, err := time.ParseDuration(args[1])
		ts.Check(err)
		kill, args = d, args[2:]
	}
	if len(args) < 2 {
		ts.Fatalf("usage: parallel [-kill D] N CMD ARGS...")
	}
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	bin, env := scriptProgram(ts, args[1]), scriptEnv(ts)
	errs := make([]error, n)
	outs := make([][]byte, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			argv := slices.Clone(args[2:])
			for j := range argv {
				argv[j] = strings.ReplaceAll(argv[j], "{i}", strconv.Itoa(i))
			}
			cmd := exec.Command(bin, argv...)
			cmd.Dir, cmd.Env = ts.MkAbs("."), env
			if kill > 0 {
				ts.Check(cmd.Start())
				t := time.AfterFunc(kill, func() { _ = cmd.Process.Kill() })
				_ = cmd.Wait()
				t.Stop()
				return
			}
			outs[i], errs[i] = cmd.CombinedOutput()
		})
	}
	wg.Wait()
	if kill > 0 {
		return
	}
	failed := 0
	for i, err := range errs {
		if err != nil {
			failed++
			if !neg {
				ts.Logf("copy %d: %v\n%s", i, err, outs[i])
			}
		}
	}
	if failed > 0 && !neg {
		ts.Fatalf("%d of %d copies failed", failed, n)
	}
	if failed == 0 && neg {
		ts.Fatalf("all %d copies succeeded", n)
	}
}

// waitfor waits, up to a minute, until FILE exists and its content
// matches REGEXP: for what a command in the background writes.
//
//	waitfor FILE REGEXP
func waitfor(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waitfor FILE REGEXP")
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	var data []byte
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if data, err = os.ReadFile(ts.MkAbs(args[0])); err == nil && re.Match(data) {
			return
		}
	}
	ts.Fatalf("%s does not match %q after a minute: %v\n%s", args[0], args[1], err, data)
}

// appendTo appends to FILE, as a shell's >> does, without a shell
// (which Windows does not have): TEXT and a newline, or with -f the
// contents of file SRC.
//
//	append FILE TEXT
//	append -f SRC FILE
func appendTo(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 || len(args) > 3 || (len(args) == 3) != (args[0] == "-f") {
		ts.Fatalf("usage: append FILE TEXT | append -f SRC FILE")
	}
	file, data := args[0], []byte(args[1]+"\n")
	if args[0] == "-f" {
		file = args[2]
		var err error
		data, err = os.ReadFile(ts.MkAbs(args[1]))
		ts.Check(err)
	}
	f, err := os.OpenFile(ts.MkAbs(file), os.O_WRONLY|os.O_APPEND, 0)
	ts.Check(err)
	_, err = f.Write(data)
	ts.Check(errors.Join(err, f.Close()))
}

// truncate cuts FILE to its first SIZE bytes, as head -c SIZE would:
// a file caught half-written.
//
//	truncate SIZE FILE
func truncate(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: truncate SIZE FILE")
	}
	size, err := strconv.ParseInt(args[0], 10, 64)
	ts.Check(err)
	ts.Check(os.Truncate(ts.MkAbs(args[1]), size))
}

// replace replaces every OLD in FILE with NEW (literal text), as a
// sed s/OLD/NEW/ would, and fails when FILE holds no OLD.
//
//	replace OLD NEW FILE
func replace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace OLD NEW FILE")
	}
	path := ts.MkAbs(args[2])
	data, err := os.ReadFile(path)
	ts.Check(err)
	if !strings.Contains(string(data), args[0]) {
		ts.Fatalf("%s holds no %q", args[2], args[0])
	}
	ts.Check(os.WriteFile(path, []byte(strings.ReplaceAll(string(data), args[0], args[1])), 0o644))
}

// hookCall writes FILE, the input a tool gives bn's hook for a call of
// TOOL with the shell command COMMAND in the script's current directory
// (the input's cwd), with any KEY=VALUE fields added: the directory,
// whatever its separators, written as JSON writes it.
//
//	hookcall FILE TOOL COMMAND [KEY=VALUE...]
func hookCall(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: hookcall FILE TOOL COMMAND [KEY=VALUE...]")
	}
	call := map[string]any{"hook_event_name": "PreToolUse", "tool_name": args[1], "cwd": ts.MkAbs("."),
		"tool_input": map[string]string{"command": args[2]}}
	for _, kv := range args[3:] {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			ts.Fatalf("hookcall: %q is not KEY=VALUE", kv)
		}
		call[k] = v
	}
	data, err := json.Marshal(call)
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), append(data, '\n'), 0o644))
}

// listFiles prints the regular files under each DIR, one a line, with
// forward slashes, sorted: find DIR... -type f | sort, on every system.
//
//	files DIR...
func listFiles(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: files DIR...")
	}
	var out []string
	for _, dir := range args {
		ts.Check(filepath.WalkDir(ts.MkAbs(dir), func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Type().IsRegular() {
				rel, err := filepath.Rel(ts.MkAbs("."), path)
				if err != nil {
					return err
				}
				out = append(out, filepath.ToSlash(rel))
			}
			return err
		}))
	}
	slices.Sort(out)
	_, _ = fmt.Fprint(ts.Stdout(), strings.Join(out, "\n")+"\n")
}

// status runs PROG from the script's PATH and fails unless it exits
// with status N: what sh -c 'PROG; echo $?' checks, on every system.
// Its output is the command's, for stdout and stderr below.
//
//	status N PROG ARGS...
func status(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: status N PROG ARGS...")
	}
	want, err := strconv.Atoi(args[0])
	ts.Check(err)
	cmd := exec.Command(scriptProgram(ts, args[1]), args[2:]...)
	cmd.Dir, cmd.Env = ts.MkAbs("."), scriptEnv(ts)
	cmd.Stdout, cmd.Stderr = ts.Stdout(), ts.Stderr()
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case errors.As(err, &exit) && exit.ExitCode() == want:
	case err == nil && want == 0:
	default:
		ts.Fatalf("%s exited with %v, not status %d", args[1], err, want)
	}
}

// gen writes inputs too large or too binary for a txtar archive:
//
//	gen agents FILE N     a KDL 2.0 config.kdl of N agents
//	gen line FILE N       a config.kdl whose agent's description is one line of N bytes
//	gen described FILE N  a Claude agent (long) whose description is one line of N bytes
//	gen bytes FILE TEXT   TEXT with Go escapes (\x00, \xff, \r) decoded
//	gen claude DIR N      N directories DIR/0… of three Claude agents each
//	gen deep FILE N       a config.kdl whose children nest N deep
//	gen nodes FILE N      a config.kdl of one agent, then N commented-out nodes /-n; on one line
//	gen unknown FILE N    a config.kdl of N top-level nodes bn does not know
//	gen unknown-fields FILE N  a config.kdl of one agent giving a field N times
//	gen tags FILE N       a config.kdl whose agent has N tags on one line
//	gen tags1 FILE N      the same in KDL 1.0
//	gen flow FILE N       a Claude agent whose frontmatter nests N [ deep
//	gen placeholders FILE N  a prompt of N {description} placeholders
//	gen appends FILE N    a config.kdl of agents a0…a3, each extending the one before with a prompt-append of N bytes
func gen(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: gen agents|models|line|described|claude|deep|nodes|unknown|unknown-fields|tags|tags1|flow|keys|rawhashes|arith|subshells|text|bytes|placeholders|appends FILE ARG")
	}
	var b strings.Builder
	switch args[0] {
	case "agents":
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		for i := range n {
			fmt.Fprintf(&b, "agent a%d {\n    description \"Agent %d\"\n    tools {\n        allow read \"shell(git:*)\"\n    }\n    prompt \"p\"\n}\n", i, i)
		}
	case "models": // N agents, each with a model of its own that bn's catalog does not know
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		for i := range n {
			fmt.Fprintf(&b, "agent m%d {\n    description \"Agent %d\"\n    model m%d\n    prompt \"p\"\n}\n", i, i, i)
		}
	case "line", "described":
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		format := "agent long {\n    description \"%s\"\n    prompt \"p\"\n}\n"
		if args[0] == "described" {
			format = "---\nname: long\ndescription: %s\n---\nBody.\n"
		}
		fmt.Fprintf(&b, format, strings.Repeat("x", n))
	case "claude":
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		for i := range n {
			dir := ts.MkAbs(filepath.Join(args[1], strconv.Itoa(i)))
			ts.Check(os.MkdirAll(dir, 0o755))
			for _, k := range []string{"a", "b", "c"} {
				name := fmt.Sprintf("%s%d", k, i)
				agent := fmt.Sprintf("---\nname: %s\ndescription: Agent %s\ntools: Read, Grep\n---\nYou are %s.\n", name, name, name)
				ts.Check(os.WriteFile(filepath.Join(dir, name+".md"), []byte(agent), 0o644))
			}
		}
		return
	case "deep":
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		fmt.Fprintf(&b, "agent ok {\n    description \"Fine\"\n    prompt \"p\"\n}\nagent deep %s%s\n", strings.Repeat("{ n ", n), strings.Repeat("}", n))
	case "unknown":
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		b.WriteString(strings.Repeat("n\n", n))
	case "unknown-fields": // an agent node of N unknown fields
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		fmt.Fprintf(&b, "agent a {\n    description \"A\"\n    prompt \"p\"\n%s}\n", strings.Repeat("    n\n", n))
	case "nodes":
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		fmt.Fprintf(&b, "agent ok {\n    description \"Fine\"\n    prompt \"p\"\n}\n%s\n", strings.Repeat("/-n;", n))
	case "tags", "tags1":
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		if args[0] == "tags1" {
			b.WriteString("/- kdl-version 1\n")
		}
		b.WriteString("agent tagged {\n    description \"Tagged\"\n    prompt \"p\"\n    tags")
		for i := range n {
			fmt.Fprintf(&b, " \"t%d\"", i)
		}
		b.WriteString("\n}\n")
	case "flow":
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		fmt.Fprintf(&b, "---\nname: nested\ndescription: Nested\ntools: %s%s\n---\nBody.\n", strings.Repeat("[", n), strings.Repeat("]", n))
	case "keys": // an agent file whose frontmatter holds N keys
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		b.WriteString("---\nname: wide\ndescription: Wide\n")
		for i := range n {
			fmt.Fprintf(&b, "k%d: 1\n", i)
		}
		b.WriteString("---\nBody.\n")
	case "rawhashes": // a KDL 1.0 raw string opened by r and N hashes, never closed
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		fmt.Fprintf(&b, "agent a {\n    description \"d\"\n    prompt r%s\n}\n", strings.Repeat("#", n))
	case "arith", "subshells": // a Claude Code Bash hook call: echo $(( 1+1+… )) of N terms, or echo in N subshells
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		line := "echo $(( " + strings.Repeat("1+", n) + "1 ))"
		if args[0] == "subshells" {
			line = strings.Repeat("( ", n) + "echo" + strings.Repeat(" )", n)
		}
		fmt.Fprintf(&b, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":%q}}`, line)
	case "text": // N bytes of prose, in lines
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		line := "Read the diff and say what it breaks.\n"
		b.WriteString(strings.Repeat(line, n/len(line)+1)[:n])
	case "placeholders":
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		b.WriteString(strings.Repeat("{description}", n) + "\n")
	case "appends":
		n, err := strconv.Atoi(args[2])
		ts.Check(err)
		b.WriteString("agent a0 {\n    description d\n    prompt p\n}\n")
		for i := 1; i <= 3; i++ {
			fmt.Fprintf(&b, "agent a%d {\n    extends a%d\n    prompt-append %q\n}\n", i, i-1, strings.Repeat("x", n))
		}
	case "bytes":
		text, err := strconv.Unquote(`"` + strings.ReplaceAll(args[2], `"`, `\"`) + `"`)
		ts.Check(err)
		b.WriteString(text)
	default:
		ts.Fatalf("gen: unknown kind %q", args[0])
	}
	path := ts.MkAbs(args[1])
	ts.Check(os.MkdirAll(filepath.Dir(path), 0o755))
	ts.Check(os.WriteFile(path, []byte(b.String()), 0o644))
}
