package importer

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/files"
)

// File is one agent file found under a path given to import or diff.
type File struct {
	Path string // as found
	Rel  string // under the directory given
	// Within is the directory a symlink to it may not lead out of: the
	// repository for a directory given inside it, else that directory,
	// as a tool's directory is for sources; empty for a file named
	// itself, which is read where it leads.
	Within string
	// withinName says what Within is, for the refusal.
	withinName string
	// Format, when set, is the tool whose file it is for certain (an
	// agent of a Claude Code plugin), whatever its path says.
	Format string
}

// Skipped is a file not read, and why.
type Skipped struct {
	File   string `json:"file"`
	Reason string `json:"reason"`
}

// Collect lists the agent files (.md, .toml, a JSON or YAML tool's .json or .yaml) under each path, which may
// be a directory (walked recursively, symlinks not followed) or a file;
// root is the repository (empty: none).
// Named pipes, sockets and devices are skipped with the reason, never
// opened; symlinks are listed, and Read refuses one that loops, leads out
// of the directory named, or leads to anything but a regular file. README.md files are not agents.
//
// A Claude Code plugin (a directory holding .claude-plugin/plugin.json)
// gives its agents only, not its commands or skills; a marketplace (one
// holding .claude-plugin/marketplace.json) gives the agents of each plugin
// it lists, those in git fetched into cacheDir as a team source is (with
// no cacheDir, they are skipped).
func Collect(paths []string, cwd, root, cacheDir string) ([]File, []Skipped, error) {
	var out []File
	var skipped []Skipped
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(cwd, p)
		}
		fi, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("%s: %w; name only the directories and files you have (nothing was imported)", p, files.Cause(err))
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p, files.Cause(err))
		}
		// A plugin's or marketplace's manifest, or the .claude-plugin
		// directory holding it, names the plugin or marketplace: it is
		// no agent file, and its directory holds none.
		manifest, owner := claudeManifest(p, fi)
		switch {
		case owner != "":
			p = owner
		case fi.IsDir() && filepath.Base(p) == ".claude-plugin":
			return nil, nil, fmt.Errorf("%s holds neither marketplace.json nor plugin.json; name the directory of the plugin or marketplace, the one holding .claude-plugin (nothing was imported)", p)
		case !fi.IsDir():
			out = append(out, File{Path: p, Rel: filepath.Base(p)})
			continue
		}
		// A plugin.json named reads the plugin alone, not a marketplace
		// beside it.
		if manifest != "plugin.json" {
			if found, skip, ok := marketplace(p, cacheDir); ok {
				out, skipped = append(out, found...), append(skipped, skip...)
				continue
			}
		}
		// A symlink in a directory the user names may lead anywhere in
		// the repository (a shared prompt), never out of it: a cloned
		// repository's link to a secret is not imported as a prompt.
		before := len(out) + len(skipped)
		within, withinName := p, "the directory named"
		if rel, err := filepath.Rel(root, p); root != "" && err == nil && filepath.IsLocal(rel) {
			within, withinName = root, "the repository"
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if path == p {
					return err
				}
				skipped = append(skipped, Skipped{path, "cannot be read: " + files.Cause(err).Error()})
				if d != nil && d.IsDir() {
					return filepath.SkipDir
				}
				return nil
			}
			if d.IsDir() {
				found, why, ok, err := pluginAgents(path, within, withinName)
				if err != nil {
					skipped = append(skipped, Skipped{filepath.Join(path, ".claude-plugin", "plugin.json"), err.Error()})
					return filepath.SkipDir
				}
				skipped = append(skipped, why...)
				if ok { // a plugin's agents, not its commands and skills
					out = append(out, found...)
					return filepath.SkipDir
				}
			}
			name := d.Name()
			// JSON and YAML files are agents only where a tool keeps its
			// agents so (.amazonq/cli-agents, .cline/agents), not every
			// package.json.
			isAgent := strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".toml") ||
				slices.ContainsFunc(dialect.All().Detect(path, nil).Info().ReadExts, func(ext string) bool { return strings.HasSuffix(name, ext) })
			if d.IsDir() || !isAgent || strings.EqualFold(name, "README.md") {
				return nil
			}
			if !files.IsRegular(d) {
				skipped = append(skipped, Skipped{path, "is " + files.Kind(d) + ", not a regular file"})
				return nil
			}
			rel, _ := filepath.Rel(p, path)
			out = append(out, File{Path: path, Rel: rel, Within: within, withinName: withinName})
			return nil
		})
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", p, files.Cause(err))
		}
		if len(out)+len(skipped) == before {
			return nil, nil, fmt.Errorf("%s holds no agent files (nothing was imported): bn reads every .md (but README.md) and .toml file under it, "+
				"and .json and .yaml files in a tool's agent directory; the tools keep their agents in %s; "+
				"name the directory that holds them, or the file itself (bn config agents sources --trace shows where each tool on this machine reads them)", p, agentPlaces())
		}
	}
	return out, skipped, nil
}

