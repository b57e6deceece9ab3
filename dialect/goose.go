package dialect

import (
	"path/filepath"

	"github.com/binnacle-dev/bn/agents"
)

// goose is goose (Block's, now the AAIF's): custom agents, markdown files
// whose body is the system prompt, in .agents/agents of the project and
// ~/.agents/agents, and, for compatibility, .goose/agents, .claude/agents,
// ~/.goose/agents, ~/.claude/agents and goose's config agents directory;
// bn writes .goose/agents, which no other tool reads (Antigravity and
// Kimi Code read .agents/agents with meanings of their own).
// name (a display name, spaces and all) is required; description, model,
// provider and avatar are optional. An agent file names no tools: the
// agent has the tools and MCP servers of the session it is picked in.
// Per its documentation (documentation/docs/guides/context-engineering/
// custom-agents.md, 2026), which does not say which directory wins; not
// verified by a client, which no registry here has.
type goose struct{}

var gooseInfo = &Info{
	Name: "goose", Title: "goose", Dir: ".goose/agents", Ext: ".md", ReadExts: []string{".md"},
	Marks:     []string{".goose/agents/", ".agents/agents/", ".config/goose/agents/"},
	Signature: []string{"avatar", "provider"},
	Doc:       "`.agents/agents/*.md`, then `.goose/agents` and `.claude/agents` (read as goose's files), then the same under `~` and `~/.config/goose/agents`; known by `name`, a display name; which copy wins is not documented",
	Dirs: func(env Env) []SourceDir {
		var out []SourceDir
		for _, rel := range []string{".agents/agents", ".goose/agents", ".claude/agents"} {
			out = append(out, SourceDir{Path: filepath.Join(env.RepoRoot, filepath.FromSlash(rel)), Location: ProjectLocation, Format: "goose"})
		}
		for _, rel := range []string{".agents/agents", ".goose/agents", ".claude/agents"} {
			out = append(out, userDir(filepath.Join(env.Home, filepath.FromSlash(rel)), "goose"))
		}
		config := env.XDGConfigHome
		if config == "" {
			config = filepath.Join(env.Home, ".config")
		}
		return append(out, userDir(filepath.Join(config, "goose", "agents"), "goose"))
	},
	Fields: []FieldSpec{
		{Key: "model", Hint: true, Check: checkString}, {Key: "provider", Hint: true, Check: checkString},
		{Key: "avatar", Doc: "the avatar goose Desktop shows (a URL or data URL)", Check: checkString},
	},
	ModelsAs:    "opencode",
	Exports:     true,
	LoadsCopies: true,
}

var gooseFile = &listFile{info: gooseInfo, model: "model", provider: "provider"}

func (goose) Info() *Info { return gooseInfo }

func (goose) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	im := &Imported{Format: gooseInfo.Name, File: src.Path}
	f, err := readMarkdown(src, im)
	if err != nil {
		return nil, err
	}
	// The description is optional in goose; bn needs one to list it.
	if err := setIdentity(im, gooseInfo, f.str("name"), f.description(), f.body, errEmptyBody); err != nil {
		return nil, err
	}
	im.Def.Tools = agents.Tools{All: true}
	for _, key := range []string{"tools", "disallowedTools"} {
		if v, ok := f.take(key); ok {
			im.drop("%s %v not imported: goose reads no tool list from an agent file; the agent has the session's tools", key, agents.Plain(v))
		}
	}
	if m, ok := f.take("model"); ok {
		readModel(im, gooseInfo.Name, "model", gooseFile.joinProvider(f, im, m), cat)
	} else if p, ok := f.take("provider"); ok {
		im.drop("provider %v without model not imported: bn names a model, not a provider", agents.Plain(p))
	}
	f.rest(im, gooseInfo)
	return im, nil
}

func (goose) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	d := &frontmatterDoc{}
	d.set("name", id)
	d.set("description", def.Description)
	var losses []Loss
	if !def.Tools.All || len(def.Tools.Deny) > 0 {
		losses = append(losses, Loss{Field: "tools", Kind: Widened,
			Detail: "goose agent files name no tools: the agent has every tool and MCP server of the session it is picked in", Grants: []string{EveryTool}})
	}
	model, ml := writeModel(&def, gooseInfo, "model", cat)
	losses = append(losses, ml...)
	gooseFile.setModel(d, model)
	losses = append(losses, sectionFields(d, &def, gooseInfo)...)
	losses = append(losses, otherLosses(&def, gooseInfo, carried{"mode": def.Mode != "subagent"})...)
	if def.Mode == "subagent" {
		losses = append(losses, Loss{Field: "mode", Kind: Changed, Detail: "goose's agents are picked for a session; another agent reaches one by delegating to it by name"})
	}
	content, err := d.markdown(marker, def.Prompt)
	return Rendered{Content: content, Losses: losses}, err
}
