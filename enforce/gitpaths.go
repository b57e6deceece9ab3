package enforce

import (
	"fmt"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// git prints the files its arguments select in the repository, which
// are more than the names the line writes: a pathspec is a pattern
// matched against every path of the history (":(glob).env", "*env",
// ":(icase).ENV", ":/.env"), with a directory selecting all under it,
// and a revision's path ("HEAD:.env", ":0:.env", "-L1,1:.env") names a
// file from the repository's root. A deny of reading holds against what
// they may select, as namedUnreadable holds it against the names.

// gitContentReaders are the subcommands that print the contents of the
// files their arguments select.
var gitContentReaders = []string{"log", "show", "diff", "grep", "blame", "annotate", "archive", "cat-file", "whatchanged",
	"diff-tree", "diff-index", "diff-files", "format-patch", "range-diff"}

// gitRevValued are the options of git's history readers whose value is
// the next word, not a pathspec.
var gitRevValued = []string{"-n", "--max-count", "--skip", "--author", "--committer", "--grep", "-S", "-G", "-L",
	"--since", "--until", "--after", "--before"}

// gitValued: per subcommand, the options whose value is the next word
// when none is glued, read by the readers' pathspecs and by gitTree
// (restore's source, the new branch of checkout and switch).
var gitValued = map[string][]string{
	"log": gitRevValued, "show": gitRevValued, "whatchanged": gitRevValued, "format-patch": gitRevValued,
	"grep":  {"-e", "-f", "-A", "-B", "-C", "-m", "--max-count", "--max-depth", "--threads", "--after-context", "--before-context", "--context"},
	"blame": {"-L", "-S", "--contents"}, "annotate": {"-L", "-S", "--contents"},
	"restore":  {"-s", "--source"},
	"checkout": {"-b", "-B", "--orphan"},
	"switch":   {"-c", "-C", "--create", "--force-create", "--orphan"},
}

// gitPath is what one git argument may select.
type gitPath struct {
	src     string // the argument
	abs     string // absolute and cleaned, in slashes
	lit     int    // abs[:lit] is a directory, matched as written
	glob    bool   // git matches the rest as a pattern
	icase   bool
	exclude bool // ":!…": it takes away from what the others select
	rev     bool // a revision's path, not a pathspec
}

// gitNamedUnreadable refuses a git reader whose pathspecs or revision
// paths may select a file a deny rule keeps the agent from reading,
// unless an exclusion (":!x") takes it away; false when it refused.
// icase: --icase-pathspecs was given. A reader given no pathspec, or
// only exclusions (which git reads as every other path), reads every
// file, which stays advisory, as a deny of reading is beside any shell.
func gitNamedUnreadable(w *walker, c call, sub string, args []word, icase bool) bool {
	if !slices.Contains(gitContentReaders, sub) || !w.e.deniesSomePaths(agents.KindRead) {
		return true
	}
	if sub == "cat-file" && slices.ContainsFunc(args, func(a word) bool {
		v := a.value()
		return !a.static() || v == "--batch" || strings.HasPrefix(v, "--batch=") || strings.HasPrefix(v, "--batch-command")
	}) {
		w.refuse(refused(c.text, "%s: git cat-file --batch prints the objects its input names (HEAD:FILE), which bn cannot check against the deny rules of reading; name the object: git show HEAD:FILE", c.text))
		return false
	}
	icase = icase || FoldsCase(runtime.GOOS)
	root := filepath.ToSlash(filepath.Clean(w.e.ctx.Root))
	var paths, excludes []gitPath
	for _, dir := range c.d.at {
		paths = append(paths, gitArgPaths(sub, args, dir, root, icase)...)
	}
	for _, p := range paths {
		if p.exclude {
			excludes = append(excludes, p)
		}
	}
	for _, r := range w.e.deny {
		if r.bad || !slices.Contains(r.kinds, agents.KindRead) || r.whole(agents.KindRead) {
			continue
		}
		deny, ok := w.e.patternAt(r.p.Arg, w.e.ctx.Root)
		if !ok || gitExcluded(excludes, deny, icase) {
			continue
		}
		dt := wildcardTokens(deny, icase)
		for _, p := range paths {
			if p.exclude || !gitSelects(p.tokens(), dt) {
				continue
			}
			dec := w.e.denied(r, c.text)
			switch {
			case p.rev:
				what := strings.TrimPrefix(strings.TrimPrefix(p.abs, root), "/")
				switch {
				case what == "":
					what = "the repository's root, which holds " + r.p.Arg + ","
				case !meets(p.tokens(), dt):
					what = fmt.Sprintf("the directory %s in the repository, which holds %s,", what, r.p.Arg)
				default:
					what += " in the repository,"
				}
				dec.Reason = fmt.Sprintf("%s: %s names %s which the agent may not read: %s; leave it out", c.text, p.src, what, dec.Reason)
			default:
				fix := ""
				if rel := strings.TrimPrefix(strings.TrimPrefix(denyCover(deny), root), "/"); rel != "" && strings.HasPrefix(deny, root+"/") {
					fix = fmt.Sprintf(", or exclude them (':!%s')", rel)
				}
				dec.Reason = fmt.Sprintf("%s: the pathspec %s may select %s, which the agent may not read: %s; name the files plainly, by paths that hold none of them (-- src/)%s", c.text, p.src, r.p.Arg, dec.Reason, fix)
			}
			w.refuse(dec)
			return false
		}
	}
	return true
}

// gitArgPaths is what git's arguments (after the subcommand) may select,
// run in dir ("" when bn cannot follow it: only the paths from the root
// are known then). Arguments made when the line runs are left to the
// advisory.
func gitArgPaths(sub string, args []word, dir, root string, icase bool) []gitPath {
	var out []gitPath
	valued := gitValued[sub]
	// git grep's first operand is its pattern, unless -e or -f gives it.
	pattern := sub == "grep" && !slices.ContainsFunc(args, func(a word) bool {
		v := a.value()
		return strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.ContainsAny(v, "ef")
	})
	dashed := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if v := a.value(); !dashed && a.static() && strings.HasPrefix(v, "-") && v != "-" {
			switch name, _, attached := strings.Cut(v, "="); {
			case v == "--":
				dashed = true
			case slices.Contains(valued, name) && !attached && i+1 < len(args):
				i++
				if name == "-L" {
					out = append(out, gitRevPaths(v+" "+args[i].value(), args[i].value(), dir, root, icase)...)
				}
			case strings.HasPrefix(v, "-L"):
				out = append(out, gitRevPaths(v, v[2:], dir, root, icase)...)
			}
			continue
		}
		for _, v := range a.vals {
			if pattern && !dashed {
				pattern = false
				continue
			}
			if !dashed { // after "--" every argument is a pathspec
				out = append(out, gitRevPaths(v, v, dir, root, icase)...)
			}
			if p, ok := gitPathspec(v, dir, root, icase); ok {
				out = append(out, p)
			}
		}
	}
	return out
}

