package importer

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/kdl"
	"github.com/binnacle-dev/bn/resolver"
)

// RecordFile is the import record's name, beside the config.kdl import
// writes: each original file import read, its agent and its hash.
const RecordFile = "imports.lock"

// OriginalsDir is where import --move-originals moves the originals, under
// the repository root: outside every tool's directories, so no tool loads
// them beside bn's files, and kept, so diff can still compare with them.
const OriginalsDir = ".binnacle/originals"

// Original is one file as import read it, and the agent it defines. An
// agent may have several (its file for each tool): the record keeps one
// per file, so every one is moved aside and compared.
type Original struct {
	Agent  string `json:"agent"`
	File   string `json:"file"` // where import read it: relative to the repository (with /), or absolute outside it
	Rel    string `json:"rel"`  // its path in the directory import was given, which names it for some tools
	Format string `json:"format"`
	SHA256 string `json:"sha256"`
	// Moved is where --move-originals put it, relative to the repository.
	Moved string `json:"moved,omitempty"`
	// Companion, for a file the agent's file names rather than an agent
	// file (Vibe's prompt), is that agent file's File: the two move
	// aside together, and diff reads it through the agent file.
	Companion string `json:"companion,omitempty"`
}

// Path is where the original is now, as an absolute path.
func (o Original) Path(root string) string {
	p := o.File
	if o.Moved != "" {
		p = o.Moved
	}
	if filepath.IsAbs(filepath.FromSlash(p)) {
		return filepath.FromSlash(p)
	}
	return filepath.Join(root, filepath.FromSlash(p))
}

// Record is every original an import read into one config.kdl, one per
// file.
type Record struct {
	Originals []Original
}

// RecordPath is the record beside a config.kdl.
func RecordPath(config string) string { return filepath.Join(filepath.Dir(config), RecordFile) }

// Of returns the first original recorded of an agent.
func (r Record) Of(agent string) (Original, bool) {
	i := slices.IndexFunc(r.Originals, func(o Original) bool { return o.Agent == agent })
	if i < 0 {
		return Original{}, false
	}
	return r.Originals[i], true
}

// Put records an original, replacing an earlier record of the same file.
// Another file of the agent keeps its own record: it is still an original
// a tool may load, and the user's. So does an original moved aside from
// the same path: the file there now is another one.
func (r *Record) Put(o Original) {
	i := slices.IndexFunc(r.Originals, func(x Original) bool { return x.File == o.File && x.Moved == "" })
	if i < 0 {
		r.Originals = append(r.Originals, o)
		return
	}
	r.Originals[i] = o
}

// ByPath finds the original read from, or moved to, an absolute path:
// first one that is there now, then one moved aside from there.
func (r Record) ByPath(root, path string) (Original, bool) {
	for _, o := range r.Originals {
		if o.Path(root) == path {
			return o, true
		}
	}
	for _, o := range r.Originals {
		if filepath.Join(root, filepath.FromSlash(o.File)) == path {
			return o, true
		}
	}
	return Original{}, false
}

// putWith records an original and the companion file the agent was read
// with, if any.
func (r *Record) putWith(o Original, im *dialect.Imported, root string) {
	r.Put(o)
	if im.Companion != "" {
		r.Put(Original{Agent: o.Agent, File: recordedPath(root, im.Companion), Format: o.Format, SHA256: Hash(im.CompanionData), Companion: o.File})
	}
}

// Hash is the record's hash of a file's content.
func Hash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// ReadRecord reads an import record; a missing one is empty.
func ReadRecord(path string) (Record, error) {
	src, err := files.Read(path, files.MaxConfigFile)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Record{}, nil
		}
		return Record{}, fmt.Errorf("%s %w", path, err)
	}
	recs, err := kdl.ReadRecords(path, src, "agent", []string{"file", "rel", "format", "sha256", "moved", "companion"}, func(r kdl.Record) string {
		if r.Fields["file"] == "" || r.Fields["format"] == "" || len(r.Fields["sha256"]) != 64 {
			return fmt.Sprintf("agent %q is incomplete", r.Name)
		}
		if why := badPaths(r.Fields["file"], r.Fields["moved"]); why != "" {
			return fmt.Sprintf("agent %q: %s", r.Name, why)
		}
		return ""
	}, "bn config agents import writes this file, and reads it first: remove that entry (or the file, if it does not read), then import those agents again")
	if err != nil {
		return Record{}, err
	}
	var r Record
	for _, e := range recs {
		f := e.Fields
		r.Originals = append(r.Originals, Original{Agent: e.Name, File: f["file"], Rel: f["rel"], Format: f["format"], SHA256: f["sha256"], Moved: f["moved"], Companion: f["companion"]})
	}
	return r, nil
}

