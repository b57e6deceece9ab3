package enforce

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/binnacle-dev/bn/agents"
)

// Programs that write files whose names their input holds (an archive,
// a patch), which bn does not know before the line runs: they are taken
// to write anywhere under the directory they write in (the working
// directory, or the one -C or -d names). The hook's guard refuses that
// when the directory is, or holds, what defines or enforces the agent;
// where the rules limit what the agent may change, it is refused unless
// they allow the whole directory. One that may write outside it (tar -P,
// cpio without --no-absolute-filenames) writes where bn cannot place.

// unpack is where one run of such a program writes.
type unpack struct {
	writes bool
	// dirs are the directories it writes under; none: the working
	// directory.
	dirs []word
	// anywhere says why it may write outside them; "" when it does not.
	anywhere string
	// removes: it removes files under them too (rsync --delete, find
	// -delete), which takes with them what defines the agent there.
	removes bool
	// format is what it reads the names from (tar, zip, patch, cpio, 7z),
	// source the file (nil: standard input), read for a .git entry
	// (nestedGit).
	format string
	source *word
	// remote says why it may reach an archive on another host (tar -f
	// HOST:FILE runs rsh); "" when it does not.
	remote string
}

// remoteArchive: GNU tar and cpio take an archive name with a colon
// before any slash ([USER@]HOST:FILE) as one on another host, which they
// reach by running rsh (or --rsh-command's program), unless
// --force-local; a name not known before the line runs may be one.
func remoteArchive(v word, fs []found) bool {
	host, _, remote := strings.Cut(v.value(), ":")
	return !slices.ContainsFunc(fs, func(f found) bool { return f.o.long == "force-local" }) &&
		(!v.static() || remote && !strings.Contains(host, "/"))
}

// tarUnpack: tar -x (--extract, --get, the old style "xf") writes its
// members under -C (each -C relative to the one before), leading "/"
// and ".." stripped unless -P. With its mode not known (an argument not
// known now may be -x), it may write anywhere.
func tarUnpack(p *program, args []word) unpack {
	var u unpack
	fs, _, maybe := p.args(args)
	mode, dir := false, "."
	u.format = "tar"
	for _, f := range fs {
		if f.o.short == 'f' && f.has && remoteArchive(f.value, fs) {
			known := map[bool]string{false: " is not known before the line runs and"}[f.value.static()]
			u.remote = fmt.Sprintf("tar %s %s%s may name an archive on another host, which tar reaches by running rsh (or --rsh-command's program); bn refuses it under patterns (--force-local reads a local file, as does writing the name as ./FILE)", strings.SplitN(f.src, "=", 2)[0], f.value.src, known)
		}
	}
	for _, f := range fs {
		switch {
		case f.o.short == 'f' && f.has && !(f.value.static() && f.value.value() == "-"):
			u.source = &f.value
		case f.o.short == 'x' || f.o.long == "get":
			u.writes, mode = true, true
		case strings.ContainsRune("ctrudA", rune(f.o.short)) && f.o.short != 0:
			mode = true
		case f.o.short == 'O':
			return unpack{remote: u.remote} // to standard output
		case f.o.short == 'P':
			u.anywhere = "tar -P (--absolute-names) writes the absolute paths and the .. its archive names"
		case f.o.long == "transform" || f.o.long == "xform" || f.o.long == "one-top-level":
			// The names written are not those the archive holds, so
			// reading it says nothing of them (a .git among them).
			u.anywhere = fmt.Sprintf("tar %s renames the members it writes, so bn cannot tell from the archive where they land (a .git among them); extract without it, then rename", strings.SplitN(f.src, "=", 2)[0])
		case f.o.short == 'C' && f.has:
			if !f.value.static() {
				u.dirs = append(u.dirs, f.value)
				continue
			}
			if filepath.IsAbs(f.value.value()) {
				dir = f.value.value()
			} else {
				dir = filepath.Join(dir, f.value.value())
			}
			u.dirs = append(u.dirs, literal(dir))
		}
	}
	if !mode && len(maybe) > 0 {
		return unpack{writes: true, remote: u.remote, anywhere: fmt.Sprintf("the argument %s of tar is not known before the line runs and may be -x with -P", maybe[0].src)}
	}
	return u
}