// gitRevPaths are the paths a revision argument may name (REV:path,
// :path, :N:path, -L…:path): what follows any of its colons, from the
// repository's root, or from dir when it starts with ./ or ../ as git
// reads it.
func gitRevPaths(src, v, dir, root string, icase bool) []gitPath {
	var out []gitPath
	for i := strings.IndexByte(v, ':'); i >= 0; i = nextColon(v, i) {
		p := v[i+1:]
		base := root
		if p == "." || p == ".." || strings.HasPrefix(p, "./") || strings.HasPrefix(p, "../") {
			base = filepath.ToSlash(dir)
		}
		if base == "" {
			continue
		}
		out = append(out, gitPath{src: src, abs: path.Clean(base + "/" + p), lit: len(base), icase: icase, rev: true})
	}
	return out
}

func nextColon(v string, i int) int {
	if j := strings.IndexByte(v[i+1:], ':'); j >= 0 {
		return i + 1 + j
	}
	return -1
}

// gitPathspec reads a pathspec as git does: its magic (":(top,icase)…",
// ":/…", ":!…"), then a path relative to dir, or to the root under top
// magic. Without literal magic git matches it as a pattern whose '*'
// crosses '/' (":(glob)" narrows that: matched here as the wider one).
func gitPathspec(s, dir, root string, icase bool) (gitPath, bool) {
	p := gitPath{src: s, glob: true, icase: icase}
	base, rest := filepath.ToSlash(dir), s
	switch {
	case strings.HasPrefix(s, ":("):
		end := strings.IndexByte(s, ')')
		if end < 0 {
			end = len(s) - 1 // git refuses it; read as selecting all
		}
		for _, m := range strings.Split(s[2:end], ",") {
			switch name, _, _ := strings.Cut(strings.TrimSpace(m), ":"); name {
			case "top":
				base = root
			case "literal":
				p.glob = false
			case "icase":
				p.icase = true
			case "exclude":
				p.exclude = true
			}
		}
		rest = s[end+1:]
	case strings.HasPrefix(s, ":"):
		j := 1
	short:
		for ; j < len(s); j++ {
			switch s[j] {
			case '/':
				base = root
			case '!', '^':
				p.exclude = true
			case ':':
				j++
				break short
			default:
				break short
			}
		}
		rest = s[j:]
	}
	if filepath.IsAbs(filepath.FromSlash(rest)) {
		base = ""
	} else if base == "" {
		return p, false
	}
	p.abs = path.Clean(base + "/" + rest)
	if base == "" {
		p.abs = path.Clean(filepath.ToSlash(rest))
	}
	if strings.HasPrefix(p.abs, base) {
		p.lit = len(base)
	}
	return p, true
}

