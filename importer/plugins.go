package importer

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/team"
)

// pluginAgents lists the agents of a Claude Code plugin directory, read
// as a plugin's (Claude Code ignores some fields there), and the paths its
// manifest names that are not read, with why; ok is false when dir is no
// plugin. A symlink among them may not lead out of within, as Read checks
// for every file found in a directory.
func pluginAgents(dir, within, withinName string) ([]File, []Skipped, bool, error) {
	paths, why, ok, err := dialect.ClaudePluginAgents(dir)
	if !ok || err != nil {
		return nil, nil, ok, err
	}
	out := make([]File, len(paths))
	for i, p := range paths {
		out[i] = pluginFile(p, within, withinName)
	}
	var skipped []Skipped
	for _, w := range why {
		skipped = append(skipped, Skipped{File: filepath.Join(dir, ".claude-plugin", "plugin.json"), Reason: w})
	}
	return out, skipped, true, nil
}

func pluginFile(path, within, withinName string) File {
	return File{Path: path, Rel: filepath.Base(path), Format: "claude-plugin", Within: within, withinName: withinName}
}

// catalog is the part of a marketplace.json import reads.
type catalog struct {
	Plugins []struct {
		Name   string          `json:"name"`
		Source json.RawMessage `json:"source"`
	} `json:"plugins"`
	Metadata struct {
		PluginRoot string `json:"pluginRoot"`
	} `json:"metadata"`
}

// marketplace collects the agents of every plugin a marketplace lists:
// those in the marketplace's own tree (a relative source), and those in
// git (github, url and git-subdir sources), fetched into cacheDir. A
// plugin bn cannot reach (an npm source, git without a cache) is skipped
// with the reason, as is a marketplace.json bn cannot read (over the
// size of an agent file, not JSON, nested too deep). ok is false when dir
// is no marketplace.
func marketplace(dir, cacheDir string) (found []File, skipped []Skipped, ok bool) {
	path := filepath.Join(dir, ".claude-plugin", "marketplace.json")
	data, err := files.Read(path, files.MaxAgentFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, false
	}
	if err != nil {
		return nil, []Skipped{{File: path, Reason: err.Error()}}, true
	}
	var c catalog
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, []Skipped{{File: path, Reason: fmt.Sprintf("is not a marketplace bn reads (%v); fix it", err)}}, true
	}
	for _, p := range c.Plugins {
		pluginDir, why := pluginSource(dir, c.Metadata.PluginRoot, p.Name, p.Source, cacheDir)
		if why != "" {
			skipped = append(skipped, Skipped{File: path, Reason: fmt.Sprintf("plugin %q: %s", p.Name, why)})
			continue
		}
		// A plugin in the marketplace's tree reads nothing outside the
		// marketplace; one fetched from git, nothing outside its tree.
		within, withinName := dir, "the marketplace"
		if r, err := filepath.Rel(dir, pluginDir); err != nil || !filepath.IsLocal(r) {
			within, withinName = pluginDir, "the plugin's source"
		}
		files, bad, isPlugin, err := pluginAgents(pluginDir, within, withinName)
		skipped = append(skipped, bad...)
		if err == nil && !isPlugin {
			// A plugin without a manifest: its agents/ all the same.
			files, err = bareAgents(pluginDir, within, withinName)
		}
		switch {
		case err != nil:
			skipped = append(skipped, Skipped{File: path, Reason: fmt.Sprintf("plugin %q: %v", p.Name, err)})
		case len(files) == 0:
			skipped = append(skipped, Skipped{File: path, Reason: fmt.Sprintf("plugin %q: %s holds no agents (agents/*.md)", p.Name, pluginDir)})
		default:
			found = append(found, files...)
		}
	}
	return found, skipped, true
}

// bareAgents lists the agents/*.md of a plugin without a manifest.
func bareAgents(dir, within, withinName string) ([]File, error) {
	entries, err := os.ReadDir(filepath.Join(dir, "agents"))
	if err != nil {
		return nil, fmt.Errorf("%s holds no .claude-plugin/plugin.json and its agents directory cannot be read (%v); fix the plugin's source", dir, files.Cause(err))
	}
	var out []File
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".md") {
			out = append(out, pluginFile(filepath.Join(dir, "agents", e.Name()), within, withinName))
		}
	}
	return out, nil
}