// unzipUnpack: unzip writes its members under -d (or the working
// directory) unless it lists, tests or prints them; "/" and "../" are
// stripped unless -: is given.
func unzipUnpack(p *program, args []word) unpack {
	fs, ops, maybe := parseOpts(p.options(), args, false)
	u := unpack{writes: true, format: "zip"}
	if len(ops) > 0 {
		u.source = &ops[0]
	}
	for _, f := range fs {
		switch f.o.short {
		case 'l', 'v', 't', 'p', 'c', 'z', 'Z':
			return unpack{}
		case ':':
			u.anywhere = "unzip -: writes the absolute paths and the ../ its archive names"
		case 'd':
			if f.has {
				u.dirs = append(u.dirs, f.value)
			}
		}
	}
	if len(maybe) > 0 {
		u.anywhere = fmt.Sprintf("the argument %s of unzip is not known before the line runs and may be -:", maybe[0].src)
	}
	return u
}

// cpioUnpack: cpio -i writes its archive's members under -D (absolute
// paths and .. too, unless --no-absolute-filenames); cpio -p copies the
// files its input names under its directory, .. included.
func cpioUnpack(p *program, args []word) unpack {
	fs, _, maybe := parseOpts(p.options(), args, false)
	var u unpack
	in, pass, list, safe := false, false, false, false
	for _, f := range fs {
		switch {
		case f.o.short == 'i':
			in = true
		case f.o.short == 'p':
			pass = true
		case f.o.short == 't':
			list = true
		case f.o.long == "no-absolute-filenames":
			safe = true
		case f.o.short == 'D' && f.has:
			u.dirs = append(u.dirs, f.value)
		}
	}
	switch {
	case len(maybe) > 0:
		return unpack{writes: true, anywhere: fmt.Sprintf("the argument %s of cpio is not known before the line runs and may be -i or -p", maybe[0].src)}
	case pass:
		return unpack{writes: true, anywhere: "cpio -p copies the files its input names, .. included, under its directory"}
	case in && !list && !safe:
		return unpack{writes: true, anywhere: "cpio -i writes the absolute paths and the .. its archive names (unless --no-absolute-filenames)"}
	case in && !list:
		u.writes, u.format = true, "cpio"
	}
	return u
}

// cpioCall decides, under patterns, the archive cpio writes (-O, or -F
// with -o) or reads (-I, or -F with -i or -t) and its -E pattern file,
// and refuses an archive on another host ([USER@]HOST:FILE, unless
// --force-local), which cpio reaches by running rsh or --rsh-command's
// program. What it unpacks, and -F's file for the hook's guard, are
// recorded as any unpacker's (argWrites). Under a shell allowed whole,
// the deny rules see --rsh-command's program, and an archive on another
// host is refused beside them, as ssh is.
func cpioCall(w *walker, c call) {
	p := w.e.programs["cpio"]
	fs, _, maybe := parseOpts(p.options(), c.args, false)
	if w.mode != limited {
		w.optionsRun(c, fs)
		for _, f := range fs {
			if f.has && strings.ContainsRune("FIO", rune(f.o.short)) && remoteArchive(f.value, fs) && len(w.denyRules()) > 0 && !w.stopped() {
				w.refuse(refused(c.text, "cpio %s %s may name an archive on another host, which cpio reaches by running rsh (or --rsh-command's program), which runs commands there that bn cannot check against %s; give the archive as ./FILE, or add --force-local", spelt(f), f.value.src, w.holds()))
			}
		}
		return
	}
	if len(maybe) > 0 {
		w.refuse(refused(c.text, "the argument %s is not known before the line runs and may be a cpio option (some of which run programs or write files); write it out", maybe[0].src))
		return
	}
	if !w.options(c, fs) {
		return
	}
	create := slices.ContainsFunc(fs, func(f found) bool { return f.o.short == 'o' })
	for _, f := range fs {
		if !f.has || !strings.ContainsRune("FIO", rune(f.o.short)) {
			continue
		}
		if remoteArchive(f.value, fs) {
			w.refuse(refused(c.text, "cpio %s %s may name an archive on another host, which cpio reaches by running rsh; bn refuses it under patterns (--force-local reads a local file)", strings.SplitN(f.src, "=", 2)[0], f.value.src))
			return
		}
		switch {
		case f.o.short == 'F' && create:
			w.writeArg(c.text, "cpio "+strings.SplitN(f.src, "=", 2)[0], agents.KindCreate, f.value, c.d)
		case f.o.short != 'O':
			w.readArg(c, "cpio "+strings.SplitN(f.src, "=", 2)[0], f.value)
		}
		if w.stopped() {
			return
		}
	}
	for _, f := range fs {
		if f.o.short == 'E' && f.has {
			w.readArg(c, "cpio "+strings.SplitN(f.src, "=", 2)[0], f.value)
		}
	}
}

