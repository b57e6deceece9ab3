package enforce

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/files"
)

// FS is what bn asks the file system: to resolve a path, to list a
// directory for a pattern the shell expands, and to open an archive an
// unpacker reads (nestedGit).
type FS interface {
	Lstat(name string) (fs.FileInfo, error)
	Readlink(name string) (string, error)
	ReadDir(name string) ([]fs.DirEntry, error)
	Open(name string) (fs.File, error)
}

type osFS struct{}

func (osFS) Lstat(name string) (fs.FileInfo, error)     { return os.Lstat(name) }
func (osFS) Readlink(name string) (string, error)       { return os.Readlink(name) }
func (osFS) ReadDir(name string) ([]fs.DirEntry, error) { return os.ReadDir(name) }
func (osFS) Open(name string) (fs.File, error)          { return os.Open(name) }

// maxLinks bounds the symlinks one path may go through, as the kernel's
// own limit does (40 on Linux): a loop is an error, not a hang.
const maxLinks = 40

// resolve returns abs as the kernel would open it: every symlink on the
// way resolved, ".." taken after the link before it (src/link/.. is the
// parent of where link leads), also for a path that does not exist yet
// (a write through a dangling link creates its target); and whether the
// file exists.
func resolve(fsys FS, abs string) (string, bool, error) {
	// The path as written decides too, where /proc or /dev/fd is not
	// there to resolve (Windows, where Git Bash and MSYS make them).
	vol := filepath.VolumeName(abs)
	lexical := vol + string(filepath.Separator)
	for _, comp := range splitPath(abs[len(vol):]) {
		if lexical = filepath.Join(lexical, comp); processPath(lexical) {
			return "", false, fmt.Errorf("%s %w", lexical, errProcessPath)
		}
	}
	abs, err := win32Path(abs)
	if err != nil {
		return "", false, err
	}
	vol = filepath.VolumeName(abs)
	rest := splitPath(abs[len(vol):])
	cur := vol + string(filepath.Separator)
	links := 0
	for len(rest) > 0 {
		comp := rest[0]
		rest = rest[1:]
		if comp == "." {
			continue
		}
		if comp == ".." {
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, comp)
		if processPath(next) {
			return "", false, fmt.Errorf("%s %w", next, errProcessPath)
		}
		fi, err := fsys.Lstat(next)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
			if shortNames && shortName(comp) {
				return "", false, fmt.Errorf("%s %w", next, errShortName)
			}
			// Where /proc or /dev/fd is not there to resolve (macOS,
			// Windows), the rest is still held to processPath.
			for at, i := next, 0; i < len(rest); i++ {
				if at = filepath.Join(at, rest[i]); processPath(at) {
					return "", false, fmt.Errorf("%s %w", at, errProcessPath)
				}
			}
			return filepath.Join(append([]string{next}, rest...)...), false, nil
		}
		if err != nil {
			return "", false, err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			if shortNames && shortName(comp) {
				if cur, err = longName(next); err != nil {
					return "", false, err
				}
			}
			continue
		}
		if links++; links > maxLinks {
			return "", false, fmt.Errorf("%s: more than %d symlinks", abs, maxLinks)
		}
		target, err := fsys.Readlink(next)
		if err != nil {
			return "", false, err
		}
		if filepath.IsAbs(target) {
			tv := filepath.VolumeName(target)
			cur = tv + string(filepath.Separator)
			target = target[len(tv):]
		}
		rest = append(splitPath(target), rest...)
	}
	return cur, true, nil
}

var errProcessPath = errors.New("names the files of the process that opens it (its working directory, root, open files), not a place bn can know; write the path itself")

// processPath reports whether p (absolute, cleaned) is /dev/fd, or
// /proc/self, /proc/thread-self or /proc/PID, or under one: each leads
// to the files of whichever process opens it (/proc/self/cwd is the
// shell's working directory after its cd, not bn's), so bn cannot place
// a path through it.
func processPath(p string) bool {
	parts := splitPath(p[len(filepath.VolumeName(p)):])
	if len(parts) < 2 {
		return false
	}
	switch parts[0] {
	case "dev":
		return parts[1] == "fd"
	case "proc":
		return parts[1] == "self" || parts[1] == "thread-self" || strings.Trim(parts[1], "0123456789") == ""
	}
	return false
}

// Resolve is path, made absolute, as the kernel would open it (resolve):
// what a write to it would change. A path bn cannot resolve (a loop) is
// given back cleaned.
func Resolve(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.Clean(path)
	}
	r, _, err := resolve(osFS{}, abs)
	if err != nil {
		return abs
	}
	return r
}

func splitPath(p string) []string {
	return strings.FieldsFunc(p, func(r rune) bool { return r == '/' || r == filepath.Separator })
}

// place is a path as written and where it leads.
type place struct {
	written  string
	clean    string // absolute, cleaned
	resolved string // absolute, cleaned, symlinks resolved; "" when unknown
	exists   bool
}