// badPaths says what is wrong with an entry's file and moved (empty:
// nothing), paths bn joins to the repository's: file is absolute, outside
// the repository, or a path that stays inside it; an original moved aside
// was inside, at a plain relative path (MoveOriginals checks both with
// files.CheckRel), and so is where it went.
func badPaths(file, moved string) string {
	abs := filepath.IsAbs(filepath.FromSlash(file))
	switch {
	case moved == "" && !abs && !filepath.IsLocal(filepath.FromSlash(file)):
		return fmt.Sprintf("file %q is neither absolute nor a path inside the repository", file)
	case moved == "":
		return ""
	case abs:
		return fmt.Sprintf("file %q is outside the repository, yet moved says bn moved it aside, which bn does only inside it", file)
	}
	for _, kv := range [][2]string{{"file", file}, {"moved", moved}} {
		if err := files.CheckRel(kv[1]); err != nil {
			return fmt.Sprintf("%s %v, so it is no file bn moved aside in the repository", kv[0], err)
		}
	}
	return ""
}

// Format writes the record.
func (r Record) Format() []byte {
	var b strings.Builder
	b.WriteString("// Written by bn config agents import: each original file, its agent and its SHA-256 as\n" +
		"// imported. diff compares bn's files with these originals; export refuses while one\n" +
		"// remains where a tool would load it beside bn's file (import --move-originals moves\n" +
		"// them to " + OriginalsDir + "/). Commit this file.\n")
	for _, o := range r.Originals {
		fmt.Fprintf(&b, "agent %s {\n", kdl.Quote(o.Agent, kdl.V2))
		for _, kv := range [][2]string{{"file", o.File}, {"rel", o.Rel}, {"format", o.Format}, {"sha256", o.SHA256}, {"moved", o.Moved}, {"companion", o.Companion}} {
			if kv[1] != "" {
				fmt.Fprintf(&b, "    %s %s\n", kv[0], kdl.Quote(kv[1], kdl.V2))
			}
		}
		b.WriteString("}\n")
	}
	return []byte(b.String())
}