// agentPlaces says where each tool keeps its agent files, and which, and
// where Claude Code keeps a plugin's manifest.
func agentPlaces() string {
	var dirs []string
	tools := map[string][]string{}
	exts := map[string][]string{}
	for _, d := range dialect.All() {
		info := d.Info()
		if info.Name == "claude-plugin" {
			continue // named below
		}
		if _, seen := tools[info.Dir]; !seen {
			dirs = append(dirs, info.Dir)
		}
		tools[info.Dir] = append(tools[info.Dir], info.Name)
		for _, ext := range info.ReadExts {
			if !slices.Contains(exts[info.Dir], "*"+ext) {
				exts[info.Dir] = append(exts[info.Dir], "*"+ext)
			}
		}
	}
	var parts []string
	for _, dir := range dirs {
		parts = append(parts, fmt.Sprintf("%s/%s (%s)", dir, strings.Join(exts[dir], ", "), strings.Join(tools[dir], ", ")))
	}
	return strings.Join(parts, ", ") + ", and Claude Code's plugins and marketplaces in .claude-plugin/ (plugin.json, marketplace.json)"
}

// claudeManifest is the plugin or marketplace a path names that is its
// manifest (.claude-plugin/plugin.json or marketplace.json: manifest is
// its name) or the .claude-plugin directory holding one (manifest is
// ""): owner is the directory holding .claude-plugin, or "" when the
// path is neither.
func claudeManifest(p string, fi fs.FileInfo) (manifest, owner string) {
	dir := filepath.Dir(p)
	switch base := filepath.Base(p); {
	case fi.IsDir() && base == ".claude-plugin":
		for _, m := range []string{"marketplace.json", "plugin.json"} {
			if _, err := os.Stat(filepath.Join(p, m)); err == nil {
				return "", dir
			}
		}
	case !fi.IsDir() && filepath.Base(dir) == ".claude-plugin" && (base == "marketplace.json" || base == "plugin.json"):
		return base, filepath.Dir(dir)
	}
	return "", ""
}

// Read reads one collected file, refusing special files, files over the
// agent-file size, a file that leads out of the directory it was found in,
// and anything but text.
func Read(f File) ([]byte, error) {
	var data []byte
	var err error
	if f.Within != "" {
		rel, _ := filepath.Rel(f.Within, f.Path)
		data, err = files.ReadInDir(f.Within, filepath.ToSlash(rel), files.MaxAgentFile)
	} else {
		data, err = files.Read(f.Path, files.MaxAgentFile)
	}
	switch {
	case errors.Is(err, files.ErrOutside):
		return nil, fmt.Errorf("resolves outside %s (a symlink?); files must stay inside it, or be named themselves", f.withinName)
	case err != nil:
		return nil, err
	case !utf8.Valid(data):
		return nil, errors.New("is not UTF-8 text")
	case bytes.IndexByte(data, 0) >= 0:
		return nil, fmt.Errorf("holds a NUL byte (at byte %d): an agent file is text", bytes.IndexByte(data, 0))
	}
	return data, nil
}
