package dialect

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/binnacle-dev/bn/agents"
)

// cursor is Cursor (the editor, its CLI and cloud agents): markdown
// subagents in .cursor/agents and ~/.cursor/agents, known by their name
// field. A file names no tools: a subagent has the parent's tools, or,
// with readonly: true, no way to change files or run commands that
// change state. model is inherit, fast or a model id. Per
// cursor.com/docs/agent/subagents, 2026.
type cursor struct{}

var cursorInfo = &Info{
	Name: "cursor", Title: "Cursor", Dir: ".cursor/agents", Ext: ".md", ReadExts: []string{".md"},
	Marks:     []string{".cursor/agents/"},
	Signature: []string{"readonly", "is_background"},
	Doc:       "`.cursor/agents/*.md`, then `~/.cursor/agents`; known by `name`; a project agent wins",
	Dirs: func(env Env) []SourceDir {
		return []SourceDir{{Path: filepath.Join(env.RepoRoot, ".cursor", "agents"), Location: ProjectLocation, Format: "cursor"},
			userDir(filepath.Join(env.Home, ".cursor", "agents"), "cursor")}
	},
	Fields: []FieldSpec{
		{Key: "model", Hint: true, Check: checkString},
		{Key: "readonly", Hint: true, Check: checkBool},
		{Key: "is_background", Doc: "runs in the background; the parent does not wait", Check: checkBool},
	},
	Partial:    "widen",
	PartialWhy: "Cursor's agent files name no tools: an agent has every tool, or with readonly every tool that changes nothing",
	Exports:    true,
}

// cursorWrites are the kinds readonly takes away. A read-only command is
// still allowed there; bn reads readonly as no shell at all, the nearer
// side of safe.
var cursorWrites = []agents.Kind{agents.KindEdit, agents.KindCreate, agents.KindNotebook, agents.KindShell}

func (cursor) Info() *Info { return cursorInfo }

func (cursor) Read(src Source, cat *agents.Catalog) (*Imported, error) {
	im := &Imported{Format: cursorInfo.Name, File: src.Path}
	f, err := readMarkdown(src, im)
	if err != nil {
		return nil, err
	}
	if err := setIdentity(im, cursorInfo, f.str("name"), f.description(), f.body, errEmptyBody); err != nil {
		return nil, err
	}
	im.Def.Tools = agents.Tools{All: true}
	if v, ok := f.keep(im, cursorInfo.Name, "readonly"); ok {
		ro, isBool := v.(bool)
		if !isBool {
			return nil, fmt.Errorf("readonly: %v is not true or false", agents.Plain(v))
		}
		if ro {
			im.Def.Tools.Deny = kindPatterns(cursorWrites, "")
			im.note("readonly: true: bn denies edit, create, notebook and shell (Cursor still runs commands that change nothing)")
		}
	}
	if m, ok := f.take("model"); ok && m != "fast" {
		readModel(im, cursorInfo.Name, "model", m, cat)
	} else if ok {
		im.Def.Target(cursorInfo.Name).Fields.Set("model", m)
		im.note("model fast is Cursor's own choice of a quick model; kept for Cursor only")
	}
	f.rest(im, cursorInfo)
	return im, nil
}

func (cursor) Render(def agents.Definition, id, marker string, cat *agents.Catalog) (Rendered, error) {
	d := &frontmatterDoc{}
	d.set("name", id)
	d.set("description", def.Description)
	var losses []Loss
	hints := def.TargetOf(cursorInfo.Name).Fields
	if m, ok := hints.Get("model"); ok && m == "fast" && def.Model == "" {
		d.set("model", m)
	} else {
		model, ml := writeModel(&def, cursorInfo, "model", cat)
		losses = append(losses, ml...)
		if model != nil {
			d.set("model", model)
		}
	}
	readonly := !slices.ContainsFunc(cursorWrites, def.Tools.Uses)
	if h, ok := hints.Get("readonly"); ok && h == false && readonly {
		readonly = false // as written: the agent has every tool
	}
	if readonly {
		d.set("readonly", true)
	} else if h, ok := hints.Get("readonly"); ok && h == false {
		d.set("readonly", false)
	}
	losses = append(losses, cursorWidened(def.Tools, readonly)...)
	losses = append(losses, sectionFields(d, &def, cursorInfo)...)
	losses = append(losses, otherLosses(&def, cursorInfo, carried{"mode": def.Mode != "primary"})...)
	if def.Mode == "primary" {
		losses = append(losses, Loss{Field: "mode", Kind: Changed, Detail: "Cursor runs agent files as subagents"})
	}
	content, err := d.markdown(marker, def.Prompt)
	return Rendered{Content: content, Losses: losses}, err
}

// cursorWidened reports what a Cursor file grants beyond the definition:
// each kind it does not take away that the definition denies or limits,
// the read-only commands readonly leaves, and MCP tools when the
// definition names which.
func cursorWidened(t agents.Tools, readonly bool) []Loss {
	var out []Loss
	if readonly {
		// readonly takes away the shell only in part: the definition has
		// none, and Cursor still runs the commands that change nothing.
		out = append(out, Loss{Field: "tools", Kind: Widened, Detail: "shell granted in part: a readonly Cursor agent still runs commands that change nothing (they read any file)", Grants: []string{string(agents.KindShell)}})
	}
	for _, ki := range agents.Kinds {
		if readonly && slices.Contains(cursorWrites, ki.Kind) {
			continue
		}
		whole := agents.Decide(t, agents.ToolPattern{Kind: string(ki.Kind)}).Allowed
		if whole && !limitsKind(t, ki.Kind) {
			continue
		}
		out = append(out, Loss{Field: "tools", Kind: Widened, Detail: fmt.Sprintf("%s granted whole: Cursor agent files cannot leave it out or limit it", ki.Kind), Grants: []string{string(ki.Kind)}})
	}
	return append(out, everyMCPTool(t, "Cursor agent files cannot limit MCP tools")...)
}

// everyMCPTool is the widening of a tool that gives every agent every MCP
// tool of the session whatever its file says: reported unless the
// definition has every tool and names no MCP server or tool.
func everyMCPTool(t agents.Tools, why string) []Loss {
	mcp := slices.ContainsFunc(append(slices.Clone(t.Allow), t.Deny...), func(s string) bool {
		p, err := agents.ParseToolPattern(s)
		return err == nil && p.Kinds() == nil
	})
	if !mcp && t.All {
		return nil
	}
	return []Loss{{Field: "tools", Kind: Widened, Detail: why + ": the agent has every MCP tool the session has", Grants: []string{EveryMCPTool}}}
}

// limitsKind says whether a rule limits a kind to some of its uses.
func limitsKind(t agents.Tools, k agents.Kind) bool {
	return slices.ContainsFunc(append(slices.Clone(t.Allow), t.Deny...), func(s string) bool {
		p, err := agents.ParseToolPattern(s)
		return err == nil && p.HasArg && p.Arg != "*" && slices.Contains(p.Kinds(), k)
	})
}
