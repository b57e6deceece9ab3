package enforce

import (
	"fmt"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// sameInShells says how the other shells of the context would read the
// line differently from bash, or "" when they read it alike: each parses
// it to the same tree (bn decided bash's).
func (e *engine) sameInShells(line string, bash *syntax.File) string {
	var want string
	for _, sh := range e.ctx.Shells {
		var lang syntax.LangVariant
		switch sh {
		case Zsh:
			lang = syntax.LangZsh
		case POSIX:
			lang = syntax.LangPOSIX
		default:
			continue
		}
		f, err := parse(line, lang)
		if err != nil {
			return fmt.Sprintf("%s does not read the line as bash does (%v)", sh, err)
		}
		if want == "" {
			want = fingerprint(bash)
		}
		if fingerprint(f) != want {
			return fmt.Sprintf("%s reads the line differently from bash", sh)
		}
	}
	return ""
}

// fingerprint writes a parsed line's shape and words, without
// positions. The trees compared were bounded by the walk of bash's.
func fingerprint(f *syntax.File) string {
	var b strings.Builder
	syntax.Walk(f, func(n syntax.Node) bool {
		if n == nil {
			b.WriteByte(')')
			return true
		}
		fmt.Fprintf(&b, "(%T", n)
		switch x := n.(type) {
		case *syntax.Lit:
			fmt.Fprintf(&b, " %q", x.Value)
		case *syntax.SglQuoted:
			fmt.Fprintf(&b, " %v %q", x.Dollar, x.Value)
		case *syntax.DblQuoted:
			fmt.Fprintf(&b, " %v", x.Dollar)
		case *syntax.Stmt:
			fmt.Fprintf(&b, " %v%v%v%v", x.Negated, x.Background, x.Coprocess, x.Disown)
		case *syntax.BinaryCmd:
			fmt.Fprintf(&b, " %v", x.Op)
		case *syntax.Redirect:
			fmt.Fprintf(&b, " %v", x.Op)
		case *syntax.ParamExp:
			fmt.Fprintf(&b, " %v%v%v%v%v%v%v %v", x.Short, x.Excl, x.Length, x.Width, x.IsSet, x.Split, x.GlobSubst, x.Names)
			if x.Exp != nil {
				fmt.Fprintf(&b, " %v", x.Exp.Op)
			}
		case *syntax.ArithmExp:
			fmt.Fprintf(&b, " %v", x.Bracket)
		case *syntax.BinaryArithm:
			fmt.Fprintf(&b, " %v", x.Op)
		case *syntax.UnaryArithm:
			fmt.Fprintf(&b, " %v %v", x.Op, x.Post)
		case *syntax.BinaryTest:
			fmt.Fprintf(&b, " %v", x.Op)
		case *syntax.UnaryTest:
			fmt.Fprintf(&b, " %v", x.Op)
		case *syntax.CaseItem:
			fmt.Fprintf(&b, " %v", x.Op)
		case *syntax.ProcSubst:
			fmt.Fprintf(&b, " %v", x.Op)
		case *syntax.ExtGlob:
			fmt.Fprintf(&b, " %v", x.Op)
		case *syntax.Assign:
			fmt.Fprintf(&b, " %v %v", x.Append, x.Naked)
		}
		return true
	})
	return b.String()
}