// absolute is p made absolute from dir, which may be unknown (""): p
// itself when it is absolute, else dir, a separator and p (cleaned later,
// after symlinks: resolve). On Windows a path rooted without a drive
// (\etc\passwd, /etc/passwd) is on dir's drive, as Windows opens it, and
// one with a drive but no root (C:x) is relative to that drive's working
// directory, which bn never knows: false.
func absolute(p, dir string) (string, bool) {
	switch {
	case filepath.IsAbs(p):
		return p, true
	case dir == "" || filepath.VolumeName(p) != "":
		return "", false
	case p != "" && os.IsPathSeparator(p[0]):
		return filepath.VolumeName(dir) + p, true
	}
	return dir + string(filepath.Separator) + p, true
}

// Absolute is absolute for the hook, which asks whether the file a Write
// names exists as Decide places it.
func Absolute(p, dir string) (string, bool) { return absolute(p, dir) }

// locate makes written absolute (from dir) and resolves it.
func (e *engine) locate(written, dir string) (place, error) {
	abs, ok := absolute(written, dir)
	if !ok {
		return place{written: written}, fmt.Errorf("a path on a drive but not from its root is relative to that drive's working directory, which bn cannot know; write the full path")
	}
	r, exists, err := resolve(e.ctx.FS, abs)
	if err != nil {
		return place{written: written, clean: filepath.Clean(abs)}, err
	}
	// Resolved, abs is a name win32Path takes.
	abs, _ = win32Path(abs)
	return place{written: written, clean: filepath.Clean(abs), resolved: r, exists: exists}, nil
}

// rootResolved is the repository root with its own symlinks resolved
// (macOS's /tmp is /private/tmp): resolved paths compare against it.
func (e *engine) rootResolved() string {
	if e.ctx.Root == "" {
		return ""
	}
	r, _, err := resolve(e.ctx.FS, e.ctx.Root)
	if err != nil {
		return filepath.Clean(e.ctx.Root)
	}
	return r
}

// pathKinds reports whether kinds name files: a use of them names a path.
func pathKinds(kinds []agents.Kind) bool {
	return len(kinds) > 0 && !slices.ContainsFunc(kinds, func(k agents.Kind) bool {
		switch k {
		case agents.KindRead, agents.KindList, agents.KindEdit, agents.KindCreate, agents.KindNotebook:
			return false
		}
		return true
	})
}

// path decides a file tool's use of one path, for every kind it names.
func (e *engine) path(kinds []agents.Kind, arg string) Decision {
	pl, err := e.locate(arg, e.ctx.Dir)
	if err != nil {
		return refused("", "bn could not resolve the path %s (%v), so the call is refused", arg, err)
	}
	var last Decision
	for _, k := range kinds {
		last = e.access(k, pl)
		last.Accesses = []Access{{Kind: k, Path: arg, Resolved: pl.resolved}}
		if !last.Allowed {
			return last
		}
	}
	return last
}

// access decides one kind of access to a located path.
func (e *engine) access(k agents.Kind, pl place) Decision {
	if d, ok := e.deniedPath(k, pl); ok {
		return d
	}
	return e.allowedPath(k, pl)
}

// deniedPath finds a deny rule for kind k that names the path, as
// written or as resolved, or the whole kind (pathDenied's search, with
// the rules not limited to paths).
func (e *engine) deniedPath(k agents.Kind, pl place) (Decision, bool) {
	for _, r := range e.deny {
		if r.bad {
			return e.denied(r, ""), true
		}
		if !slices.Contains(r.kinds, k) {
			continue
		}
		if r.whole(k) || e.namesPlace(r, pl) {
			d := e.denied(r, "")
			if pl.resolved != pl.clean && !r.whole(k) {
				d.Reason = fmt.Sprintf("%s resolves to %s: %s", pl.written, pl.resolved, d.Reason)
			}
			return d, true
		}
	}
	if r, other, ok := e.linkedDeny(k, pl); ok {
		d := e.denied(r, "")
		d.Reason = fmt.Sprintf("%s %s: %s", pl.written, other, d.Reason)
		return d, true
	}
	return Decision{}, false
}

// writtenNames is how many names (hard links) the existing file a write
// of kind k to pl changes has: 0 for a read, or what has none to count.
func (e *engine) writtenNames(k agents.Kind, pl place) uint64 {
	if k != agents.KindEdit && k != agents.KindCreate && k != agents.KindNotebook || !pl.exists || pl.resolved == "" {
		return 0
	}
	fi, err := e.ctx.FS.Lstat(pl.resolved)
	if err != nil {
		return 0
	}
	return HardLinks(fi)
}

// linkBudget bounds the directories linkedDeny reads for one path.
const linkBudget = 10000

// linkedDeny finds the deny rule of kind k, limited to paths, that names
// another name of the file (a hard link): reading or writing one reads or
// writes the other, which no match of names sees. Only a file with more
// than one name is looked for, under each deny's literal part (.env, or
// secrets/ for secrets/**). The text says which name it is, or that bn
// could not look through every directory there, which refuses as a match
// does.
func (e *engine) linkedDeny(k agents.Kind, pl place) (rule, string, bool) {
	if !pl.exists || pl.resolved == "" {
		return rule{}, "", false
	}
	fi, err := e.ctx.FS.Lstat(pl.resolved)
	if err != nil || HardLinks(fi) < 2 {
		return rule{}, "", false
	}
	for _, r := range e.deny {
		if r.bad || !slices.Contains(r.kinds, k) || r.whole(k) {
			continue
		}
		if other, ok := e.sameFileUnder(r.p.Arg, fi); ok {
			return r, other, true
		}
	}
	return rule{}, "", false
}