// sevenZipUnpack: 7z x and 7z e write an archive's members under -oDIR;
// -spf keeps the absolute paths it names.
func sevenZipUnpack(_ *program, args []word) unpack {
	var u unpack
	command := ""
	for _, a := range args {
		v := a.value()
		switch {
		case !a.static():
			if a.option || command == "" {
				return unpack{writes: true, anywhere: fmt.Sprintf("the argument %s of 7z is not known before the line runs and may be its command or -spf", a.src)}
			}
		case strings.HasPrefix(v, "-o"):
			u.dirs = append(u.dirs, literal(v[2:]))
		case strings.HasPrefix(v, "-spf"):
			u.anywhere = "7z -spf writes the absolute paths its archive names"
		case strings.HasPrefix(v, "-"):
		case command == "":
			command = v
		}
	}
	u.writes, u.format = command == "x" || command == "e", "7z"
	return u
}

// patchUnpack: patch writes the files its patch names under -d (or the
// working directory), unless it is given the file to patch, writes to -o,
// or only checks (--dry-run); a backup prefix (-B, -Y) may name any
// directory.
func patchUnpack(p *program, args []word) unpack {
	fs, ops, maybe := parseOpts(p.options(), args, false)
	u := unpack{writes: true, format: "patch"}
	for _, f := range fs {
		switch {
		case f.o.short == 'i' && f.has && !(f.value.static() && f.value.value() == "-"):
			u.source = &f.value
		case f.o.long == "dry-run" || f.o.short == 'o':
			return unpack{}
		case f.o.short == 'B' || f.o.short == 'Y':
			u.anywhere = fmt.Sprintf("patch %s names a prefix for backups, which may lead anywhere", f.src)
		case f.o.short == 'd' && f.has:
			u.dirs = append(u.dirs, f.value)
		}
	}
	if len(maybe) > 0 {
		u.anywhere = fmt.Sprintf("the argument %s of patch is not known before the line runs and may name where it writes", maybe[0].src)
	}
	if len(ops) > 0 && u.anywhere == "" {
		return unpack{} // the file it patches, an operand argWrites sees
	}
	// patch changes to -d's directory first, and opens -i's file there.
	if len(u.dirs) > 0 && u.source != nil && !(u.source.static() && filepath.IsAbs(u.source.value())) {
		in := u.dirs[len(u.dirs)-1]
		if in.static() && u.source.static() {
			in = literal(filepath.Join(in.value(), u.source.value()))
		}
		u.source = &in
	}
	return u
}

// unpacked decides what a program writes under a directory (unpack):
// refused where the rules limit what the agent may change there,
// recorded for the hook's guard as a write of every file under it
// otherwise.
func (w *walker) unpacked(text, name string, u unpack, d dirs) {
	c := call{text: text, name: name, d: d}
	defer func() {
		if w.mode == limited && u.format != "" && !w.stopped() {
			if why := w.nestedGit(name, u, d); why != "" {
				w.refuse(refused(text, "%s", why))
			}
		}
	}()
	if u.anywhere != "" {
		w.unplaced(c, u.anywhere)
		return
	}
	targets := u.dirs
	if len(targets) == 0 {
		targets = []word{literal(".")}
	}
	for _, t := range targets {
		if !t.static() {
			if !w.unplaced(c, fmt.Sprintf("%s writes files under %s, a directory not known before the line runs", name, t.src)) {
				return
			}
			continue
		}
		for _, dir := range d.at {
			if dir == "" && !filepath.IsAbs(t.value()) {
				if !w.unplaced(c, fmt.Sprintf("%s writes files under %s, a relative path after a cd bn cannot follow", name, t.value())) {
					return
				}
				continue
			}
			pl, err := w.e.locate(t.value(), dir)
			if err != nil {
				w.refuse(refused(text, "bn could not resolve %s (%v), so %s is refused", t.value(), err, name))
				return
			}
			if (w.e.limits(agents.KindEdit) || w.e.limits(agents.KindCreate)) && !w.e.wholeDir(pl) {
				if u.removes {
					w.refuse(refused(text, "%s removes files anywhere under %s, which bn does not list before the line runs, and the rules do not let the agent change every file there; run it on a directory the rules allow whole, or remove the files one by one", name, t.value()))
				} else {
					w.refuse(refused(text, "%s writes files its input names anywhere under %s, which bn does not list before the line runs, and the rules do not let the agent change every file there; run it in a directory the rules allow whole (-C or -d DIR), or write the files one by one", name, t.value()))
				}
				return
			}
			if !u.removes && !w.linkedOut(c, t.value(), pl) {
				return
			}
			w.accesses = append(w.accesses, Access{Kind: agents.KindEdit, Path: t.value(), Resolved: pl.resolved, Tree: true, Removes: u.removes})
		}
	}
}