// denyCover is the file a deny pattern (absolute, in slashes) names, or
// the directory before its first '*', which holds all it names.
func denyCover(deny string) string {
	if i := strings.IndexByte(deny, '*'); i >= 0 {
		return strings.TrimSuffix(deny[:strings.LastIndexByte(deny[:i], '/')+1], "/")
	}
	return deny
}

// gitExcluded reports whether an exclusion takes away every path a deny
// pattern (absolute, in slashes) names: one that selects its denyCover.
func gitExcluded(excludes []gitPath, deny string, icase bool) bool {
	lit := denyCover(deny)
	if lit == "" {
		return false
	}
	lt := literalTokens(lit, icase)
	return slices.ContainsFunc(excludes, func(x gitPath) bool { return gitSelects(x.tokens(), lt) })
}

// charSet is a set of bytes.
type charSet [4]uint64

func (s *charSet) add(c byte) { s[c/64] |= 1 << (c % 64) }

func (s charSet) meets(o charSet) bool {
	return s[0]&o[0] != 0 || s[1]&o[1] != 0 || s[2]&o[2] != 0 || s[3]&o[3] != 0
}

var anyByte = charSet{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}

// globToken is one byte of a pattern from a set, or any run of them.
type globToken struct {
	set  charSet
	star bool
}