// sameFileUnder looks under the literal part of a path pattern for a file
// the pattern matches that is the file fi describes: the text for the
// refusal, or false when there is none. Only a name the pattern matches
// is compared, so the bound is on directories read, not files in them: a
// package manager's tree of hard-linked files (pnpm's node_modules) costs
// one read a directory beside a deny such as "**/.env".
func (e *engine) sameFileUnder(pattern string, fi fs.FileInfo) (string, bool) {
	lit, ok := e.patternAt(LiteralPrefix(pattern), e.rootResolved())
	if !ok {
		return "", false
	}
	start, _, err := resolve(e.ctx.FS, filepath.FromSlash(lit))
	if err != nil {
		return "", false
	}
	budget, found := linkBudget, ""
	// same reports whether p, which the pattern matches, is the file fi.
	same := func(p string) bool {
		o, err := e.ctx.FS.Lstat(p)
		return err == nil && os.SameFile(fi, o)
	}
	var walk func(dir string) bool
	walk = func(dir string) bool {
		if budget--; budget < 0 {
			return false
		}
		entries, err := e.ctx.FS.ReadDir(dir)
		if err != nil {
			return true
		}
		for _, d := range entries {
			p := filepath.Join(dir, d.Name())
			switch {
			case d.IsDir():
				if !walk(p) {
					return false
				}
			case e.pathMatches(pattern, p, e.rootResolved()) && same(p):
				found = p
				return false
			}
		}
		return true
	}
	o, err := e.ctx.FS.Lstat(start)
	switch {
	case err != nil:
		return "", false
	case !o.IsDir():
		if e.pathMatches(pattern, start, e.rootResolved()) && os.SameFile(fi, o) {
			found = start
		}
	default:
		walk(start)
	}
	if found != "" {
		return "is another name (a hard link) of " + e.shown(found) + ", and reading or writing one reads or writes the other", true
	}
	if budget >= 0 {
		return "", false
	}
	return fmt.Sprintf("has %d names (hard links), and bn read more than %d directories under %s without finding them all, so it may be one of the files there; a deny that starts with a directory (\"secrets/**\", not \"**/.env\") is looked for only under it, or read a copy of the file made outside the agent", HardLinks(fi), linkBudget, e.shown(start)), true
}

// shown is an absolute path as a refusal names it: relative to the
// repository root when inside it.
func (e *engine) shown(p string) string {
	if root := e.rootResolved(); inside(p, root) {
		if rel, err := filepath.Rel(root, p); err == nil {
			return filepath.ToSlash(rel)
		}
	}
	return p
}

// allowedPath finds the allow rule for kind k that names the path, both
// as written and as resolved, inside the repository for a relative
// pattern. A write into a repository nested in the project takes a rule
// that names it (nestedGit).
func (e *engine) allowedPath(k agents.Kind, pl place) Decision {
	if e.all {
		return e.unrestricted()
	}
	limited := false
	nested, unnamed := e.nestedGit(k, pl), ""
	for _, r := range e.allow {
		if r.bad || !slices.Contains(r.kinds, k) {
			continue
		}
		if r.whole(k) {
			return e.allowed(r, "")
		}
		limited = true
		if e.pathMatches(r.p.Arg, pl.clean, e.ctx.Root) && e.pathMatches(r.p.Arg, pl.resolved, e.rootResolved()) {
			if nested != "" && !e.namesNested(r.p.Arg, nested) {
				unnamed = r.text
				continue
			}
			if n := e.writtenNames(k, pl); n > 1 {
				return Decision{Reason: fmt.Sprintf("%s has %d names (hard links), and bn cannot tell where the others are: a write through one changes the file under every name, which rules limited to paths (%s) may not allow; "+
					"give it a name of its own first (cp %s tmp && mv tmp %s, outside the agent), or allow the kind whole", pl.written, n, r.text, pl.written, pl.written)}
			}
			return e.allowed(r, "")
		}
	}
	if !limited {
		return Decision{Reason: fmt.Sprintf("no allow rule matches: the agent may not %s files", verb(k))}
	}
	if unnamed != "" {
		rel, _ := filepath.Rel(e.rootResolved(), nested)
		rel = filepath.ToSlash(rel)
		return Decision{Reason: fmt.Sprintf("%s is in %s, a repository nested in the project: git run at the repository root follows its configuration once it is linked as a submodule (git diff and git status run its core.fsmonitor), so only a rule that names it lets the agent write there, such as %s(%s/**); allow %q does not", pl.written, rel, k, rel, unnamed)}
	}
	switch {
	case !inside(pl.resolved, e.rootResolved()) && pl.resolved == pl.clean:
		return Decision{Reason: fmt.Sprintf("%s is outside the repository, and the agent may %s only the paths its rules name", pl.written, verb(k))}
	case !inside(pl.resolved, e.rootResolved()):
		return Decision{Reason: fmt.Sprintf("%s resolves to %s, outside the repository, and the agent may %s only the paths its rules name", pl.written, pl.resolved, verb(k))}
	case pl.resolved != pl.clean:
		return Decision{Reason: fmt.Sprintf("%s resolves to %s, which no allow rule for %s matches (rules match the path a symlink leads to as well as the path written)", pl.written, pl.resolved, k)}
	}
	return Decision{Reason: fmt.Sprintf("no allow rule for %s matches %s", k, pl.written)}
}