// linkedOut holds an unpacker writing under dir (pl) to where the
// symlinks there lead out of it (linksOut): under rules that limit
// writes, each place must be one the agent may change whole; otherwise
// it is recorded for the hook's guard as a write of every file there.
// false when it refused.
func (w *walker) linkedOut(c call, dir string, pl place) bool {
	links, to, over := linksOut(w.e.ctx.FS, pl.resolved, w.e.ctx.treeTime)
	if over != "" {
		return w.unplaced(c, fmt.Sprintf("%s writes files under %s, which holds %s, and a symlink among them may lead out of it", c.name, dir, over))
	}
	const fix = "unpack in a directory no symlink leads out of"
	for i, rel := range links {
		link := filepath.Join(dir, rel)
		if to[i] == "" {
			if !w.unplaced(c, fmt.Sprintf("%s writes files under %s, and %s there is a symlink bn cannot resolve, through which they may land anywhere", c.name, dir, link)) {
				return false
			}
			continue
		}
		lp := place{written: link, clean: filepath.Join(pl.clean, rel), resolved: to[i], exists: true}
		if (w.e.limits(agents.KindEdit) || w.e.limits(agents.KindCreate)) && !w.e.wholeDir(lp) {
			w.refuse(refused(c.text, "%s writes files its input names under %s, and %s there is a symlink to %s: a file written under it lands there, and the rules do not let the agent change every file there; %s", c.name, dir, link, to[i], fix))
			return false
		}
		w.accesses = append(w.accesses, Access{Kind: agents.KindEdit, Path: link, Resolved: to[i], Tree: true, Fix: fix})
	}
	return true
}

// rsyncUnpack: rsync --delete (and its kin) removes what its destination
// holds beyond what it copies, --remove-source-files the files it copies
// from its sources: a removal of every file under them. An argument not
// known now may be one of them. A remote path is not here.
func rsyncUnpack(p *program, args []word) unpack {
	_, ops, maybe := parseOpts(p.options(), args, false)
	del, src := len(maybe) > 0, len(maybe) > 0
	for _, a := range args {
		if a.static() && a.value() == "--" {
			break
		}
		switch v := a.value(); {
		case !a.static():
		case v == "--remove-source-files":
			src = true
		case v == "--del" || strings.HasPrefix(v, "--delete"): // --delete-after, --delete-excluded, …
			del = true
		}
	}
	if len(ops) < 2 || !del && !src {
		return unpack{}
	}
	u := unpack{writes: true, removes: true}
	if del {
		u.dirs = append(u.dirs, ops[len(ops)-1])
	}
	if src {
		u.dirs = append(u.dirs, ops[:len(ops)-1]...)
	}
	u.dirs = slices.DeleteFunc(u.dirs, func(x word) bool { return x.static() && strings.Contains(x.value(), ":") })
	if len(u.dirs) == 0 {
		return unpack{}
	}
	return u
}

// unplaced is a write bn cannot place (unnamedWrite).
func (w *walker) unplaced(c call, why string) bool {
	return w.unnamedWrite(c, why, "files", "write the files one by one, where the rules allow them")
}

// unnamedWrite is a write of files bn cannot name (what they are, for
// the guard's record): refused where the rules limit what the agent may
// edit or create, with fix, recorded for the hook's guard (which refuses
// it) otherwise. false when it refused.
func (w *walker) unnamedWrite(c call, why, what, fix string) bool {
	if w.e.limits(agents.KindEdit) || w.e.limits(agents.KindCreate) {
		w.refuse(refused(c.text, "%s, and the rules limit what the agent may change; %s", why, fix))
		return false
	}
	w.accesses = append(w.accesses, Access{Kind: agents.KindEdit, Path: what, Unknown: why})
	return true
}

