//go:build linux

package enforce

import (
	"context"
	"math/rand"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// The sed scripts and awk programs bn allows, checked against what GNU
// sed and mawk compile them to (neither runs them: sed --debug with no
// input, sed --sandbox, mawk -W dump): scripts made at random of the
// pieces that fooled bn before, none of which may compile to a command
// that runs or writes. The pieces hold no r or R, which --sandbox
// refuses too and bn allows.

// sedRuns: GNU sed compiles the script, but not under --sandbox, which
// refuses the e, r and w commands and flags (and W and R).
func sedRuns(t testing.TB, script string) (compiles, runs bool) {
	if _, ok := compiled(t, "sed", "--debug", "-n", script, "/dev/null"); !ok {
		return false, false
	}
	_, err := compiledErr(t, "sed", "--sandbox", "--debug", "-n", script, "/dev/null")
	return true, strings.Contains(err, "disabled in sandbox mode")
}

// mawkDumpRuns says which line of mawk -W dump's listing runs a command
// or writes a file, or "": system, a print or printf redirected (-1 >,
// -2 >>, -3 |), a getline from a command (-4).
func mawkDumpRuns(listing string) string {
	lines := strings.Split(listing, "\n")
	for i, l := range lines {
		f := strings.Fields(l)
		if len(f) < 3 {
			continue
		}
		switch {
		case f[2] == "system":
			return l
		case (f[2] == "print" || f[2] == "printf" || f[2] == "getline") && i > 0:
			p := strings.Fields(lines[i-1])
			if len(p) == 4 && p[2] == "pushint" && p[3] != "-5" && strings.HasPrefix(p[3], "-") {
				return l
			}
		}
	}
	return ""
}

// compiled runs a program that only compiles what it is given.
func compiled(t testing.TB, name string, args ...string) (string, bool) {
	out, err := compiledErr(t, name, args...)
	return out, err == ""
}

// compiledErr is its output and, when it fails, its error output (or
// the error).
func compiledErr(t testing.TB, name string, args ...string) (string, string) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir = t.TempDir()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return string(out), err.Error() + ": " + stderr.String()
	}
	return string(out), ""
}

func randomText(r *rand.Rand, pieces []string, most int) string {
	var b strings.Builder
	for n := 1 + r.Intn(most); n > 0; n-- {
		b.WriteString(pieces[r.Intn(len(pieces))])
	}
	return b.String()
}

