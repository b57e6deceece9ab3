package hookrules

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/enforce"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/resolver"
)

// Guard is what an agent under bn's hook may not change: every layer's
// files (project, system, session, and bn's cache of shared sources), the
// tool's files and settings that carry or govern its hooks (its agent
// files, their compiled rules, its settings), and bn itself (the program
// the hook runs, and a bn put earlier on PATH).
type Guard struct {
	root string // the repository root, symlinks resolved
	// paths resolves the guarded paths on first use: resolving every
	// hooked tool's files is an lstat per path segment, which a call that
	// writes nothing (most shell lines, every read) need not pay.
	paths func() []guarded
	// pathEntry is an empty or relative PATH entry before bn's own
	// directory: where it leads depends on the directory the hook runs
	// in, which the agent's cd may move, so a file named as bn's binary
	// (bnNames) is guarded wherever it is written.
	pathEntry string
	bnNames   []string
}

// guarded is one path under guard.
type guarded struct {
	path string // absolute, symlinks resolved
	what string // what it is, for the refusal
}

// Place is where a guard stands: the layers' paths, the home directory,
// the tool, the running bn (its path; empty: unknown) and PATH. Every
// hooked tool's files are guarded, not only the tool's: an agent limited
// under one tool's hook that rewrote another's agent files, compiled
// rules or settings would be unlimited in that tool's next session.
type Place struct {
	Paths resolver.Paths
	Home  string
	Tool  *dialect.Info
	Self  string
	PATH  string
	// PATHEXT is the extensions Windows runs a command name with (empty:
	// Windows' own default).
	PATHEXT string
	// Start is the directory the session started in (ProjectRoot),
	// symlinks resolved; empty: the repository root.
	Start string
	// Dir is the call's working directory (empty: unknown), from which
	// a relative PATH entry is placed too.
	Dir string
}

// Writes is the refusal of the first file a decided call writes that is
// under guard; empty when none is.
func (g Guard) Writes(d enforce.Decision, dir string, tools agents.Tools) string {
	for _, a := range d.Accesses {
		if !isEditKind(a.Kind) {
			continue
		}
		if why := g.AccessRefusal(a, dir, tools); why != "" {
			return why
		}
	}
	return ""
}

// NewGuard is the guard of a place.
func NewGuard(pl Place) Guard {
	g := Guard{root: pl.Paths.RepoRoot, paths: sync.OnceValue(func() []guarded { return guardedPaths(pl) })}
	if entry, ok := relativeEntry(pl); ok {
		g.pathEntry, g.bnNames = entry, commandNames("bn", pl.PATHEXT)
	}
	return g
}

// relativeEntry is the first empty or relative PATH entry before the
// directory of the bn the hook runs, if there is one.
func relativeEntry(pl Place) (string, bool) {
	entries := filepath.SplitList(pl.PATH)
	i := slices.IndexFunc(entries, func(dir string) bool { return dir == "" || !filepath.IsAbs(dir) })
	if pl.Self == "" || i < 0 {
		return "", false
	}
	// Only the absolute entries before the first relative one are
	// resolved: most PATHs have none, and each resolution stats every
	// directory of the entry, on every call the hook decides.
	selfDir := enforce.Resolve(filepath.Dir(pl.Self))
	for _, dir := range entries[:i] {
		if samePath(enforce.Resolve(dir), selfDir) {
			return "", false
		}
	}
	return entries[i], true
}