// nestedGit is the repository nested in the project that a write of
// kind k to pl goes into (NestedGit of the resolved path), "" when none
// or k does not write.
func (e *engine) nestedGit(k agents.Kind, pl place) string {
	if k != agents.KindEdit && k != agents.KindCreate && k != agents.KindNotebook {
		return ""
	}
	return NestedGit(e.rootResolved(), pl.resolved)
}

// namesNested says whether a path pattern names the nested repository
// nested (absolute, resolved) literally: its part before the first
// wildcard reaches into it (src/lib/.git/**, not src/**).
func (e *engine) namesNested(pattern, nested string) bool {
	lit := LiteralPrefix(pattern)
	if lit == "" {
		return false
	}
	abs, ok := e.patternAt(lit, e.rootResolved())
	if !ok {
		return false
	}
	abs = filepath.FromSlash(abs)
	if FoldsCase(runtime.GOOS) {
		abs, nested = strings.ToLower(abs), strings.ToLower(nested)
	}
	return inside(abs, nested)
}

// NestedGit is the .git below root (both absolute, symlinks resolved)
// that p is or lies under: a repository nested in the project, a
// submodule's or one an agent makes. Git run at the root follows its
// configuration once it is linked as a submodule (git diff and git
// status run its core.fsmonitor to see whether it changed), so what
// writes there runs programs as much as what writes the root's own
// .git. "" when p is in none; the root's own .git is not nested.
func NestedGit(root, p string) string {
	if !inside(p, root) {
		return ""
	}
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return ""
	}
	parts := strings.Split(rel, string(filepath.Separator))
	for i, part := range parts {
		if i > 0 && isDotGit(part) {
			return filepath.Join(root, filepath.Join(parts[:i+1]...))
		}
	}
	return ""
}

// isDotGit says whether a file name is .git to the file system: without
// case on macOS and Windows, and on Windows whatever dots and spaces end
// it (NTFS drops them).
func isDotGit(name string) bool {
	if runtime.GOOS == "windows" {
		name = strings.TrimRight(name, ". ")
	}
	if FoldsCase(runtime.GOOS) {
		return strings.EqualFold(name, ".git")
	}
	return name == ".git"
}

// LiteralPrefix is the part of a path pattern before its first wildcard,
// cut back to a whole path segment: "" for **, ".binnacle/" for
// .binnacle/agents*.
func LiteralPrefix(arg string) string {
	i := strings.IndexAny(arg, "*?[{")
	if i < 0 {
		return arg
	}
	return arg[:strings.LastIndexByte(arg[:i], '/')+1]
}

func verb(k agents.Kind) string {
	switch k {
	case agents.KindEdit:
		return "edit"
	case agents.KindCreate:
		return "create or overwrite"
	case agents.KindList:
		return "list"
	case agents.KindNotebook:
		return "edit notebooks of"
	}
	return "read"
}

// pathMatches matches a path pattern against an absolute path: a
// relative pattern is relative to root, "~/" is the home directory, and
// '*' is any run of characters ("src/*" is everything under src). File
// systems that ignore case (macOS's and Windows' default) compare
// without it.
func (e *engine) pathMatches(pattern, abs, root string) bool {
	if abs == "" {
		return false
	}
	pat, ok := e.patternAt(pattern, root)
	if !ok {
		return false
	}
	p := filepath.ToSlash(abs)
	if FoldsCase(runtime.GOOS) {
		pat, p = strings.ToLower(pat), strings.ToLower(p)
	}
	return agents.MatchWildcard(pat, p)
}

// patternAt is a path pattern made absolute, as pathMatches matches it:
// relative to root, "~/" the home directory, cleaned, in slashes; false
// when it cannot be placed.
func (e *engine) patternAt(pattern, root string) (string, bool) {
	pat := filepath.ToSlash(pattern)
	if rest, ok := strings.CutPrefix(pat, "~/"); ok && e.ctx.Home != "" {
		pat = filepath.ToSlash(e.ctx.Home) + "/" + rest
	}
	full, ok := absolute(filepath.FromSlash(pat), root)
	if !ok {
		return "", false
	}
	return cleanPattern(filepath.ToSlash(full)), true
}