// recordedPath is how the record names a file: relative to the repository
// when inside it, else absolute.
func recordedPath(root, path string) string {
	if rel, err := filepath.Rel(root, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return path
}

// Move is one original moved aside, or why it stays.
type Move struct {
	Agent string `json:"agent"`
	From  string `json:"from"`
	To    string `json:"to,omitempty"`
	// Left says why the original stays where it is.
	Left string `json:"left,omitempty"`
}

// MoveOriginals moves each recorded original still in the repository (not
// yet moved) to OriginalsDir, under the same relative path, and records
// where: nothing is deleted, and a file already there is never replaced.
// An original outside the repository stays, with the reason. With dryRun
// nothing moves.
//
// Every move is checked before the first is made: a destination that a
// symlink on the way leads out of the repository, or an original reached
// through one, refuses them all. A symlink moves as a link to the same
// file. If a move fails, those made are put back: all move, or none.
//
// The record is a committed file anyone may edit: only an original it
// names that still holds the content import read (its SHA-256), that lies
// where its tool reads agents, and that is no file of bn's layers nor of
// .git moves; the rest stay, each with the reason. Nor may the originals'
// directory lead into a layer (layers), where they would be read as
// definitions.
func MoveOriginals(r *Record, root string, layers []resolver.LayerDir, reg dialect.Registry, dryRun bool) ([]Move, error) {
	repo, err := files.OpenDir(root)
	if err != nil {
		return nil, err
	}
	if err := checkOriginalsDir(root, layers); err != nil {
		return nil, err
	}
	var moves []Move
	var todo []int       // the moves to make, by index in moves
	var orig []*Original // the original of each of todo
	for i := range r.Originals {
		o := &r.Originals[i]
		if o.Moved != "" {
			continue
		}
		from := filepath.FromSlash(o.File)
		if filepath.IsAbs(from) {
			moves = append(moves, Move{Agent: o.Agent, From: o.File, Left: "outside the repository, where no export writes"})
			continue
		}
		if _, err := os.Lstat(filepath.Join(root, from)); errors.Is(err, fs.ErrNotExist) {
			moves = append(moves, Move{Agent: o.Agent, From: o.File, Left: "no longer there"})
			continue
		}
		to := OriginalsDir + "/" + o.File
		if err := checkMove(repo, root, o.File, to); err != nil {
			return nil, fmt.Errorf("cannot move %s aside: %w; nothing was moved", o.File, err)
		}
		if why := notMovable(*o, root, layers, reg); why != "" {
			moves = append(moves, Move{Agent: o.Agent, From: o.File, Left: why})
			continue
		}
		todo, orig = append(todo, len(moves)), append(orig, o)
		moves = append(moves, Move{Agent: o.Agent, From: o.File, To: to})
	}
	if dryRun || len(todo) == 0 {
		return moves, nil
	}
	rt, err := os.OpenRoot(root)
	if err != nil {
		return nil, err
	}
	defer rt.Close()
	var undo []func() error
	for k, i := range todo {
		m := moves[i]
		back, err := move(rt, root, filepath.FromSlash(m.From), filepath.FromSlash(m.To))
		if err != nil {
			return putBack(moves, todo[:k], orig, undo, fmt.Errorf("cannot move %s aside: %w", m.From, err))
		}
		undo = append(undo, back)
	}
	for k, i := range todo {
		orig[k].Moved = moves[i].To
	}
	return moves, nil
}

// checkOriginalsDir refuses an originals directory that leads into a
// layer's (a symlink .binnacle/originals -> agents): every original moved
// there would become a definition, what its tool ignored taking effect.
func checkOriginalsDir(root string, layers []resolver.LayerDir) error {
	dir := filepath.Join(root, filepath.FromSlash(OriginalsDir))
	real, err := files.Resolve(dir)
	if err != nil {
		return err
	}
	if l, ok := resolver.InLayer(layers, real); ok {
		return fmt.Errorf("cannot move originals into %s: it leads to %s, inside %s, whose files bn reads as definitions (the originals would become agents); "+
			"remove the symlink, so %s is a directory of its own; nothing was moved", OriginalsDir, real, l.Label, OriginalsDir)
	}
	return nil
}

// notMovable says why the original o, as recorded, is not moved (empty:
// it is): its content is not the one import recorded; it is a file of a
// layer or of .git; or it lies in no directory its tool reads agents from
// (nor, for a companion, beside one), so no tool loads it beside bn's.
func notMovable(o Original, root string, layers []resolver.LayerDir, reg dialect.Registry) string {
	p := filepath.Join(root, filepath.FromSlash(o.File))
	for seg := range strings.SplitSeq(o.File, "/") {
		if strings.EqualFold(seg, ".git") {
			return "inside .git, which holds no agent file; the record (" + RecordFile + ") names a file import did not read: remove that entry"
		}
	}
	// The link itself moves, not what it leads to: its directory resolved.
	dir, err := files.Resolve(filepath.Dir(p))
	if err != nil {
		return err.Error()
	}
	if l, ok := resolver.InLayer(layers, filepath.Join(dir, filepath.Base(p))); ok {
		return "a file of " + l.Label + ", a definition, not an original; the record (" + RecordFile + ") names a file import did not read: remove that entry"
	}
	if d, ok := reg.Lookup(o.Format); !ok || !inToolDir(o, d.Info(), root, p) {
		return "not in a directory where its tool (" + o.Format + ") reads agents, so no tool loads it beside bn's files"
	}
	data, err := files.Read(p, files.MaxAgentFile)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "" // a link that leads to no file now: move says so, and refuses
	case err != nil:
		return err.Error()
	}
	if Hash(data) != o.SHA256 {
		return "changed since import (its SHA-256 is not the one recorded in " + RecordFile + "); import it again to move it"
	}
	return ""
}

// inToolDir says whether p lies in a directory o's tool reads agents
// from in the repository, started in any directory from p's up to root
// (or, for a companion, in the companions' directory beside one).
func inToolDir(o Original, info *dialect.Info, root, p string) bool {
	if info.Dirs == nil {
		return false
	}
	for cwd := filepath.Dir(p); files.Within(root, cwd); cwd = filepath.Dir(cwd) {
		for _, sd := range info.Dirs(dialect.Env{Cwd: cwd, RepoRoot: root, ProjectOnly: true}) {
			if sd.Location != dialect.ProjectLocation {
				continue
			}
			if files.Within(sd.Path, p) && sd.Path != p {
				return true
			}
			if c := info.Companion; c != nil && o.Companion != "" && filepath.Dir(p) == c.CompanionDir(sd.Path) {
				return true
			}
		}
		if cwd == root {
			break
		}
	}
	return false
}

