package dialect

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/enforce"
	"github.com/binnacle-dev/bn/files"
	"github.com/goccy/go-yaml"
)

// claudePluginInfo is a Claude Code plugin's agents: Claude Code's agent
// files in a plugin's agents/ directory (beside .claude-plugin/plugin.json),
// loaded once the plugin is installed from a marketplace
// (.claude-plugin/marketplace.json), each known as PLUGIN:NAME. Claude
// Code ignores hooks, mcpServers and permissionMode in a plugin's agents,
// so no hook bn writes would run there: a limit only a hook could keep is
// widened, and reported. bn writes the plugin under plugin/ and a
// marketplace that lists it at the repository root. Per
// code.claude.com/docs (plugins, plugins reference, plugin marketplaces,
// sub-agents), 2026, and what the probes saw Claude Code install and run.
var claudePluginInfo = func() *Info {
	info := *claudeInfo
	info.Name, info.Title, info.Dir = "claude-plugin", "Claude Code plugin", "plugin/agents"
	info.Recursive = false
	info.Marks, info.Signature, info.Fallback = nil, nil, false
	info.Hook, info.MCPKeys, info.MCPTypes = nil, nil, nil
	// verify runs a plugin's agents one at a time, at top level: no
	// sub-agent observations.
	info.SubWithheld = nil
	info.Ignores = []string{"hooks", "mcpServers", "permissionMode"}
	info.Fields = slices.DeleteFunc(slices.Clone(claudeInfo.Fields), func(f FieldSpec) bool {
		return slices.Contains(info.Ignores, f.Key)
	})
	info.PartialWhy = "Claude Code drops a rule's parentheses in an agent file, and ignores a plugin agent's hooks: " +
		"`Bash(git diff:*)` in `tools` grants all of Bash"
	info.Doc = "a plugin's `agents/*.md`, once the plugin is installed from a marketplace (`~/.claude/plugins/installed_plugins.json`); known as `PLUGIN:NAME`; " +
		"bn writes `plugin/` (`.claude-plugin/plugin.json`, `agents/`) and `.claude-plugin/marketplace.json` listing it"
	info.Setup = "Claude Code loads the plugin once it is installed: claude plugin marketplace add DIR (the repository, or its git URL), " +
		"then claude plugin install PLUGIN@MARKETPLACE"
	info.Dirs = func(env Env) []SourceDir { return pluginAgentDirs(env.Home, "claude-plugin") }
	info.Package = claudePluginPackage
	info.ModelsAs = "claude"
	return &info
}()

// installedPlugins is the file where Claude Code lists the plugins it has
// installed.
func installedPlugins(home string) string {
	return filepath.Join(home, ".claude", "plugins", "installed_plugins.json")
}

// pluginAgentDirs are the agents/ directories of the Claude Code plugins
// installed, read as format's; an installed_plugins.json bn cannot read
// is one unreadable entry, reported as an invalid file.
func pluginAgentDirs(home, format string) []SourceDir {
	dirs, err := installedClaudePlugins(home)
	if err != nil {
		return []SourceDir{{Path: installedPlugins(home), Location: UserLocation, Format: format, Unreadable: err.Error()}}
	}
	var out []SourceDir
	for _, dir := range dirs {
		out = append(out, userDir(filepath.Join(dir, "agents"), format))
	}
	return out
}