// cleanPattern cleans a slash pattern but keeps a trailing "/*".
func cleanPattern(p string) string {
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

// FoldsCase reports whether the usual file systems of an operating
// system (runtime.GOOS) take names that differ only in case for the same
// file, as macOS's APFS and Windows' NTFS do by default: paths compare
// without case there.
func FoldsCase(goos string) bool { return goos == "darwin" || goos == "windows" }

// inside reports whether p is root or under it; an empty path is
// neither (files.Within would take a relative p for under "").
func inside(p, root string) bool {
	return root != "" && p != "" && files.Within(root, p)
}

// namedUnreadable refuses a command whose arguments name a file a deny
// rule keeps the agent from reading. cat, head, sed, awk, perl and every
// other program read the files they are given, and bn cannot know them
// all, so a deny of reading holds against the name, not the program. A
// name the line makes only when it runs still passes: beside a shell,
// a deny of reading stays advisory (advisory.go), and this holds the
// lines agents write. A reader that recurses (grep -r, rg, diff -r)
// reads what a deny names under a directory it is given; the project's
// root, or a directory above it, stays advisory as a line without names.
func (w *walker) namedUnreadable(text string, words []word, d dirs) {
	if w.stopped() || !w.e.deniesSomePaths(agents.KindRead) {
		return
	}
	if why := jqModules(words); why != "" {
		w.refuse(refused(text, "%s: %s, which bn cannot check against the deny rules of reading; write the filter in the line", text, why))
		return
	}
	if why := listedReads(w.e.programs, words); why != "" {
		w.refuse(refused(text, "%s: %s, which bn cannot check against the deny rules of reading; name the files in the line", text, why))
		return
	}
	if baseName(words[0].value()) == "xargs" && w.input != nil && !(w.input.static() && slices.Contains(devices, w.input.value())) {
		// From a pipe (git ls-files | xargs grep x) the names are the
		// output of a command, which stays advisory; a file is a list.
		w.refuse(refused(text, "%s: xargs hands its command the names its input lists, read from %s, which bn cannot check against the deny rules of reading; name the files in the line", text, w.input.src))
		return
	}
	if baseName(words[0].value()) == "xargs" && w.inline != nil {
		// The names a here-string or here-document hands xargs are in
		// the line: each is checked as a name its command is given,
		// where bn splits them as xargs does (at blanks, no quotes).
		fs, _, _ := parseOpts(xargsOpts, words[1:], true)
		split := !slices.ContainsFunc(fs, func(f found) bool { return f.o.long == "delimiter" || f.o.short == 'I' || f.o.long == "replace" })
		if !split || !w.inline.static() || strings.ContainsAny(w.inline.value(), `"'\`) {
			w.refuse(refused(text, "%s: xargs hands its command the names its here-string or here-document lists, which bn cannot split as xargs does to check them against the deny rules of reading; name the files in the line", text))
			return
		}
		for _, f := range strings.Fields(w.inline.value()) {
			words = append(slices.Clip(words), word{src: f, vals: []string{f}})
		}
	}
	recurses := recursiveReader(w.e.programs, words)
	d = operandDirs(w.e.programs, words, d)
	for _, a := range words[1:] {
		for _, name := range argPaths(a) {
			for _, dir := range d.at {
				if a.fuzzy {
					name = wideBrackets(name)
				}
				names, err := w.e.globbed(name, dir, a.glob)
				if err != nil {
					w.refuse(refused(text, "%s: the pattern %s names too many files to check (its expansion reads more than %d directory entries), and any of them may be one a deny rule keeps the agent from reading; name the files, or write a narrower pattern", text, a.src, globBudget))
					return
				}
				for _, p := range names {
					if dir == "" && !filepath.IsAbs(p) || slices.Contains(devices, p) {
						continue // after a cd bn cannot follow (advisory), or not a file
					}
					pl, err := w.e.locate(p, dir)
					if errors.Is(err, errProcessPath) || errors.Is(err, errDevicePath) {
						w.refuse(refused(text, "%s names %s, whose %v", text, p, err))
						return
					}
					if err != nil {
						continue
					}
					if r, linked, denied := w.e.pathDenied(agents.KindRead, pl); denied {
						dec := w.e.denied(r, text)
						if linked != "" { // the name itself does not match: say which file it is
							dec.Reason = fmt.Sprintf("%s names %s, which %s; the agent may not read it: %s", text, p, linked, dec.Reason)
						} else {
							dec.Reason = fmt.Sprintf("%s names %s, which the agent may not read: %s", text, p, dec.Reason)
						}
						w.refuse(dec)
						return
					}
					if r, denied := w.e.deniedUnder(pl); recurses && denied {
						dec := w.e.denied(r, text)
						dec.Reason = fmt.Sprintf("%s reads every file under %s, which holds %s, which the agent may not read: %s; name the files, or a directory that holds none of them", text, p, r.p.Arg, dec.Reason)
						w.refuse(dec)
						return
					}
				}
			}
		}
	}
}

// jqImport is jq's import or include directive, which reads a module.
// Compiled on first use: bn's start stays small (TestStartupInit).
var jqImport = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(^|[^."\w$])(import|include)\s*"`) })

// jqModules says why a jq command reads files its words do not name: a
// module its filter imports or includes (found by -L's directories or
// ~/.jq), a filter read from a file (-f); "" for any other command.
func jqModules(words []word) string {
	if baseName(words[0].value()) != "jq" {
		return ""
	}
	for _, a := range words[1:] {
		v := a.value()
		switch {
		case jqImport().MatchString(v):
			return "jq's import and include read modules by name"
		case v == "--library-path" || strings.HasPrefix(v, "--library-path=") || strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "L"):
			return "jq -L names directories it reads modules from"
		case v == "--from-file" || strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "f"):
			return "jq -f reads its filter from a file, which may import modules"
		}
	}
	return ""
}

