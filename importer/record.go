package importer

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/kdl"
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

// Put records an original, replacing an earlier record of the same file.
// Another file of the agent keeps its own record: it is still an original
// a tool may load, and the user's.
func (r *Record) Put(o Original) {
	i := slices.IndexFunc(r.Originals, func(x Original) bool { return x.File == o.File })
	if i < 0 {
		r.Originals = append(r.Originals, o)
		return
	}
	r.Originals[i] = o
}

// ByPath finds the original read from, or moved to, an absolute path.
func (r Record) ByPath(root, path string) (Original, bool) {
	for _, o := range r.Originals {
		if o.Path(root) == path || filepath.Join(root, filepath.FromSlash(o.File)) == path {
			return o, true
		}
	}
	return Original{}, false
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
	recs, err := kdl.ReadRecords(path, src, "agent", []string{"file", "rel", "format", "sha256", "moved"}, func(r kdl.Record) string {
		if r.Fields["file"] == "" || r.Fields["format"] == "" || len(r.Fields["sha256"]) != 64 {
			return fmt.Sprintf("agent %q is incomplete", r.Name)
		}
		return ""
	}, "it is written by bn config agents import, not by hand: import the agents again to write it anew")
	if err != nil {
		return Record{}, err
	}
	var r Record
	for _, e := range recs {
		f := e.Fields
		r.Originals = append(r.Originals, Original{Agent: e.Name, File: f["file"], Rel: f["rel"], Format: f["format"], SHA256: f["sha256"], Moved: f["moved"]})
	}
	return r, nil
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
		for _, kv := range [][2]string{{"file", o.File}, {"rel", o.Rel}, {"format", o.Format}, {"sha256", o.SHA256}, {"moved", o.Moved}} {
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
func MoveOriginals(r *Record, root string, dryRun bool) ([]Move, error) {
	var moves []Move
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
		src := filepath.Join(root, from)
		if _, err := os.Lstat(src); errors.Is(err, fs.ErrNotExist) {
			moves = append(moves, Move{Agent: o.Agent, From: o.File, Left: "no longer there"})
			continue
		}
		to := OriginalsDir + "/" + o.File
		dst := filepath.Join(root, filepath.FromSlash(to))
		if _, err := os.Lstat(dst); err == nil {
			return moves, fmt.Errorf("cannot move %s aside: %s is already there; move one of them yourself, then run bn config agents import --move-originals again", o.File, to)
		}
		moves = append(moves, Move{Agent: o.Agent, From: o.File, To: to})
		if dryRun {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return moves, err
		}
		if err := os.Rename(src, dst); err != nil {
			return moves, fmt.Errorf("cannot move %s aside: %w", o.File, err)
		}
		o.Moved = to
	}
	return moves, nil
}