// guardedPaths are the paths a guard at pl holds, symlinks resolved.
func guardedPaths(pl Place) []guarded {
	var out []guarded
	add := func(path, what string) {
		if path != "" {
			out = append(out, guarded{enforce.Resolve(path), what})
		}
	}
	add(filepath.Join(pl.Paths.RepoRoot, ".binnacle"), "the project layer")
	add(pl.Paths.SystemDir, "the system layer")
	add(pl.Paths.SessionDir, "the session layer")
	add(pl.Paths.CacheDir, "bn's cache of shared sources")
	for _, d := range dialect.All() {
		t := d.Info()
		if t.Hook == nil {
			continue
		}
		for _, p := range t.Hook.Guard {
			if rest, ok := strings.CutPrefix(p, "~/"); ok {
				if pl.Home != "" {
					add(filepath.Join(pl.Home, filepath.FromSlash(rest)), t.Title+"'s settings in the home directory")
				}
				continue
			}
			add(filepath.Join(pl.Paths.RepoRoot, filepath.FromSlash(p)), t.Title+"'s files in the repository")
		}
	}
	// A .git made in the directory the session started in, or in one
	// between it and the root, would make that directory the project the
	// hook decides from (ProjectRoot), with rules of the agent's making.
	root := enforce.Resolve(pl.Paths.RepoRoot)
	for d := pl.Start; d != "" && within(root, d) && !samePath(root, d); d = filepath.Dir(d) {
		add(filepath.Join(d, ".git"), "a .git there would make its directory the project whose rules the hook decides from")
	}
	if pl.Self != "" {
		add(pl.Self, "bn, which the hook runs")
		// A bn made in a directory that comes before bn's own on PATH
		// would run in its place.
		names := commandNames("bn", pl.PATHEXT)
		selfDir := enforce.Resolve(filepath.Dir(pl.Self))
		for _, dir := range filepath.SplitList(pl.PATH) {
			places, what := []string{dir}, "a bn earlier on PATH than the one the hook runs"
			if dir == "" || !filepath.IsAbs(dir) {
				what = fmt.Sprintf("a bn where PATH's entry %q leads, found from the directory the hook runs in, before the one the hook runs", dir)
				// Looked up from the directory the hook runs in: placed
				// from the root, where the session started and the
				// call's directory (Guard.bnNames guards the name).
				places = nil
				for _, base := range []string{pl.Paths.RepoRoot, pl.Start, pl.Dir} {
					if base != "" {
						places = append(places, filepath.Join(base, dir))
					}
				}
			} else if samePath(enforce.Resolve(dir), selfDir) {
				break
			}
			for _, p := range places {
				for _, name := range names {
					add(filepath.Join(p, name), what)
				}
			}
		}
	}
	return out
}

// commandNames are the file names a shell may run for the command name:
// the name itself (a script, as Git Bash runs it on Windows too), and on
// Windows the name with each extension of pathext, as cmd and PowerShell
// look it up.
func commandNames(name, pathext string) []string {
	names := []string{name}
	if runtime.GOOS != "windows" {
		return names
	}
	if pathext == "" {
		pathext = ".COM;.EXE;.BAT;.CMD"
	}
	for _, ext := range filepath.SplitList(pathext) {
		if strings.HasPrefix(ext, ".") && len(ext) > 1 {
			names = append(names, name+strings.ToLower(ext))
		}
	}
	return names
}

// Refusal says why a change of path (absolute, or relative to dir) by a
// tool use of kind is refused: the path, its symlinks resolved, is under
// guard, and no allow rule of that kind whose literal prefix names the
// guarded path (edit(.binnacle/agents/**), not edit(**)) matches it.
// Empty when the change may go on to the rules.
func (g Guard) Refusal(path, dir string, kind agents.Kind, tools agents.Tools) string {
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, filepath.FromSlash(path))
	}
	real := enforce.Resolve(path)
	shown := g.rel(filepath.Clean(path))
	if real != filepath.Clean(path) {
		shown += " (" + g.rel(real) + ")"
	}
	return g.refusal(shown, real, kind, tools)
}