// listedReads says why a command reads files that a list names, not its
// words: tar's and rsync's --files-from (tar -T), the --files0-from of
// sort (which prints them), wc and du, xargs -a (--arg-file), the -c
// (--check) of md5sum and the other sums, cpio -o and -p and zip -@
// (names on their input), 7z's @LIST and -i@LIST, pandoc's defaults
// file (-d); "" for any other command.
func listedReads(programs map[string]*program, words []word) string {
	name := baseName(words[0].value())
	switch name {
	case "tar", "bsdtar", "rsync", "cpio", "sort", "wc", "du":
		if first := words[1:2]; (name == "tar" || name == "bsdtar") && len(first) == 1 && first[0].static() &&
			!strings.HasPrefix(first[0].value(), "-") && strings.Contains(first[0].value(), "T") {
			return name + " " + first[0].value() + " reads the files a list names (T)" // the old style: tar cTf LIST
		}
		fs, _, _ := parseOpts(programs[name].options(), words[1:], false)
		for _, f := range fs {
			switch {
			case f.o.long == "files-from" || f.o.long == "files0-from":
				return name + " " + spelt(f) + " reads the files a list names"
			case name == "cpio" && (f.o.long == "create" || f.o.long == "pass-through"):
				return "cpio " + spelt(f) + " reads the files its input names"
			}
		}
	case "xargs":
		fs, _, _ := parseOpts(xargsOpts, words[1:], true)
		for _, f := range fs {
			if f.o.long == "arg-file" {
				return "xargs " + spelt(f) + " hands its command the names a file lists"
			}
		}
	case "md5sum", "sha1sum", "sha256sum", "sha512sum", "b2sum", "cksum":
		fs, _, _ := parseOpts(programs[name].options(), words[1:], false)
		for _, f := range fs {
			if f.o.long == "check" || f.o.short == 'c' {
				return name + " " + spelt(f) + " reads the files its list of sums names"
			}
		}
	case "sha224sum", "sha384sum", "shasum": // no table of their options: -c in any cluster, --check by a prefix
		for _, a := range words[1:] {
			if v := a.value(); a.static() && (len(v) > 2 && strings.HasPrefix("--check", v) || strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "c")) {
				return name + " " + v + " reads the files its list of sums names"
			}
		}
	case "parallel":
		for _, a := range words[1:] {
			if v := a.value(); a.static() && (v == "::::" || v == "::::+") {
				return "parallel " + v + " hands its command the names the files after it list"
			}
		}
	case "find":
		// GNU find's starting points read from a list: its -exec, -ok
		// and their dir forms run a command on each.
		runs := slices.ContainsFunc(words[1:], func(a word) bool { return slices.Contains([]string{"-exec", "-execdir", "-ok", "-okdir"}, a.value()) })
		if runs && slices.ContainsFunc(words[1:], func(a word) bool { return a.value() == "-files0-from" }) {
			return "find -files0-from hands -exec the files a list names"
		}
	case "pandoc":
		fs, _, _ := parseOpts(programs[name].options(), words[1:], false)
		for _, f := range fs {
			if f.o.long == "defaults" {
				return "pandoc " + spelt(f) + " reads a defaults file, which can name the files pandoc reads"
			}
		}
	case "zip":
		for _, a := range words[1:] {
			if v := a.value(); a.static() && (v == "--names-stdin" || strings.HasPrefix(v, "-") && !strings.HasPrefix(v, "--") && strings.Contains(v, "@")) {
				return "zip -@ reads the files its input names"
			}
		}
	case "7z", "7za", "7zr":
		for _, a := range words[1:] {
			if v := a.value(); a.static() && (strings.HasPrefix(v, "@") || strings.HasPrefix(v, "-i") && strings.Contains(v, "@")) {
				return name + " " + v + " reads the files a list names"
			}
		}
	}
	return ""
}

// recursers are the programs that read every file under a directory
// they are given, in the forms that do: the short letters and the words
// in long options that make them (diff -r, cp -r and -a, rsync -r and
// -a, scp -r, zip -r; tar and bsdtar creating, appending or updating,
// which recurse unless --no-recursion). rg always does, 7z's a and u
// commands too, and grep as its options say (grepRecurses). A slice,
// which takes no memory at start.
var recursers = []recurser{
	{"diff", "r", []string{"recurs"}},
	{"cp", "rRa", []string{"recurs", "archive"}}, {"rsync", "ra", []string{"recurs", "archive"}}, {"scp", "r", nil}, {"zip", "rR", []string{"recurse"}},
	{"tar", "cru", []string{"create", "append", "update"}}, {"bsdtar", "cru", []string{"create", "append", "update"}},
}

type recurser struct {
	name, short string
	longs       []string
}