func byteToken(c byte, icase bool) globToken {
	var t globToken
	t.set.add(c)
	if icase {
		t.set.add(lower(c))
		t.set.add(upper(c))
	}
	return t
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

func literalTokens(s string, icase bool) []globToken {
	out := make([]globToken, len(s))
	for i := range len(s) {
		out[i] = byteToken(s[i], icase)
	}
	return out
}

// wildcardTokens reads a rule's path pattern, whose '*' is any run of
// characters (agents.MatchWildcard).
func wildcardTokens(s string, icase bool) []globToken {
	out := literalTokens(s, icase)
	for i := range out {
		if s[i] == '*' {
			out[i] = globToken{set: anyByte, star: true}
		}
	}
	return out
}

// tokens reads the path a git argument selects: its directory as
// written, the rest as git's pattern when it is one, with '*', '?' and
// brackets matching '/' too (git's pattern without glob magic), and
// "**/" any directories or none (glob magic's).
func (p gitPath) tokens() []globToken {
	out := literalTokens(p.abs[:p.lit], p.icase)
	s := p.abs[p.lit:]
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case !p.glob:
			out = append(out, byteToken(c, p.icase))
		case c == '*':
			if strings.HasPrefix(s[i:], "**/") {
				i += 2 // "**/" matches no directory too
			}
			out = append(out, globToken{set: anyByte, star: true})
		case c == '?':
			out = append(out, globToken{set: anyByte})
		case c == '\\' && i+1 < len(s):
			i++
			out = append(out, byteToken(s[i], p.icase))
		case c == '[':
			t, end := bracket(s, i, p.icase)
			if end < 0 {
				out = append(out, byteToken(c, p.icase))
				continue
			}
			out, i = append(out, t), end
		default:
			out = append(out, byteToken(c, p.icase))
		}
	}
	return out
}

// bracket reads the bracket expression at s[i] and the index of its
// ']'; -1 when it has none (a literal '['). A character class
// ([:alpha:]) is read as any byte.
func bracket(s string, i int, icase bool) (globToken, int) {
	var t globToken
	j := i + 1
	neg := j < len(s) && (s[j] == '!' || s[j] == '^')
	if neg {
		j++
	}
	for first := true; j < len(s) && (s[j] != ']' || first); first = false {
		c := s[j]
		switch {
		case c == '[' && j+1 < len(s) && s[j+1] == ':':
			t.set = anyByte
			neg = false
			j++
		case c == '\\' && j+1 < len(s):
			j++
			t.set.add(s[j])
			j++
		case j+2 < len(s) && s[j+1] == '-' && s[j+2] != ']':
			for b := int(c); b <= int(s[j+2]); b++ {
				t.set.add(byte(b))
			}
			j += 3
		default:
			t.set.add(c)
			j++
		}
	}
	if j >= len(s) {
		return t, -1
	}
	if neg {
		for k := range t.set {
			t.set[k] = ^t.set[k]
		}
	}
	if icase {
		for b := 0; b < 256; b++ {
			if t.set.meets(byteToken(byte(b), false).set) {
				t.set.add(lower(byte(b)))
				t.set.add(upper(byte(b)))
			}
		}
	}
	return t, j
}

// gitSelects reports whether what a git argument selects (a path, or
// any path under it as a directory) meets a deny pattern: whether some
// path matches both.
func gitSelects(p, deny []globToken) bool {
	under := append(slices.Clone(p), byteToken('/', false), globToken{set: anyByte, star: true})
	return meets(p, deny) || meets(under, deny)
}

// meets reports whether some string matches both patterns, walking
// their product; a product too large to walk is taken as meeting.
func meets(a, b []globToken) bool {
	n := (len(a) + 1) * (len(b) + 1)
	if n > 1<<20 {
		return true
	}
	seen := make([]bool, n)
	var stack [][2]int
	push := func(i, j int) {
		if k := i*(len(b)+1) + j; !seen[k] {
			seen[k] = true
			stack = append(stack, [2]int{i, j})
		}
	}
	push(0, 0)
	for len(stack) > 0 {
		i, j := stack[len(stack)-1][0], stack[len(stack)-1][1]
		stack = stack[:len(stack)-1]
		if i == len(a) && j == len(b) {
			return true
		}
		if i < len(a) && a[i].star {
			push(i+1, j)
		}
		if j < len(b) && b[j].star {
			push(i, j+1)
		}
		if i < len(a) && j < len(b) && a[i].set.meets(b[j].set) {
			ni, nj := i+1, j+1
			if a[i].star {
				ni = i
			}
			if b[j].star {
				nj = j
			}
			push(ni, nj)
		}
	}
	return false
}
