package agents

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// SimpleCommands splits a shell command line into the simple commands it
// runs, each as its source text with spaces normalised: those joined by
// ;, &&, ||, | or &, in subshells, blocks, conditions and loops, and
// inside command and process substitutions (whose text also stays in the
// command around them), with their redirections. A pattern that allows "git diff:*" must not allow
// "git diff && rm -rf ~": each simple command is decided on its own.
// Declarations (export, declare, local) and assignments without a command
// count as commands: they change what later commands run. An error means
// the line does not parse as a shell program; callers treat it as one
// command no argument pattern covers.
//
// A line nested deeper than maxShellDepth is an error before it is
// parsed: each nested command is printed whole, so depth costs time as
// its square, and a hook that times out must not be what lets a call
// through.
func SimpleCommands(line string) ([]string, error) {
	if d := nesting(line); d > maxShellDepth {
		return nil, fmt.Errorf("not a shell command line bn decides: nested %d deep (at most %d)", d, maxShellDepth)
	}
	f, err := syntax.NewParser(syntax.KeepComments(false), syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(line), "")
	if err != nil {
		return nil, fmt.Errorf("not a shell command line: %w", err)
	}
	var out []string
	printer := syntax.NewPrinter(syntax.Minify(false))
	add := func(n syntax.Node) {
		var b strings.Builder
		if printer.Print(&b, n) == nil {
			if s := normalizeSpaces(b.String()); s != "" {
				out = append(out, s)
			}
		}
	}
	inStmt := map[syntax.Command]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch x := n.(type) {
		case *syntax.Stmt:
			switch x.Cmd.(type) {
			case *syntax.CallExpr, *syntax.DeclClause:
				// With its redirections: "cat a > b" writes b.
				one := &syntax.Stmt{Cmd: x.Cmd, Redirs: x.Redirs}
				add(one)
				inStmt[x.Cmd] = true
			}
		case *syntax.CallExpr:
			if !inStmt[x] {
				add(x)
			}
		case *syntax.DeclClause:
			if !inStmt[x] {
				add(x)
			}
		case *syntax.TestClause, *syntax.ArithmCmd, *syntax.LetClause:
			add(x) // [[ ]], (( )), let: evaluated expressions, decided as commands
		}
		return true
	})
	return out, nil
}

// maxShellDepth bounds how deep a shell line bn decides may nest.
const maxShellDepth = 64

// nesting is how deep brackets and backquotes nest in s, counting those
// inside quotes too: an overestimate is only ever a line left undecided.
func nesting(s string) int {
	depth, deepest, inBackquote := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '{':
			depth++
		case ')', '}':
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