// recursiveReader reports whether a command reads the contents of every
// file under a directory it is given (recursers). A word not known
// before the line runs may be the option.
func recursiveReader(programs map[string]*program, words []word) bool {
	name := baseName(words[0].value())
	switch name {
	case "rg":
		return true
	case "grep", "egrep", "fgrep":
		return grepRecurses(programs[name].options(), words[1:])
	case "7z", "7za", "7zr":
		i := slices.IndexFunc(words[1:], func(a word) bool { return !a.static() || !strings.HasPrefix(a.value(), "-") })
		return i >= 0 && (!words[1+i].static() || words[1+i].value() == "a" || words[1+i].value() == "u")
	}
	i := slices.IndexFunc(recursers, func(r recurser) bool { return r.name == name })
	tar := name == "tar" || name == "bsdtar"
	if i < 0 || tar && slices.ContainsFunc(words[1:], func(a word) bool { return a.static() && strings.HasPrefix(a.value(), "--no-recursion") }) {
		return false
	}
	r := recursers[i]
	for i, a := range words[1:] {
		v := a.value()
		switch {
		case !a.static():
			return true
		case v == "--":
			return false
		case strings.HasPrefix(v, "--"):
			if slices.ContainsFunc(r.longs, func(l string) bool { return strings.Contains(v, l) }) {
				return true
			}
		case strings.HasPrefix(v, "-"):
			if strings.ContainsAny(v[1:], r.short) {
				return true
			}
		case i == 0 && tar && strings.ContainsAny(v, r.short):
			return true // the old style: tar czf
		}
	}
	return false
}

// grepRecurses says whether grep's arguments, read with its table as its
// getopt reads them (-id recurse, --dir recurse), make it recurse: -r,
// -R, or -d/--directories with any action but read or skip. A word not
// known before the line runs may be the option.
func grepRecurses(spec []opt, args []word) bool {
	fs, _, maybe := parseOpts(spec, args, false)
	if len(maybe) > 0 {
		return true
	}
	for _, f := range fs {
		switch {
		case f.o.short == 'r' || f.o.short == 'R' || strings.Contains(f.o.long, "recurs"):
			return true
		case (f.o.short == 'd' || f.o.long == "directories") && f.has:
			if v := f.value.value(); !f.value.static() || v != "read" && v != "skip" {
				return true
			}
		}
	}
	return false
}

// deniedUnder finds a deny of reading that names a file under the
// directory pl may be; none for the project's root or a directory above
// it (a reader of every file stays advisory).
func (e *engine) deniedUnder(pl place) (rule, bool) {
	if inside(e.ctx.Root, pl.clean) {
		return rule{}, false
	}
	icase := FoldsCase(runtime.GOOS)
	for _, r := range e.deny {
		if r.bad || !slices.Contains(r.kinds, agents.KindRead) || r.whole(agents.KindRead) {
			continue
		}
		for _, at := range [][2]string{{pl.clean, e.ctx.Root}, {pl.resolved, e.rootResolved()}} {
			deny, ok := e.patternAt(r.p.Arg, at[1])
			if !ok || at[0] == "" {
				continue
			}
			under := append(literalTokens(filepath.ToSlash(at[0])+"/", icase), globToken{set: anyByte, star: true})
			if meets(under, wildcardTokens(deny, icase)) {
				return r, true
			}
		}
	}
	return rule{}, false
}