// AccessRefusal is Refusal for a file a call writes, where the call
// would write it: a shell line's path as the shell resolves it after the
// line's cd and pushd (Access.Resolved). A write bn cannot place (a name
// made when the line runs, a relative path after a cd bn cannot follow)
// may land on what defines or enforces the agent, so it is refused.
func (g Guard) AccessRefusal(a enforce.Access, dir string, tools agents.Tools) string {
	switch {
	case a.Defines != "":
		return "it runs " + a.Defines
	case a.Resolved != "" && (a.Tree || a.Removes):
		if why := g.refusal(a.Path, a.Resolved, a.Kind, tools); why != "" {
			return why
		}
		for _, p := range g.paths() {
			if !within(a.Resolved, p.path) {
				continue
			}
			if a.Removes {
				// The project itself or a directory above it: what takes
				// its place defines the agent.
				return "it removes or moves " + a.Path + " (" + g.rel(a.Resolved) + "), which holds " + g.rel(p.path) + ", part of what defines or enforces the agent (" + p.what + "): under bn's hook an agent may not remove or replace it; remove or move the files below it that it may change"
			}
			return "it writes every file under " + a.Path + ", and " + g.rel(p.path) + " there is part of what defines or enforces the agent (" + p.what + "): under bn's hook an agent may not change it; " + cmp.Or(a.Fix, "name the files it may change")
		}
		return ""
	case a.Resolved != "":
		shown := a.Path
		if rel := g.rel(a.Resolved); rel != filepath.ToSlash(filepath.Clean(a.Path)) {
			shown += " (" + rel + ")"
		}
		return g.refusal(shown, a.Resolved, a.Kind, tools)
	case a.Linked != "":
		if a.ResolvedNow != "" {
			// Refused where it leads through the links there are now:
			// say that, it holds in any order the line runs.
			now := a
			now.Resolved, now.ResolvedNow, now.Linked, now.Unknown = a.ResolvedNow, "", "", ""
			if why := g.AccessRefusal(now, dir, tools); why != "" {
				return why
			}
		}
		if a.LinkIn {
			return fmt.Sprintf("it writes %s, and the line may bring a link in (%s): it copies, moves, unpacks or checks out files that may be symlinks, and bn resolves only the links that exist when it decides, so the write may go through one to what defines or enforces the agent, which under bn's hook an agent may not change; "+
				"split the line in two: run %s in a line of its own, then write", a.Path, a.Linked, a.Linked)
		}
		return fmt.Sprintf("it writes %s, and the line also makes a link (%s): bn resolves only the links that exist when it decides, so the write may go through the new one to what defines or enforces the agent, which under bn's hook an agent may not change; "+
			"make the link in a line of its own, then write", a.Path, a.Linked)
	case a.Unknown != "":
		return fmt.Sprintf("it writes %s, and bn cannot tell where (%s), so it may change what defines or enforces the agent, which under bn's hook an agent may not change; %s", a.Path, a.Unknown,
			cmp.Or(a.Fix, "write the path itself, from the repository root or as an absolute path, without a cd bn cannot follow"))
	}
	return g.Refusal(a.Path, dir, a.Kind, tools)
}

// nestedWhat says what a repository nested in the project is, for the
// refusal.
const nestedWhat = "a repository nested in the project, whose configuration git run at the root follows once it is linked as a submodule: git diff and git status run its core.fsmonitor"

// refusal is Refusal of the resolved path real, shown as shown. A
// repository nested in the project (enforce.NestedGit) is under guard
// too.
func (g Guard) refusal(shown, real string, kind agents.Kind, tools agents.Tools) string {
	paths := g.paths()
	if n := enforce.NestedGit(enforce.Resolve(g.root), real); n != "" {
		paths = append(slices.Clip(paths), guarded{n, nestedWhat})
	}
	for _, p := range paths {
		if !within(p.path, real) {
			continue
		}
		if g.allows(p, real, kind, tools) {
			return ""
		}
		example := g.rel(p.path)
		if fi, err := os.Stat(p.path); err == nil && fi.IsDir() {
			example += "/**"
		}
		return shown + " is part of what defines or enforces the agent (" + p.what + "): under bn's hook an agent may not change it. " +
			"To let it, give it an allow rule that names that path, such as " + string(kind) + "(" + example + ")"
	}
	if base := filepath.Base(real); slices.ContainsFunc(g.bnNames, func(n string) bool { return strings.EqualFold(n, base) }) {
		return fmt.Sprintf("%s is named as bn's binary, and PATH holds %q before the directory of the bn the hook runs: an entry found from the directory the hook runs in, which the agent's cd may move, so a bn written there may run in place of the hook's; "+
			"under bn's hook an agent may not write a file of that name. Give PATH absolute entries only where the agent's client starts", shown, g.pathEntry)
	}
	if link := g.hardLinked(real); link != "" {
		return g.refusal(shown+", a hard link of "+g.rel(link)+",", link, kind, tools)
	}
	return ""
}

