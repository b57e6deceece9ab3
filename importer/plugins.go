package importer

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/team"
)

// pluginAgents lists the agents of a Claude Code plugin directory, read
// as a plugin's (Claude Code ignores some fields there); ok is false when
// dir is no plugin.
func pluginAgents(dir string) ([]File, bool, error) {
	paths, ok, err := dialect.ClaudePluginAgents(dir)
	if !ok || err != nil {
		return nil, ok, err
	}
	out := make([]File, len(paths))
	for i, p := range paths {
		out[i] = File{Path: p, Rel: filepath.Base(p), Format: "claude-plugin"}
	}
	return out, true, nil
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
// with the reason. ok is false when dir is no marketplace.
func marketplace(dir, cacheDir string) (found []File, skipped []Skipped, ok bool, err error) {
	path := filepath.Join(dir, ".claude-plugin", "marketplace.json")
	data, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, true, err
	}
	var c catalog
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, nil, true, fmt.Errorf("%s: %v", path, err)
	}
	for _, p := range c.Plugins {
		pluginDir, why := pluginSource(dir, c.Metadata.PluginRoot, p.Name, p.Source, cacheDir)
		if why != "" {
			skipped = append(skipped, Skipped{File: path, Reason: fmt.Sprintf("plugin %q: %s", p.Name, why)})
			continue
		}
		files, isPlugin, err := pluginAgents(pluginDir)
		switch {
		case err != nil:
			skipped = append(skipped, Skipped{File: path, Reason: fmt.Sprintf("plugin %q: %v", p.Name, err)})
		case !isPlugin:
			// A plugin without a manifest: its agents/ all the same.
			entries, _ := os.ReadDir(filepath.Join(pluginDir, "agents"))
			for _, e := range entries {
				if !e.IsDir() && strings.HasSuffix(e.Name(), ".md") {
					found = append(found, File{Path: filepath.Join(pluginDir, "agents", e.Name()), Rel: e.Name(), Format: "claude-plugin"})
				}
			}
		default:
			found = append(found, files...)
		}
	}
	return found, skipped, true, nil
}

// pluginSource is the directory of a marketplace's plugin, or why bn
// cannot reach it.
func pluginSource(dir, root, name string, raw json.RawMessage, cacheDir string) (string, string) {
	var rel string
	if json.Unmarshal(raw, &rel) == nil {
		p := filepath.Join(dir, filepath.FromSlash(root), filepath.FromSlash(strings.TrimPrefix(rel, "./")))
		if r, err := filepath.Rel(dir, p); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return "", fmt.Sprintf("source %q leads out of the marketplace", rel)
		}
		return p, ""
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
	if cacheDir == "" {
		return "", "a git source, which only import fetches"
	}
	tree, err := team.Checkout(cacheDir, spec, dir)
	if err != nil {
		return "", err.Error()
	}
	return tree, ""
}
