package importer

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/binnacle-dev/bn/emit"
)

// Location says whether an agent directory belongs to the project or the user.
type Location string

const (
	ProjectLocation Location = "project"
	UserLocation    Location = "user"
)

// SourceDir is one directory a tool reads agents from.
type SourceDir struct {
	Path     string   `json:"path"`
	Location Location `json:"location"`
	Format   Format   `json:"format"`
	Exists   bool     `json:"exists"`
}

// Found is one agent file a tool sees.
type Found struct {
	Agent      *Agent   `json:"-"`
	Name       string   `json:"name"`
	File       string   `json:"file"`
	Location   Location `json:"location"`
	Active     bool     `json:"active"`
	ShadowedBy string   `json:"shadowed_by,omitempty"`
	// Drift compares a file bn generated with what bn would write now.
	Drift string `json:"drift,omitempty"`
	// Generated holds the file's bytes when bn generated it, for the
	// drift check; nil for hand-written files.
	Generated []byte `json:"-"`
}

// Invalid is a file a tool would not load, with the reason.
type Invalid struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// ToolView is every agent one tool would see, in its own precedence.
type ToolView struct {
	Tool       string      `json:"tool"`
	Dirs       []SourceDir `json:"dirs"`
	Agents     []Found     `json:"agents"`
	Invalid    []Invalid   `json:"invalid"`
	Deprecated []string    `json:"deprecated"`
	Merged     bool        `json:"merged"` // OpenCode merges same-named agents field by field
}

// SourceInputs are the places discovery starts from.
type SourceInputs struct {
	Cwd, RepoRoot string
	Home          string
	XDGConfigHome string
	CopilotHome   string // $COPILOT_HOME, or empty for ~/.copilot
}

// upwards lists dir and its ancestors up to root, nearest first. Outside
// the repository only dir itself is searched.
func upwards(dir, root string) []string {
	var out []string
	for d := dir; ; d = filepath.Dir(d) {
		out = append(out, d)
		if d == root || filepath.Dir(d) == d || !strings.HasPrefix(dir, root) {
			return out
		}
	}
}

// ToolDirs returns each tool's agent directories in the order the tool
// lets them win: earlier wins over later, except for OpenCode, which merges
// later over earlier.
func ToolDirs(in SourceInputs) map[string][]SourceDir {
	copilotHome := in.CopilotHome
	if copilotHome == "" {
		copilotHome = filepath.Join(in.Home, ".copilot")
	}
	xdg := in.XDGConfigHome
	if xdg == "" {
		xdg = filepath.Join(in.Home, ".config")
	}
	nearest := func(rel string, format Format) []SourceDir {
		var out []SourceDir
		for _, d := range upwards(in.Cwd, in.RepoRoot) {
			out = append(out, SourceDir{Path: filepath.Join(d, rel), Location: ProjectLocation, Format: format})
		}
		return out
	}
	user := func(path string, format Format) SourceDir {
		return SourceDir{Path: path, Location: UserLocation, Format: format}
	}
	dirs := map[string][]SourceDir{
		"claude": append(nearest(".claude/agents", Claude), user(filepath.Join(in.Home, ".claude", "agents"), Claude)),
		"copilot": {
			{Path: filepath.Join(in.RepoRoot, ".github", "agents"), Location: ProjectLocation, Format: Copilot},
			{Path: filepath.Join(in.RepoRoot, ".claude", "agents"), Location: ProjectLocation, Format: Claude},
			user(filepath.Join(copilotHome, "agents"), Copilot),
		},
		"codex":  append(nearest(".codex/agents", Codex), user(filepath.Join(in.Home, ".codex", "agents"), Codex)),
		"gemini": append(nearest(".gemini/agents", Gemini), user(filepath.Join(in.Home, ".gemini", "agents"), Gemini)),
	}
	// OpenCode: global first, then project directories from the root down
	// to the working directory; later ones merge over earlier ones.
	oc := []SourceDir{user(filepath.Join(xdg, "opencode", "agent"), OpenCode), user(filepath.Join(xdg, "opencode", "agents"), OpenCode)}
	up := upwards(in.Cwd, in.RepoRoot)
	for i := len(up) - 1; i >= 0; i-- {
		oc = append(oc, SourceDir{Path: filepath.Join(up[i], ".opencode", "agent"), Location: ProjectLocation, Format: OpenCode},
			SourceDir{Path: filepath.Join(up[i], ".opencode", "agents"), Location: ProjectLocation, Format: OpenCode})
	}
	dirs["opencode"] = oc
	// omp: source families in priority order, each nearest project dir
	// before the user dir; the first agent of a name wins.
	var omp []SourceDir
	for _, fam := range []struct {
		project, user string
		format        Format
	}{
		{".omp/agents", filepath.Join(in.Home, ".omp", "agent", "agents"), OMP},
		{".claude/agents", filepath.Join(in.Home, ".claude", "agents"), Claude},
		{".codex/agents", filepath.Join(in.Home, ".codex", "agents"), Codex},
		{".gemini/agents", filepath.Join(in.Home, ".gemini", "agents"), Gemini},
	} {
		for _, d := range upwards(in.Cwd, in.RepoRoot) {
			if _, err := os.Stat(filepath.Join(d, fam.project)); err == nil {
				omp = append(omp, SourceDir{Path: filepath.Join(d, fam.project), Location: ProjectLocation, Format: fam.format})
				break
			}
		}
		omp = append(omp, user(fam.user, fam.format))
	}
	dirs["omp"] = omp
	return dirs
}