// pluginSource is the directory of a marketplace's plugin, or why bn
// cannot reach it.
func pluginSource(dir, root, name string, raw json.RawMessage, cacheDir string) (string, string) {
	var rel string
	if json.Unmarshal(raw, &rel) == nil {
		if filepath.IsAbs(rel) || path.IsAbs(rel) {
			return "", fmt.Sprintf("source %q is an absolute path; a marketplace's plugin sources are relative to it (\"./plugins/%s\")", rel, name)
		}
		local := filepath.Join(filepath.FromSlash(root), filepath.FromSlash(rel))
		if !filepath.IsLocal(local) {
			return "", fmt.Sprintf("source %q leads out of the marketplace", rel)
		}
		return filepath.Join(dir, local), ""
	}
	var src struct {
		Source, Repo, URL, Path, Ref, SHA, Package string
	}
	if err := json.Unmarshal(raw, &src); err != nil {
		return "", fmt.Sprintf("source is neither a path nor an object: %v", err)
	}
	spec := agents.SourceSpec{Name: name, URL: src.URL, Ref: src.Ref, Path: src.Path}
	if src.SHA != "" {
		spec.Ref = src.SHA
	}
	switch src.Source {
	case "github":
		spec.URL = "https://github.com/" + src.Repo + ".git"
	case "url", "git-subdir":
		if src.Source == "git-subdir" && !strings.Contains(spec.URL, ":") && strings.Count(spec.URL, "/") == 1 {
			spec.URL = "https://github.com/" + spec.URL + ".git"
		}
	case "npm":
		return "", "an npm package; bn imports plugins from a directory or git"
	default:
		return "", fmt.Sprintf("source %q is not one bn reads (a path, github, url, git-subdir)", src.Source)
	}
	if spec.Path != "" && !filepath.IsLocal(filepath.FromSlash(path.Clean(spec.Path))) {
		return "", fmt.Sprintf("path %q leads out of the repository it names; a plugin's path is a directory in it (\"plugins/%s\")", spec.Path, name)
	}
	if why := networkURL(spec.URL); why != "" {
		return "", fmt.Sprintf("%s source %q %s: a plugin in git is fetched only over the network "+
			"(https://, ssh:// or git@HOST:REPO); one in the marketplace's tree is a relative source (\"./plugins/%s\")", src.Source, spec.URL, why, name)
	}
	if cacheDir == "" {
		return "", "a git source, which only import fetches"
	}
	tree, err := team.Checkout(cacheDir, spec, dir)
	if err != nil {
		return "", err.Error()
	}
	return tree, ""
}

// networkURL says why a git URL is not one of a repository on the
// network, or "" when it is: a marketplace may not have bn read a local
// path (out of the marketplace, as a relative source may not) or run a
// transport of git's that reads files or runs commands (file://, ext::,
// fd::).
func networkURL(u string) string {
	if u == "" {
		return "names no repository"
	}
	if strings.HasPrefix(u, "-") {
		return "starts with a dash"
	}
	if t, _, ok := strings.Cut(u, "::"); ok {
		return fmt.Sprintf("uses git's %q transport", t)
	}
	if scheme, rest, ok := strings.Cut(u, "://"); ok {
		switch strings.ToLower(scheme) {
		case "https", "http", "ssh", "git", "git+ssh", "ssh+git":
			if host, _, _ := strings.Cut(rest, "/"); host == "" {
				return "names no host"
			}
			return ""
		case "file":
			return "is a file:// URL, a local path"
		}
		return fmt.Sprintf("uses the scheme %q", scheme)
	}
	// git@host:repo, as git reads it: a colon before any slash, and a
	// host longer than a drive letter.
	if i := strings.IndexByte(u, ':'); i > 0 && !strings.ContainsAny(u[:i], "/\\") {
		host := u[strings.LastIndexByte(u[:i], '@')+1 : i]
		if len(host) > 1 {
			return ""
		}
	}
	return "is a local path"
}