// hardLinked is the guarded file that real, an existing regular file
// under no guarded path, is another name of (a hard link): a write
// through it changes that file. Empty when it is none. Only a file with
// more than one name is looked for, since that walks every guarded path.
func (g Guard) hardLinked(real string) string {
	fi, err := os.Stat(real)
	if err != nil || enforce.HardLinks(fi) < 2 {
		return ""
	}
	for _, p := range g.paths() {
		hit := ""
		_ = filepath.WalkDir(p.path, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return nil
			}
			if o, err := d.Info(); err == nil && os.SameFile(fi, o) {
				hit = path
				return filepath.SkipAll
			}
			return nil
		})
		if hit != "" {
			return hit
		}
	}
	return ""
}

// allows says whether an allow rule of kind whose literal prefix lies in
// the guarded path matches real.
func (g Guard) allows(p guarded, real string, kind agents.Kind, tools agents.Tools) bool {
	req := agents.ToolPattern{Kind: string(kind), Arg: g.rel(real), HasArg: true}
	for _, r := range g.naming(tools, func(k agents.Kind) bool { return k == kind }) {
		if within(p.path, r.lit) && r.rule.Matches(req) {
			return true
		}
	}
	return false
}

// Exceptions are the allow rules of a definition that let an agent under
// a hook of the tool edit part of what defines or enforces it in the
// repository at root: what export reports.
func Exceptions(root string, info *dialect.Info, tools agents.Tools) []string {
	g := NewGuard(Place{Paths: resolver.Paths{RepoRoot: root}, Tool: info})
	var out []string
	for _, r := range g.naming(tools, isEditKind) {
		if slices.ContainsFunc(g.paths(), func(p guarded) bool { return within(p.path, r.lit) }) {
			out = append(out, r.text)
		}
	}
	return out
}

// named is an allow rule that names a path: its text, the rule, and its
// literal prefix as an absolute path, symlinks resolved.
type named struct {
	text string
	rule agents.ToolPattern
	lit  string
}

// naming are the allow rules of a kind that fits whose argument starts
// with a literal path (not "**").
func (g Guard) naming(tools agents.Tools, fits func(agents.Kind) bool) []named {
	var out []named
	for _, a := range tools.Allow {
		rule, err := agents.ParseToolPattern(a)
		if err != nil || !rule.HasArg || !slices.ContainsFunc(agents.KindsOf(rule.Kind), fits) {
			continue
		}
		lit := enforce.LiteralPrefix(rule.Arg)
		if lit == "" {
			continue
		}
		if !filepath.IsAbs(filepath.FromSlash(lit)) {
			lit = filepath.Join(g.root, filepath.FromSlash(lit))
		}
		out = append(out, named{a, rule, enforce.Resolve(lit)})
	}
	return out
}

// EditKinds are the kinds that change files.
var EditKinds = []agents.Kind{agents.KindEdit, agents.KindCreate, agents.KindNotebook}

func isEditKind(k agents.Kind) bool { return slices.Contains(EditKinds, k) }

// rel is path relative to the repository root, with forward slashes,
// when it is inside it; else path itself.
func (g Guard) rel(path string) string {
	if r, err := filepath.Rel(g.root, path); err == nil && r != ".." && !strings.HasPrefix(r, ".."+string(filepath.Separator)) && !filepath.IsAbs(r) {
		return filepath.ToSlash(r)
	}
	return filepath.ToSlash(path)
}

// within says whether p is dir or below it, without case where the file
// system ignores it (.BINNACLE is .binnacle on macOS and Windows).
func within(dir, p string) bool { return withinFold(dir, p, enforce.FoldsCase(runtime.GOOS)) }

// samePath says whether two clean paths name the same place.
func samePath(a, b string) bool { return within(a, b) && within(b, a) }

func withinFold(dir, p string, fold bool) bool {
	if fold {
		dir, p = strings.ToLower(dir), strings.ToLower(p)
	}
	return files.Within(dir, p)
}

// AnyToolGuard is the guard check and the MCP server apply, which answer
// for no one tool: every layer's files and every hooked tool's files and
// settings, as a hook guards them. (The bn a hook runs is the hook's to
// guard: it knows it.)
func AnyToolGuard(paths resolver.Paths, home string) Guard {
	return NewGuard(Place{Paths: paths, Home: home})
}