// installedClaudePlugins are the directories of the plugins Claude Code
// has installed (installed_plugins.json), sorted; none when it has none.
// The file is read as a marketplace.json is: at most 1 MiB, and one bn
// cannot read is an error that says why.
func installedClaudePlugins(home string) ([]string, error) {
	data, err := files.Read(installedPlugins(home), files.MaxAgentFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var doc struct {
		Plugins map[string][]struct {
			InstallPath string `json:"installPath"`
		} `json:"plugins"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("is not a list of plugins bn reads (%v); fix it, or reinstall the plugins with claude plugin install", err)
	}
	var out []string
	for _, installs := range doc.Plugins {
		for _, in := range installs {
			if in.InstallPath != "" && !slices.Contains(out, in.InstallPath) {
				out = append(out, in.InstallPath)
			}
		}
	}
	slices.Sort(out)
	return out, nil
}

// claudePluginPackage writes the plugin's manifest beside its agents
// directory and a marketplace one level up that lists it, both named
// after the repository (kebab-case).
func claudePluginPackage(root, agentsDir, marker string) []Written {
	pluginRoot := filepath.Dir(agentsDir)
	market := filepath.Dir(pluginRoot)
	repo := repoName(root)
	name := kebab(repo)
	if name == "" {
		name = "agents"
	}
	rel, err := filepath.Rel(market, pluginRoot)
	if err != nil {
		rel = filepath.Base(pluginRoot)
	}
	manifest := &frontmatterDoc{}
	manifest.set("name", name)
	manifest.set("description", "The agents of "+repo+", written by bn from its agent definitions")
	entry := &agents.Map{}
	entry.Set("name", name)
	entry.Set("source", "./"+filepath.ToSlash(rel))
	entry.Set("description", "The agents of "+repo)
	owner := &agents.Map{}
	owner.Set("name", repo)
	catalog := &frontmatterDoc{}
	catalog.set("name", name)
	catalog.set("owner", owner)
	catalog.set("plugins", []any{entry})
	marketPath := filepath.Join(market, ".claude-plugin", "marketplace.json")
	catalogMarker := marker
	if data, err := files.Read(marketPath, files.MaxAgentFile); err == nil {
		catalog, catalogMarker = mergeMarketplace(data, catalog, entry, name, marker)
	}
	m, _ := manifest.json(marker, "", "")
	c, _ := catalog.json(catalogMarker, "", "")
	return []Written{
		{Path: filepath.Join(pluginRoot, ".claude-plugin", "plugin.json"), Content: m},
		{Path: marketPath, Content: c},
	}
}

// repoName is the name of the repository at root as every clone of it
// knows it: its origin's (the URL's last part, without .git), else its
// directory's, which a clone under another name does not share.
func repoName(root string) string {
	url := strings.TrimRight(enforce.OriginURL(root), `/\`)
	url = strings.TrimRight(strings.TrimSuffix(url, ".git"), `/\`)
	if name := url[strings.LastIndexAny(url, `/\:`)+1:]; name != "" {
		return name
	}
	return filepath.Base(root)
}

// mergeMarketplace is the marketplace already written (by hand, or by bn
// before) with bn's entry in it: every other member, and every other
// plugin, is kept as written (its value's bytes, re-indented), in its
// order. The entry of bn's plugin's name gets bn's members, where they
// are, and keeps the others (a category, tags); it is added last when
// missing. A file that is no JSON object with a list of plugins is
// replaced by ours, as export replaces any file of bn's name. bn's marker
// is written anew, but into a file whose own "$comment" is not bn's
// there is room for none: that file keeps its comment and stays the
// user's (marker is then "", and a change of it needs --force).
func mergeMarketplace(data []byte, ours *frontmatterDoc, entry *agents.Map, name, marker string) (*frontmatterDoc, string) {
	old, ok := jsonObject(data)
	if !ok {
		return ours, marker
	}
	at := slices.IndexFunc(old, func(it yaml.MapItem) bool { return it.Key == "plugins" })
	var plugins []json.RawMessage
	if at < 0 || json.Unmarshal(old[at].Value.(json.RawMessage), &plugins) != nil || plugins == nil {
		return ours, marker
	}
	list := make([]any, len(plugins))
	found := false
	for i, p := range plugins {
		list[i] = p
		if members, ok := jsonObject(p); ok && !found && stringMember(members, "name") == name {
			list[i], found = mergeEntry(members, entry), true
		}
	}
	if !found {
		list = append(list, yamlValue(entry))
	}
	if emit.IsGenerated(data) {
		old = slices.Delete(slices.Clone(old), 0, 1) // bn's marker, written anew
		at--
	} else if slices.ContainsFunc(old, func(it yaml.MapItem) bool { return it.Key == "$comment" }) {
		marker = ""
	}
	merged := &frontmatterDoc{items: slices.Clone(old)}
	merged.items[at].Value = list
	return merged, marker
}

// mergeEntry is a plugin's entry with bn's members (entry) set where they
// are, else added after the others, which are kept as written.
func mergeEntry(members []yaml.MapItem, entry *agents.Map) yaml.MapSlice {
	var out yaml.MapSlice
	set := map[string]bool{}
	for _, it := range members {
		k := it.Key.(string)
		if _, ours := entry.Values[k]; ours {
			if set[k] {
				continue // a duplicate of bn's member: one is written
			}
			set[k] = true
			it.Value = yamlValue(entry.Values[k])
		}
		out = append(out, it)
	}
	for _, k := range entry.Keys {
		if !set[k] {
			out = append(out, yaml.MapItem{Key: k, Value: yamlValue(entry.Values[k])})
		}
	}
	return out
}

// jsonObject is a JSON object's members in order, each value as written
// (a json.RawMessage); ok is false for anything but one object.
func jsonObject(data []byte) (members []yaml.MapItem, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil, false
		}
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			return nil, false
		}
		members = append(members, yaml.MapItem{Key: key.(string), Value: v})
	}
	if t, err := dec.Token(); err != nil || t != json.Delim('}') {
		return nil, false
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, false
	}
	return members, true
}

// stringMember is the string value of an object's member key; "" when it
// has none.
func stringMember(members []yaml.MapItem, key string) string {
	for _, it := range members {
		var s string
		if it.Key == key && json.Unmarshal(it.Value.(json.RawMessage), &s) == nil {
			return s
		}
	}
	return ""
}

// ClaudePluginAgents lists the agent files of a Claude Code plugin
// directory (one holding .claude-plugin/plugin.json): those in agents/,
// and the files or directories its manifest's agents names; ok is false
// when dir is no plugin. skipped says why each path the manifest names is
// not read: an absolute one, one leading out of the plugin, one missing.
func ClaudePluginAgents(dir string) (paths, skipped []string, ok bool, err error) {
	data, err := files.Read(filepath.Join(dir, ".claude-plugin", "plugin.json"), files.MaxAgentFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, true, err
	}
	var manifest struct {
		Agents any `json:"agents"`
	}
	if err := json.Unmarshal(data, &manifest); err != nil {
		return nil, nil, true, err
	}
	named := stringList(manifest.Agents)
	for i, p := range append([]string{"agents"}, named...) {
		full := filepath.Join(dir, filepath.FromSlash(strings.TrimPrefix(p, "./")))
		switch {
		case filepath.IsAbs(p) || path.IsAbs(p) || filepath.VolumeName(p) != "":
			skipped = append(skipped, fmt.Sprintf("agents path %q is absolute: a plugin's paths are relative to it (\"./agents/NAME.md\"); fix the manifest", p))
			continue
		case !within(full, dir):
			skipped = append(skipped, fmt.Sprintf("agents path %q leads out of the plugin: a plugin reads only its own files; fix the manifest", p))
			continue
		}
		fi, err := os.Stat(full)
		switch {
		case err != nil && i > 0:
			skipped = append(skipped, fmt.Sprintf("agents path %q cannot be read (%v); fix the manifest", p, errors.Unwrap(err)))
		case err != nil:
		case fi.IsDir():
			entries, _ := os.ReadDir(full)
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), ".md") && !e.IsDir() {
					paths = appendNew(paths, filepath.Join(full, e.Name()))
				}
			}
		case strings.HasSuffix(full, ".md"):
			paths = appendNew(paths, full)
		default:
			skipped = append(skipped, fmt.Sprintf("agents path %q is neither a directory nor a .md file; fix the manifest", p))
		}
	}
	return paths, skipped, true, nil
}

// within says whether p is dir or lies under it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// PluginHost is a tool besides Claude Code that installs a Claude Code
// plugin from its marketplace, and what its probe
// (testdata/probes/claude-plugin-hosts.json) saw it make of the plugin's
// agents.
type PluginHost struct {
	Tool    string // the tool, as bn names it
	Install string // how it installs the plugin bn writes
	// KnownAs is the name it knows a plugin's agent by: PLUGIN:NAME, or
	// NAME.
	KnownAs string
	// Starts says whether the probe could start the agent there; Meaning
	// is what the tool makes of the agent's tools, or why it could not be
	// started.
	Starts  bool
	Meaning string
}

// ClaudePluginHosts are the tools besides Claude Code that install the
// plugin export --target claude-plugin writes. Per each tool's --help and
// what the probes saw each do with it.
var ClaudePluginHosts = []PluginHost{
	{Tool: "copilot", Install: "`copilot plugin marketplace add DIR`, then `copilot plugin install PLUGIN@MARKETPLACE`; loaded live from DIR, not copied",
		KnownAs: "PLUGIN:NAME", Starts: true,
		Meaning: "Claude Code's tool names are read as the Copilot CLI's own (`Read, Grep, Glob`: view, grep, glob), beside the skill and sql tools it offers every agent"},
	{Tool: "qwen", Install: "`qwen extensions install DIR:PLUGIN` (a Claude Code marketplace and a plugin in it); copied to `~/.qwen/extensions/PLUGIN`",
		KnownAs: "NAME", Starts: true,
		Meaning: "its agents' tools are renamed to Qwen Code's on install (`Read, Grep, Glob`: read_file, grep_search, glob): the same tools"},
	{Tool: "droid", Install: "`droid plugin marketplace add DIR`, then `droid plugin install PLUGIN@MARKETPLACE`; copied to `~/.factory/plugins`, its agents as droids",
		KnownAs: "NAME", Starts: false,
		Meaning: "listed as a personal droid, but Droid starts a droid through Factory's daemon, which needs a sign-in: offline its Task tool answers that it could not reach the daemon, so what the droid is offered is not seen"},
}