// wholeDir reports whether the rules let the agent edit and create every
// file under a directory: an allow rule matches any name in it, and no
// deny rule names a path in it.
func (e *engine) wholeDir(pl place) bool {
	const name = "\x00" // in no pattern: only a '*' matches it
	probe := place{written: pl.written, clean: filepath.Join(pl.clean, name), resolved: filepath.Join(pl.resolved, name)}
	for _, k := range []agents.Kind{agents.KindEdit, agents.KindCreate} {
		if !e.access(k, probe).Allowed {
			return false
		}
		for _, r := range e.deny {
			if !slices.Contains(r.kinds, k) {
				continue
			}
			lit := r.p.Arg
			if i := strings.IndexAny(lit, "*?[{~"); i >= 0 {
				lit = lit[:i]
			}
			abs, ok := absolute(filepath.FromSlash(lit), e.ctx.Root)
			if !ok || lit == "" || inside(filepath.Clean(abs), pl.clean) || inside(filepath.Clean(abs), pl.resolved) {
				return false
			}
		}
	}
	return true
}

// copied records, for the hook's guard, where cp, mv and rsync put what
// they copy (destinations). Each is a write of every file under it:
// copying a directory onto one that holds what defines the agent
// changes it.
func (w *walker) copied(name string, fs []found, ops []word, d dirs) {
	recursive := name == "mv" || slices.ContainsFunc(fs, func(f found) bool {
		return f.o.short != 0 && strings.IndexByte("rRa", f.o.short) >= 0 || f.o.long == "recursive" || f.o.long == "archive"
	})
	ts, _ := w.destinations(name, fs, ops, d)
	for _, t := range ts {
		w.accesses = append(w.accesses, Access{Kind: agents.KindEdit, Path: t.path, Resolved: t.resolved, Tree: true})
		if recursive && t.src != nil && !(name == "rsync" && excludesGit(fs)) {
			w.copiedGit(*t.src, t)
		}
	}
}

// excludesGit: rsync's --exclude=.git leaves out every file or directory
// named .git, at any depth; an --include, --filter or -F before or after
// it may bring one back, so it counts only alone.
func excludesGit(fs []found) bool {
	excluded := false
	for _, f := range fs {
		switch {
		case f.o.long == "exclude" && f.has && f.value.static() && f.value.value() == ".git":
			excluded = true
		case f.o.long == "include" || f.o.long == "include-from" || f.o.long == "filter" || f.o.short == 'f' || f.o.short == 'F':
			return false
		}
	}
	return excluded
}

// copiedGit records, for the hook's guard, the .git a copy of src brings
// to t inside the project: a repository nested there (NestedGit), whose
// configuration names programs git runs. A source with more entries than
// bn reads (findGit) is a write it cannot place.
func (w *walker) copiedGit(src word, t destination) {
	root := w.e.rootResolved()
	if !src.static() || root == "" || !inside(t.resolved, root) {
		return
	}
	pl, err := w.e.locate(src.value(), t.dir)
	if err != nil || pl.resolved == "" {
		return
	}
	switch rel, over := findGit(w.e.ctx.FS, pl.resolved, w.e.ctx.treeTime); {
	case over != "":
		w.accesses = append(w.accesses, Access{Kind: agents.KindCreate, Path: t.path,
			Unknown: fmt.Sprintf("it copies %s, which holds %s, and bn cannot tell whether one is a .git, which would make a repository nested in the project", src.src, over),
			Fix:     "copy a narrower directory, or leave .git out (rsync -a --exclude=.git SRC DEST)"})
	case rel != "":
		w.accesses = append(w.accesses, Access{Kind: agents.KindCreate, Path: filepath.Join(t.path, rel), Resolved: filepath.Join(t.resolved, rel)})
	}
}

// findGit is the path under dir of its first .git (a directory or a
// file: a worktree's); over as walkTree's.
func findGit(fsys FS, dir string, limit time.Duration) (rel, over string) {
	over = walkTree(fsys, dir, limit, func(at string, e fs.DirEntry) bool {
		if isDotGit(e.Name()) {
			rel = at
			return true
		}
		return false
	})
	return rel, over
}

