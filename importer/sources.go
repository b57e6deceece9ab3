package importer

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/files"
)

// Found is one agent file a tool sees.
type Found struct {
	Def        *agents.Definition `json:"-"`
	Name       string             `json:"name"`
	File       string             `json:"file"`
	Location   dialect.Location   `json:"location"`
	Active     bool               `json:"active"`
	ShadowedBy string             `json:"shadowed_by,omitempty"`
	// Drift compares a file bn generated with what bn would write now.
	Drift string `json:"drift,omitempty"`
	// Generated holds the file's bytes when bn generated it, for the
	// drift check; nil for hand-written files.
	Generated []byte `json:"-"`
	// Shadows says, for a file that is not bn's, that the tool reads it
	// as an agent bn writes, and what the tool makes of the two.
	Shadows string `json:"shadows,omitempty"`
}

// Invalid is a file a tool would not load, with the reason.
type Invalid struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// ToolView is every agent one tool would see, in its own precedence.
type ToolView struct {
	Tool       string              `json:"tool"`
	Dirs       []dialect.SourceDir `json:"dirs"`
	Agents     []Found             `json:"agents"`
	Invalid    []Invalid           `json:"invalid"`
	Deprecated []string            `json:"deprecated"`
	Merged     bool                `json:"merged"` // OpenCode merges same-named agents field by field
}

// Discover reads every directory the tool reads agents from and works out
// which agent of each name wins. A missing directory is normal. Files are
// read through os.Root, so a symlink cannot lead outside its directory,
// and nothing that is not a regular file is opened. skip, when not nil,
// names files to pass over unread: export has read those it writes, and
// asks only about the others.
func Discover(d dialect.Dialect, env dialect.Env, reg dialect.Registry, cat *agents.Catalog, skip func(path string) bool) ToolView {
	info := d.Info()
	v := ToolView{Tool: info.Name, Merged: info.Merges, Dirs: []dialect.SourceDir{}, Agents: []Found{}, Invalid: []Invalid{}, Deprecated: []string{}}
	winner := map[string]int{} // name -> index in v.Agents of the active one
	for _, dir := range info.Dirs(env) {
		if env.ProjectOnly && dir.Location != dialect.ProjectLocation {
			continue
		}
		if dir.Unreadable != "" {
			v.Invalid = append(v.Invalid, Invalid{File: dir.Path, Reason: dir.Unreadable})
			continue
		}
		root, err := os.OpenRoot(dir.Path)
		if err == nil {
			dir.Exists = true
		} else if !errors.Is(err, fs.ErrNotExist) {
			v.Invalid = append(v.Invalid, Invalid{File: dir.Path, Reason: files.Cause(err).Error()})
		}
		v.Dirs = append(v.Dirs, dir)
		if root == nil {
			continue
		}
		format, _ := reg.Lookup(dir.Format)
		rels, bad := agentFiles(root, format.Info())
		v.Invalid = append(v.Invalid, bad...)
		for i := range bad {
			v.Invalid[len(v.Invalid)-len(bad)+i].File = filepath.Join(dir.Path, bad[i].File)
		}
		for _, rel := range rels {
			path := filepath.Join(dir.Path, rel)
			if skip != nil && skip(path) {
				continue
			}
			if strings.HasSuffix(rel, ".deprecated") {
				v.Deprecated = append(v.Deprecated, path)
				continue
			}
			data, err := files.ReadIn(root, filepath.ToSlash(rel), files.MaxAgentFile)
			if err != nil {
				v.Invalid = append(v.Invalid, Invalid{File: path, Reason: err.Error()})
				continue
			}
			im, err := format.Read(dialect.Source{Path: path, Rel: rel, Data: data}, cat)
			if err != nil {
				v.Invalid = append(v.Invalid, Invalid{File: path, Reason: err.Error()})
				continue
			}
			name := im.Def.Name
			if t := im.Def.Targets[format.Info().Name]; t != nil && t.ID != "" {
				name = t.ID
			}
			f := Found{Def: &im.Def, Name: name, File: path, Location: dir.Location, Active: true}
			if emit.IsGenerated(data) {
				f.Generated = data
			}
			if i, seen := winner[name]; seen {
				if v.Merged { // the later file merges over the earlier one
					v.Agents[i].Active, v.Agents[i].ShadowedBy = false, path
					winner[name] = len(v.Agents)
				} else {
					f.Active, f.ShadowedBy = false, v.Agents[i].File
				}
			} else {
				winner[name] = len(v.Agents)
			}
			v.Agents = append(v.Agents, f)
		}
		root.Close()
	}
	return v
}

// agentFiles lists the agent files of a directory (recursively when the
// tool reads subdirectories), sorted as the tools read them. Parts of the
// tree that cannot be read, and entries that are not regular files, are
// returned as invalid, not skipped.
func agentFiles(root *os.Root, info *dialect.Info) ([]string, []Invalid) {
	var out []string
	var bad []Invalid
	fs.WalkDir(files.Listing(root), ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			bad = append(bad, Invalid{File: filepath.FromSlash(p), Reason: files.Cause(err).Error()})
			return nil
		case d.IsDir() && p != "." && !info.Recursive:
			return fs.SkipDir
		case d.IsDir():
			return nil
		}
		match := slices.ContainsFunc(info.ReadExts, func(ext string) bool {
			return strings.HasSuffix(p, ext) || strings.HasSuffix(p, ext+".deprecated")
		})
		switch {
		case !match || strings.EqualFold(filepath.Base(p), "README.md"):
		case !files.IsRegular(d):
			bad = append(bad, Invalid{File: filepath.FromSlash(p), Reason: "is " + files.Kind(d) + ", not a regular file"})
		default:
			out = append(out, filepath.FromSlash(p))
		}
		return nil
	})
	sort.Strings(out)
	return out, bad
}