func TestSedAgainstGNUSed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs sed")
	}
	if out, ok := compiled(t, "sed", "--debug", "-n", "p", "/dev/null"); !ok || !strings.HasPrefix(out, "SED PROGRAM:") {
		t.Skip("no GNU sed with --debug")
	}
	// --sandbox tells a script that runs or writes from one that does not.
	for script, runs := range map[string]bool{`s/[/]/x/;e touch m`: true, `s/[/]/x/w f`: true, "1a x\\\ne y": false, `s/a/b/g`: false, "$!bx e y\n:x": true} {
		if ok, r := sedRuns(t, script); !ok || r != runs {
			t.Fatalf("sed %q: compiles %v, runs or writes %v", script, ok, r)
		}
	}
	// Commands whose parts are drawn from pieces that may end a regular
	// expression early or late.
	parts := []string{"x", "/", `\/`, "[/]", "[]/]", "[^]/]", "[[:alpha:]/]", "[[.].]/]", "[=/=]", "[", "]", `\`, "|", ",", ";e touch m", ";w f", "e", " ", "\n", "#"}
	commands := []string{"p", "d", "e touch m", "w f", "W f", ":a", "b a", "ta ", "a t", "i\\", "y/%/%/", "s/%/%/", "s/%/%/g", "s/%/%/e", "s/%/%/w f", "s|%|%|", `\,%,p`, "/%/p", "/%/e touch m", "1!{p}", "$!{%}"}
	seps := []string{";", "\n", " ", "}", "{"}
	part := func(r *rand.Rand) string { return randomText(r, parts, 3) }
	command := func(r *rand.Rand) string {
		c := commands[r.Intn(len(commands))]
		for strings.Contains(c, "%") {
			c = strings.Replace(c, "%", part(r), 1)
		}
		return c
	}
	r := rand.New(rand.NewSource(7))
	allowed, compiledOK := 0, 0
	for range 4000 {
		script := command(r)
		for n := r.Intn(3); n > 0; n-- {
			script += seps[r.Intn(len(seps))] + command(r)
		}
		if why, _ := sedScript(script); why != "" {
			continue
		}
		allowed++
		ok, runs := sedRuns(t, script)
		if !ok {
			continue
		}
		compiledOK++
		if runs {
			t.Errorf("bn allows the sed script %q, which GNU sed compiles to a command that runs or writes", script)
		}
	}
	t.Logf("sed: %d scripts allowed, %d of them compiled by GNU sed", allowed, compiledOK)
}

func TestAwkAgainstMawk(t *testing.T) {
	if testing.Short() {
		t.Skip("runs mawk")
	}
	if _, ok := compiled(t, "mawk", "-W", "dump", "BEGIN{}"); !ok {
		t.Skip("no mawk")
	}
	for prog, runs := range map[string]bool{`BEGIN { a = 1 + /"/ ; system("true") ; b = "x" }`: true, `{print > "f"}`: true, `{print $1/2}`: false, `"c" | getline`: true, `{getline < "f"}`: false} {
		out, ok := compiled(t, "mawk", "-W", "dump", prog)
		if !ok || (mawkDumpRuns(out) != "") != runs {
			t.Fatalf("mawk -W dump %q: %q", prog, out)
		}
	}
	// A "/" after each kind of token, a regular expression or a division
	// whose text may hide a statement that runs or writes.
	before := []string{"1 +", "1 -", "1 *", "1 <", "!", "1 ~", "(", "a,", "1 &&", "a++", "a--", "a", "1", ")", "]", "$1", `"s"`, "print", "return", "in", "getline", ";", "{"}
	inside := []string{`"`, "[/]", "[]/]", `\/`, "x", " ", "/", "#", "|", `"; system("true"); b = "`, "; print 1 | \"cat\"; b = ", `; print 1 > "f"; b = `, "; system(\"true\"); b = 1 "}
	after := []string{`; b = "x"`, "; b = 1 /", `; b = "/"`, "/", "", `; system("true"); b = "x"`, `; print 1 | "cat"; b = "/"`, `; print 1 > "f"; b = 1 /`}
	r := rand.New(rand.NewSource(7))
	allowed, compiledOK := 0, 0
	for range 4000 {
		prog := "BEGIN { a = " + before[r.Intn(len(before))] + " /" + randomText(r, inside, 3) + "/ " + after[r.Intn(len(after))] + " }"
		if awkProgram(prog) != "" {
			continue
		}
		allowed++
		out, ok := compiled(t, "mawk", "-W", "dump", prog)
		if !ok {
			continue
		}
		compiledOK++
		if l := mawkDumpRuns(out); l != "" {
			t.Errorf("bn allows the awk program %q, which mawk compiles to %q", prog, l)
		}
	}
	t.Logf("awk: %d programs allowed, %d of them compiled by mawk", allowed, compiledOK)
}

// FuzzSedScript: a sed script bn allows compiles, in GNU sed, to nothing
// that runs or writes.
func FuzzSedScript(f *testing.F) {
	for _, s := range []string{`s/[/]/x/;e touch m`, `s/[]/]/x/w f`, ":a e touch m", "a x\\\\\ne touch m", `\,[,],p`, `y/a/b/`} {
		f.Add(s)
	}
	if _, ok := compiled(f, "sed", "--sandbox", "--debug", "-n", "p", "/dev/null"); !ok {
		f.Skip("no GNU sed with --debug and --sandbox")
	}
	f.Fuzz(func(t *testing.T, script string) {
		if why, _ := sedScript(script); strings.ContainsAny(script, "rR") || why != "" {
			return
		}
		if _, runs := sedRuns(t, script); runs {
			t.Errorf("bn allows the sed script %q, which GNU sed compiles to a command that runs or writes", script)
		}
	})
}

// FuzzAwkProgram: an awk program bn allows compiles, in mawk, to nothing
// that runs or writes.
func FuzzAwkProgram(f *testing.F) {
	for _, s := range []string{`BEGIN { a = 1 + /"/ ; system("true") ; b = "x" }`, `BEGIN { a++ / 1; print 1 | "cat"; b = 1 / 1 }`, `{print $1/2}`, `$0 ~ /[/]/`} {
		f.Add(s)
	}
	if _, ok := compiled(f, "mawk", "-W", "dump", "BEGIN{}"); !ok {
		f.Skip("no mawk")
	}
	f.Fuzz(func(t *testing.T, prog string) {
		if awkProgram(prog) != "" {
			return
		}
		if out, ok := compiled(t, "mawk", "-W", "dump", prog); ok {
			if l := mawkDumpRuns(out); l != "" {
				t.Errorf("bn allows the awk program %q, which mawk compiles to %q", prog, l)
			}
		}
	})
}