// Tools lists the tools sources knows, in report order.
var Tools = []string{"claude", "copilot", "opencode", "codex", "gemini", "omp"}

// Discover reads every directory of one tool and works out which agent of
// each name wins. A missing directory is normal. Files are read through
// os.Root, so a symlink cannot lead outside its directory.
func Discover(tool string, dirs []SourceDir) ToolView {
	v := ToolView{Tool: tool, Merged: tool == "opencode", Agents: []Found{}, Invalid: []Invalid{}, Deprecated: []string{}}
	winner := map[string]int{} // name -> index in v.Agents of the active one
	for _, d := range dirs {
		root, err := os.OpenRoot(d.Path)
		if err == nil {
			d.Exists = true
		} else if !errors.Is(err, fs.ErrNotExist) {
			v.Invalid = append(v.Invalid, Invalid{File: d.Path, Reason: err.Error()})
		}
		v.Dirs = append(v.Dirs, d)
		if root == nil {
			continue
		}
		files, unreadable := agentFiles(root, d.Format)
		for _, u := range unreadable {
			v.Invalid = append(v.Invalid, Invalid{File: filepath.Join(d.Path, u.rel), Reason: u.err.Error()})
		}
		for _, rel := range files {
			path := filepath.Join(d.Path, rel)
			if strings.HasSuffix(rel, ".deprecated") {
				v.Deprecated = append(v.Deprecated, path)
				continue
			}
			data, err := fs.ReadFile(root.FS(), filepath.ToSlash(rel))
			if err != nil {
				v.Invalid = append(v.Invalid, Invalid{File: path, Reason: err.Error()})
				continue
			}
			a, err := Read(path, rel, data, d.Format)
			if err != nil {
				v.Invalid = append(v.Invalid, Invalid{File: path, Reason: err.Error()})
				continue
			}
			f := Found{Agent: a, Name: a.Name, File: path, Location: d.Location, Active: true}
			if emit.IsGenerated(data) {
				f.Generated = data
			}
			if i, seen := winner[a.Name]; seen {
				if v.Merged { // OpenCode: the later file merges over the earlier one
					v.Agents[i].Active, v.Agents[i].ShadowedBy = false, path
					winner[a.Name] = len(v.Agents)
				} else {
					f.Active, f.ShadowedBy = false, v.Agents[i].File
				}
			} else {
				winner[a.Name] = len(v.Agents)
			}
			v.Agents = append(v.Agents, f)
		}
		root.Close()
	}
	return v
}

type unreadable struct {
	rel string
	err error
}

// agentFiles lists the agent files of a directory: recursive for Claude
// Code and OpenCode, top level otherwise; sorted, as the tools read them.
// Parts of the tree that cannot be read are returned, not skipped.
func agentFiles(root *os.Root, format Format) ([]string, []unreadable) {
	ext := ".md"
	if format == Codex {
		ext = ".toml"
	}
	recursive := format == Claude || format == OpenCode
	var out []string
	var bad []unreadable
	fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			bad = append(bad, unreadable{filepath.FromSlash(p), err})
			return nil
		case d.IsDir() && p != "." && !recursive:
			return fs.SkipDir
		case d.IsDir():
			return nil
		case strings.HasSuffix(p, ext) || strings.HasSuffix(p, ext+".deprecated"):
			out = append(out, filepath.FromSlash(p))
		}
		return nil
	})
	sort.Strings(out)
	return out, bad
}