// linksOut are the symlinks under dir (their paths under dir) that lead
// out of it, with where each leads ("" where bn cannot resolve it): a
// member an unpacker writes under one (tar x of l/f over a link l made
// by an earlier call) lands there, a path no name in the archive shows;
// over as walkTree's.
func linksOut(fsys FS, dir string, limit time.Duration) (links, to []string, over string) {
	over = walkTree(fsys, dir, limit, func(at string, e fs.DirEntry) bool {
		if e.Type()&fs.ModeSymlink == 0 {
			return false
		}
		r, _, err := resolve(fsys, filepath.Join(dir, at))
		if err != nil {
			r = ""
		}
		if r == "" || !inside(r, dir) {
			links, to = append(links, at), append(to, r)
		}
		return false
	})
	return links, to, over
}

// walkTree calls visit with each entry under dir (its path under dir),
// read breadth first, until visit returns true, up to globBudget entries
// and limit (0: a second, as the hook decides before each call runs);
// over says how much more dir holds when bn did not read it all ("" when
// it did).
func walkTree(fsys FS, dir string, limit time.Duration, visit func(at string, e fs.DirEntry) bool) (over string) {
	if limit == 0 {
		limit = time.Second
	}
	queue := []string{""}
	budget := globBudget
	deadline := time.Now().Add(limit)
	for len(queue) > 0 {
		if time.Now().After(deadline) {
			return fmt.Sprintf("more entries than bn reads in %s", limit)
		}
		at := queue[0]
		queue = queue[1:]
		entries, err := fsys.ReadDir(filepath.Join(dir, at))
		if err != nil {
			continue // a file, or one bn cannot list: cp cannot either
		}
		for _, e := range entries {
			if budget--; budget < 0 {
				return fmt.Sprintf("more than %d entries, more than bn reads", globBudget)
			}
			if visit(filepath.Join(at, e.Name()), e) {
				return ""
			}
			if e.IsDir() {
				queue = append(queue, filepath.Join(at, e.Name()))
			}
		}
	}
	return ""
}

// destination is where a copy lands: its path as written, resolved, and
// the directory it is relative to; src is the source that lands there
// whole (nil: several, or none bn can name); at is what lstat says is
// there now (nil: nothing).
type destination struct {
	path, resolved, dir string
	src                 *word
	at                  os.FileInfo
}

// destinations are where cp, mv, rsync, ln and install put each source:
// under the target directory (the last operand, or -t's) by its base
// name (a source ending in "/." or, for rsync, "/" puts what it holds in
// the target itself), or the target itself (-T, one source onto a path
// that is not a directory); ln with one operand links it here by its
// base name. A name not known now, a remote one, or one after a cd bn
// cannot follow is none: its operand is recorded as bn cannot place it,
// and unplaced says why (the first such).
func (w *walker) destinations(name string, fs []found, ops []word, d dirs) (out []destination, unplaced string) {
	var dest *word
	noTarget := false
	for i, f := range fs {
		switch f.o.long {
		case "target-directory":
			if f.has {
				dest = &fs[i].value
			}
		case "no-target-directory":
			noTarget = true
		}
	}
	srcs := ops
	switch {
	case dest != nil:
	case len(ops) == 1 && name == "ln":
		here := literal(".")
		dest = &here
	case len(ops) < 2:
		return nil, ""
	default:
		dest, srcs = &ops[len(ops)-1], ops[:len(ops)-1]
	}
	unknown := func(what string) {
		if unplaced == "" {
			unplaced = fmt.Sprintf("%s, which bn cannot look at before the line runs", what)
		}
	}
	if !dest.static() || strings.Contains(dest.value(), ":") && name == "rsync" {
		unknown(dest.src)
		return nil, unplaced
	}
	for _, dir := range d.at {
		pl, err := w.e.locate(dest.value(), dir)
		if dir == "" && !filepath.IsAbs(dest.value()) || err != nil {
			unknown(dest.src)
			continue
		}
		fi, err := w.e.ctx.FS.Lstat(pl.resolved)
		into := err == nil && fi.IsDir() && !noTarget
		if !into {
			var one *word
			if len(srcs) == 1 {
				one = &srcs[0]
			}
			out = append(out, destination{dest.value(), pl.resolved, dir, one, w.lstat(pl)})
			continue
		}
		for i, s := range srcs {
			base := filepath.Base(filepath.FromSlash(s.value()))
			if !s.static() {
				unknown(filepath.Join(dest.value(), s.src))
			}
			if !s.static() || base == "." || base == ".." || base == string(filepath.Separator) || name == "rsync" && strings.HasSuffix(s.value(), "/") {
				base = ""
			}
			to := filepath.Join(dest.value(), base)
			if at, err := w.e.locate(to, dir); err == nil {
				out = append(out, destination{to, at.resolved, dir, &srcs[i], w.lstat(at)})
			} else {
				unknown(to)
			}
		}
	}
	return out, unplaced
}