// checkMove refuses a move that would take a file out of the repository
// or into it: a symlink on the way to the destination, or to the
// original's directory, that leads out of root; or a destination taken.
func checkMove(repo files.Dir, root, from, to string) error {
	if _, err := repo.Join(to); err != nil {
		return fmt.Errorf("%w (it would take the file out of the repository)", err)
	}
	if dir := path.Dir(from); dir != "." {
		if _, err := repo.Join(dir); err != nil {
			return fmt.Errorf("%w (the file is not in the repository)", err)
		}
	}
	if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(to))); err == nil {
		return fmt.Errorf("%s is already there; move one of them yourself, then run bn config agents import --move-originals again", to)
	}
	return nil
}

// move moves from to to, inside rt, and returns how to put it back. A
// symlink is made anew at to, leading to the same file (a relative
// target counts from the link's directory, which changes), and checked
// to: a link that would lead elsewhere is refused.
func move(rt *os.Root, root, from, to string) (func() error, error) {
	if err := rt.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return nil, err
	}
	fi, err := rt.Lstat(from)
	if err != nil {
		return nil, err
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		if err := rt.Rename(from, to); err != nil {
			return nil, err
		}
		return func() error { return rt.Rename(to, from) }, nil
	}
	target, err := rt.Readlink(from)
	if err != nil {
		return nil, err
	}
	was, err := os.Stat(filepath.Join(root, from))
	if err != nil {
		return nil, fmt.Errorf("it is a symlink to %s, which leads to no file now; restore the file or remove the link, "+
			"then run bn config agents import --move-originals again", target)
	}
	link, err := relink(root, from, to, target)
	if err != nil {
		return nil, err
	}
	if err := rt.Symlink(link, to); err != nil {
		return nil, err
	}
	back := func() error {
		if err := rt.Symlink(target, from); err != nil {
			return err
		}
		return rt.Remove(to)
	}
	if err := rt.Remove(from); err != nil {
		rt.Remove(to)
		return nil, err
	}
	// Checked with the old link gone, so the new one cannot lead through
	// it: a guard for what relink cannot foresee.
	if now, err := os.Stat(filepath.Join(root, to)); err != nil || !os.SameFile(was, now) {
		return nil, errors.Join(fmt.Errorf("it is a symlink to %s, and a link at %s would not lead to the same file; "+
			"replace the link with a copy of its file, then run bn config agents import --move-originals again", target, filepath.ToSlash(to)), back())
	}
	return back, nil
}

// relink is a symlink's target as a link at to must say it to lead where
// the link at from leads: a relative target counts from the link's
// directory, resolved as the system resolves it (a symlinked directory
// and .. in it included); its last part, which may be a link the user
// keeps, is not followed.
func relink(root, from, to, target string) (string, error) {
	if filepath.IsAbs(target) {
		return target, nil
	}
	dir, base := ".", target
	if i := strings.LastIndexAny(target, `/`+string(filepath.Separator)); i >= 0 {
		dir, base = target[:i], target[i+1:]
	}
	// Not joined with filepath.Join, which would take out "x/.." before
	// the system follows x.
	realDir, err := filepath.EvalSymlinks(filepath.Join(root, filepath.Dir(from)) + string(filepath.Separator) + dir)
	if err != nil {
		return "", err
	}
	toDir, err := filepath.EvalSymlinks(filepath.Join(root, filepath.Dir(to)))
	if err != nil {
		return "", err
	}
	return filepath.Rel(toDir, filepath.Join(realDir, base))
}

// putBack undoes the moves made (undo, one for each of done) after err:
// a move that cannot be undone stays, recorded, and is named.
func putBack(moves []Move, done []int, orig []*Original, undo []func() error, err error) ([]Move, error) {
	var left []Move
	for k := len(undo) - 1; k >= 0; k-- {
		m := moves[done[k]]
		if uerr := undo[k](); uerr != nil {
			orig[k].Moved = m.To
			left = append(left, m)
			err = fmt.Errorf("%w; %s stays at %s: it could not be put back: %v", err, m.From, m.To, uerr)
		}
	}
	if len(left) == 0 {
		err = fmt.Errorf("%w; nothing was moved", err)
	}
	return left, err
}