// argPaths is what in an argument may name a file: the word, an
// option's value after '=', or a value glued to a short option (grep
// -rf.env, date -f.env): as bn does not know which letters of a group
// take a value, each tail of the group is taken as one.
func argPaths(a word) []string {
	var out []string
	for _, v := range a.vals {
		if strings.HasPrefix(v, "-") {
			if _, val, ok := strings.Cut(v, "="); ok && val != "" {
				out = append(out, val)
			}
			if !strings.HasPrefix(v, "--") {
				for i := 2; i < len(v); i++ {
					out = append(out, v[i:])
				}
			}
			continue
		}
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// globBudget bounds the directory entries one pattern's expansion
// visits: /*/*/*/*/*/* walks the whole disk, and a hook that does not
// answer in time is taken as not refusing. Past it the pattern is taken
// as naming any file.
const globBudget = 10000

// errTooMany says a pattern's expansion went past globBudget.
var errTooMany = errors.New("too many files to check")

// globbed is the files a pattern word matches in dir, or the word itself.
// Quoted pattern characters are matched as patterns too: a name too many
// is refused, never one too few. errTooMany when the expansion visits
// more than globBudget directory entries.
func (e *engine) globbed(name, dir string, glob bool) ([]string, error) {
	if !glob {
		return []string{name}, nil
	}
	pattern, ok := absolute(name, dir)
	if !ok {
		return nil, nil
	}
	matches, err := shellGlob(e.ctx.FS, pattern, globBudget)
	if errors.Is(err, errTooMany) {
		return nil, err
	}
	if err != nil {
		return []string{name}, nil
	}
	return matches, nil
}

// shellGlob is the files an absolute pattern names on fsys, as bash and
// zsh expand it by default: '*', '?' and a bracket never match a name's
// leading '.', which only a '.' written in the pattern matches (cat *
// does not name .env; cat .e* does). "." and ".." are taken as written,
// after the symlink before them as the kernel does. It stops with
// errTooMany past budget directories and entries read.
func shellGlob(fsys FS, pattern string, budget int) ([]string, error) {
	vol := filepath.VolumeName(pattern)
	cur := []string{vol + string(filepath.Separator)}
	comps := splitPath(pattern[len(vol):])
	for i, comp := range comps {
		var next []string
		for _, at := range cur {
			if budget--; budget < 0 {
				return nil, errTooMany
			}
			if (comp == "**" || comp == "***") && i < len(comps)-1 {
				// zsh's **/ is any number of directories, none too.
				var err error
				if next, budget, err = descend(fsys, at, next, budget); err != nil {
					return nil, err
				}
				continue
			}
			if !strings.ContainsAny(comp, "*?[") {
				if i == len(comps)-1 {
					if _, err := fsys.Lstat(under(at, comp)); err != nil {
						continue
					}
				}
				next = append(next, under(at, comp))
				continue
			}
			entries, err := fsys.ReadDir(at)
			if err != nil {
				continue // not a directory, or not there: no match
			}
			if budget -= len(entries); budget < 0 {
				return nil, errTooMany
			}
			for _, ent := range entries {
				n := ent.Name()
				if strings.HasPrefix(n, ".") && !strings.HasPrefix(comp, ".") {
					continue
				}
				ok, err := path.Match(matchPattern(comp), n)
				if err != nil {
					return nil, err
				}
				if ok {
					next = append(next, under(at, n))
				}
			}
		}
		cur = next
	}
	return cur, nil
}

// under is name in dir, not cleaned: "link/.." stays the parent of
// where link leads.
func under(dir, name string) string {
	return strings.TrimSuffix(dir, string(filepath.Separator)) + string(filepath.Separator) + name
}

// descend adds dir and every directory under it (but hidden ones, as
// zsh's ** passes them, and symlinks) to out, within budget.
func descend(fsys FS, dir string, out []string, budget int) ([]string, int, error) {
	out = append(out, dir)
	entries, err := fsys.ReadDir(dir)
	if err != nil {
		return out, budget, nil
	}
	if budget -= len(entries) + 1; budget < 0 {
		return nil, budget, errTooMany
	}
	for _, ent := range entries {
		if ent.IsDir() && !strings.HasPrefix(ent.Name(), ".") {
			if out, budget, err = descend(fsys, under(dir, ent.Name()), out, budget); err != nil {
				return nil, budget, err
			}
		}
	}
	return out, budget, nil
}

// matchPattern is a file name pattern as path.Match reads it: the
// shell's negated bracket [!…] as [^…], a backslash (a character of the
// name: the shell removed its own) escaped. A bracket path.Match does
// not read as the shell does (a POSIX class [:alpha:], [=v=], [.v.], a
// ']' first, a backslash), or one not closed, is matched as '*' up to the
// pattern's last ']': a name too many, never one too few.
func matchPattern(p string) string {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '\\':
			b.WriteString(`\\`)
		case '[':
			k := i + 1
			neg := k < len(p) && (p[k] == '!' || p[k] == '^')
			if neg {
				k++
			}
			end := strings.IndexByte(p[k:], ']')
			if end <= 0 || strings.ContainsAny(p[k:k+end], "[\\") {
				if last := strings.LastIndexByte(p, ']'); last > i {
					b.WriteByte('*')
					i = last
					continue
				}
				b.WriteString(`\[`) // not closed: a plain '['
				continue
			}
			b.WriteByte('[')
			if neg {
				b.WriteByte('^')
			}
			b.WriteString(p[k : k+end+1])
			i = k + end
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// wideBrackets writes each bracket of a fuzzy pattern's components as
// '*', from its first '[' to its last ']': a name too many, never one
// too few.
func wideBrackets(name string) string {
	parts := strings.Split(name, "/")
	for i, p := range parts {
		if j, k := strings.IndexByte(p, '['), strings.LastIndexByte(p, ']'); j >= 0 && k > j {
			parts[i] = p[:j] + "*" + p[k+1:]
		}
	}
	return strings.Join(parts, "/")
}

// deniesSomePaths reports whether a deny rule limits kind to some paths.
func (e *engine) deniesSomePaths(k agents.Kind) bool {
	return slices.ContainsFunc(e.deny, func(r rule) bool {
		return !r.bad && slices.Contains(r.kinds, k) && !r.whole(k)
	})
}

// pathDenied finds the deny rule of kind k, limited to paths, that names
// the file as written or as resolved, or another name of it (linked says
// which, as linkedDeny does; "" for a match of the name).
func (e *engine) pathDenied(k agents.Kind, pl place) (r rule, linked string, ok bool) {
	for _, r := range e.deny {
		if r.bad || !slices.Contains(r.kinds, k) || r.whole(k) {
			continue
		}
		if e.namesPlace(r, pl) {
			return r, "", true
		}
	}
	return e.linkedDeny(k, pl)
}

// namesPlace reports whether r's path names pl as written or as resolved
// (the repository's root resolved too, for the latter).
func (e *engine) namesPlace(r rule, pl place) bool {
	return e.pathMatches(r.p.Arg, pl.clean, e.ctx.Root) || pl.resolved != "" && e.pathMatches(r.p.Arg, pl.resolved, e.rootResolved())
}