// lstat is what is at a located path now: its file, or a symlink there
// (even one leading nowhere); nil when nothing is.
func (w *walker) lstat(pl place) os.FileInfo {
	for _, p := range []string{pl.resolved, pl.clean} {
		if fi, err := w.e.ctx.FS.Lstat(p); err == nil {
			return fi
		}
	}
	return nil
}

// backups records, for the hook's guard, the backups cp, mv, ln, install
// and rsync make of the files they replace: GNU's -b, --backup[=CONTROL]
// and -S/--suffix (which turns them on), BSD install's -b and -B, rsync's
// -b, --backup-dir and --suffix. A backup is its destination's name with
// the suffix added (-S; else SIMPLE_BACKUP_SUFFIX; else "~", BSD
// install's ".old"), so `cp -b -S .json a .mcp` writes .mcp.json; a
// numbered backup (VERSION_CONTROL, --backup=numbered or existing, the
// default) is NAME.~N~, recorded as NAME.~1~: a guarded path holds one
// only where it holds NAME's directory. A suffix not known before the
// line runs (a word bn cannot read, a variable the line sets) makes the
// backup a write bn cannot place.
func (w *walker) backups(name string, fs []found, ops []word, d dirs) {
	var suffixes []string
	unknown := ""
	on := false
	backupDir := ""
	for _, f := range fs {
		switch {
		case f.o.long == "backup" || f.o.short == 'b':
			on = on || !f.has || f.value.value() != "none" && f.value.value() != "off"
		case f.o.long == "suffix" || f.o.short == 'B' && name == "install":
			on = on || name != "rsync"
			switch {
			case !f.has:
			case !f.value.static():
				unknown = "its backup suffix " + f.value.src + " is not known before the line runs"
			default:
				suffixes = []string{f.value.value()}
			}
		case f.o.long == "backup-dir" && f.has:
			on = true
			backupDir = f.value.value()
			if !f.value.static() {
				unknown = "its backup directory " + f.value.src + " is not known before the line runs"
			}
		}
	}
	if !on {
		return
	}
	switch {
	case suffixes != nil || unknown != "":
	case name == "rsync" && backupDir != "":
		suffixes = []string{""}
	case name == "rsync":
		suffixes = []string{"~"}
	case w.backupEnv:
		unknown = "the line sets SIMPLE_BACKUP_SUFFIX or VERSION_CONTROL, which name its backups"
	default:
		suffixes = []string{"~"}
		if name == "install" {
			suffixes = append(suffixes, ".old")
		}
		if w.e.ctx.Getenv != nil {
			if s := w.e.ctx.Getenv("SIMPLE_BACKUP_SUFFIX"); s != "" {
				suffixes = append(suffixes, s)
			}
		}
	}
	if name != "rsync" {
		suffixes = append(suffixes, ".~1~")
	}
	ts, _ := w.destinations(name, fs, ops, d)
	for _, t := range ts {
		if unknown != "" {
			w.accesses = append(w.accesses, Access{Kind: agents.KindCreate, Path: t.path + " (its backup)", Unknown: unknown})
			continue
		}
		places := []string{}
		for _, suf := range suffixes {
			if strings.Contains(suf, "/") {
				suf = "~" // GNU's backups take "~" for a suffix that is not a file name
			}
			if suf != "" {
				places = append(places, t.path+suf)
			}
		}
		if backupDir != "" {
			// Relative to the destination directory, or to where rsync runs.
			places = append(places, backupDir)
			if !filepath.IsAbs(backupDir) {
				places = append(places, filepath.Join(t.path, backupDir))
			}
		}
		for _, p := range places {
			if at, err := w.e.locate(p, t.dir); err == nil {
				w.accesses = append(w.accesses, Access{Kind: agents.KindCreate, Path: p, Resolved: at.resolved, Tree: true})
			}
		}
	}
}
