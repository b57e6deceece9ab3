package config

import (
	"bytes"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/frontmatter"
)

// Markdown decodes a layer's agent file: YAML frontmatter with the fields
// of a config.kdl agent node (kebab- or snake-case keys; tools as a list,
// a comma string, or a mapping of all/allow/deny/remove/reset), and the
// body as the prompt. With lazyBody the body is not kept: the prompt is
// marked FromBody, to be read from the file when needed.
func (d Decoder) Markdown(file string, src []byte, lazyBody bool) *agents.File {
	f := &agents.File{Path: file}
	md, err := frontmatter.Split(src)
	if err != nil {
		f.Fail(agents.Pos{File: file, Line: 1}, "", err.Error(), noFrontmatterHint(file, err))
		return f
	}
	entries, err := frontmatter.Read(md)
	if err != nil {
		var fe *frontmatter.Error
		if errors.As(err, &fe) {
			f.Fail(agents.Pos{File: file, Line: int32(fe.Line), Col: int32(fe.Col)}, "", fe.Msg, "")
		} else {
			f.Fail(agents.Pos{File: file}, "", err.Error(), "")
		}
		return f
	}
	at := func(e frontmatter.Entry) agents.Pos {
		return agents.Pos{File: file, Line: int32(e.Line), Col: int32(e.Col)}
	}
	i := slices.IndexFunc(entries, func(e frontmatter.Entry) bool { return e.Key == "name" })
	if i < 0 {
		f.Fail(agents.Pos{File: file, Line: 1}, "name", "missing: an agent file needs a name", "add a line 'name: <agent-name>' to the frontmatter")
		return f
	}
	name, ok := entries[i].Value.(string)
	if !ok {
		f.Fail(at(entries[i]), "name", fmt.Sprintf("expects a string, found %s", describe(entries[i].Value)), "")
		return f
	}
	if err := agents.CheckName(name); err != nil {
		f.Fail(at(entries[i]), "name", err.Error(), "")
		return f
	}
	s := &agents.Spec{Name: name, Pos: agents.Pos{File: file, Line: 1}}
	known := append(agents.AgentNodeNames(d.tools()), "name")
	spelled := map[string]string{} // a field's kebab-case name -> its key here
	for _, e := range entries {
		key := strings.ReplaceAll(e.Key, "_", "-")
		pos := at(e)
		if other, dup := spelled[key]; dup {
			// YAML sees two keys; bn would take the last one silently.
			s.AddDiag(agents.Error, pos, e.Key, fmt.Sprintf("%s and %s are the same field", other, e.Key), "keep one of them")
			continue
		}
		spelled[key] = e.Key
		switch {
		case e.Key == "name":
		case key == agents.NodeTools:
			frontmatterTools(s, e.Value, pos)
		case key == "mcp-servers":
			frontmatterMCP(s, e.Value, pos)
		case slices.Contains(d.tools(), key):
			m, ok := e.Value.(*agents.Map)
			if !ok {
				s.AddDiag(agents.Error, pos, e.Key, "expects a mapping of "+key+"'s own fields", "")
				continue
			}
			entries := make([]sectionEntry, 0, m.Len())
			for _, k := range m.Keys {
				entries = append(entries, sectionEntry{k, m.Values[k], pos})
			}
			applySection(d.Sections, s, key, entries, pos)
		case !slices.Contains(known, key):
			if k := slices.IndexFunc(known, func(f string) bool { return strings.EqualFold(f, key) }); k >= 0 {
				// Ignored, Tools: [read] would leave the agent every tool.
				s.AddDiag(agents.Error, pos, e.Key, fmt.Sprintf("field names are lower-case: %s is not %s", e.Key, known[k]), fmt.Sprintf("write %s", known[k]))
				continue
			}
			s.AddDiag(agents.Warning, pos, e.Key, "not a bn field; ignored", agents.DidYouMean(e.Key, known))
		default:
			args, err := frontmatterArgs(e.Value)
			if err == nil {
				err = setField(s, key, args, pos, true)
			}
			if err != nil {
				s.AddDiag(agents.Error, pos, e.Key, err.Error(), "")
			}
		}
	}
	if body := bytes.TrimSpace(md.Body); len(body) > 0 {
		ref := agents.PromptRef{FromBody: true}
		if !lazyBody {
			ref = agents.PromptRef{Text: string(body)}
		}
		if s.Prompt.Set {
			s.AddDiag(agents.Error, s.Prompt.Pos, "prompt", "the file has a body, which is the prompt, and also sets prompt or prompt-file", "keep one")
		} else {
			s.Prompt.Put(ref, agents.Pos{File: file, Line: int32(md.BodyLine)})
		}
	}
	f.Specs = []*agents.Spec{s}
	return f
}

// frontmatterArgs turns a YAML value into the value list a KDL node
// would have, so both formats share one decoder.
func frontmatterArgs(v any) ([]any, error) {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			switch e.(type) {
			case *agents.Map:
				return nil, fmt.Errorf("expects a list of plain values, found a mapping")
			case []any:
				return nil, fmt.Errorf("expects a list of plain values, found a nested list")
			}
		}
		return x, nil
	case *agents.Map:
		return nil, fmt.Errorf("expects a value, found a mapping")
	}
	return []any{v}, nil
}

// frontmatterTools reads `tools:` as an allow list ("a, b" or a YAML list,
// as Claude and Copilot write it) or as a mapping of all, allow, deny,
// remove and reset.
func frontmatterTools(s *agents.Spec, v any, pos agents.Pos) {
	m, ok := v.(*agents.Map)
	if !ok {
		m = &agents.Map{}
		m.Set("allow", v)
	}
	for _, op := range m.Keys {
		args, err := frontmatterArgs(m.Values[op])
		if err != nil {
			s.AddDiag(agents.Error, pos, "tools."+op, err.Error(), "")
			continue
		}
		ToolOp(s, op, args, pos, true)
	}
}

// frontmatterMCP reads mcp-servers as agent files write them.
func frontmatterMCP(s *agents.Spec, v any, pos agents.Pos) {
	err := agents.EachMCPServer(v, func(name string, cfg any) {
		srv := agents.MCPServer{Name: name}
		if cfg != nil {
			m, ok := cfg.(*agents.Map)
			if !ok {
				s.AddDiag(agents.Error, pos, "mcp-servers."+name, "expects a mapping of the server's settings", "")
				return
			}
			srv.Config = m
		}
		s.AddMCP(srv, pos)
	})
	if err != nil {
		s.AddDiag(agents.Error, pos, "mcp-servers", err.Error(), "")
	}
}

// noFrontmatterHint gives the fixes for a markdown file in a layer directory
// that has no frontmatter: most often a prompt (binnacle's layout) that no
// prompt-file names, as binnacle ignored such files.
func noFrontmatterHint(file string, err error) string {
	if !errors.Is(err, frontmatter.ErrNone) {
		return ""
	}
	base := path.Base(filepath.ToSlash(file))
	name := strings.TrimSuffix(base, ".md")
	if agents.CheckName(name) != nil {
		name = "NAME"
	}
	return fmt.Sprintf("if it is a prompt, name it in config.kdl with agent %q { prompt-file %q } or move it to %s/prompt.md; "+
		"a prompt-file that is absolute or uses '..' names no file; if it is an agent, start it with its frontmatter", name, base, name)
}
