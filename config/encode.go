package config

import (
	"maps"
	"slices"
	"strconv"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/kdl"
)

// NodeOptions say how AgentNode writes a definition.
type NodeOptions struct {
	Extends string
	// Replace writes replace #true: the node is the whole definition,
	// nothing of a lower layer's agent of the same name merged in.
	Replace bool
	// ResetTools starts the tools block with reset, so it is the whole
	// list rather than an addition to inherited ones.
	ResetTools bool
	// PromptFile, if set, is written as prompt-file instead of the prompt.
	PromptFile string
	// Runtime writes show-reasoning and render-markdown, which only
	// binnacle's own agents set.
	Runtime bool
}

// AgentNode writes a definition as a config.kdl agent node that decodes
// back to the same definition.
func AgentNode(def agents.Definition, opt NodeOptions) *kdl.Node {
	n := &kdl.Node{Name: "agent", Args: []kdl.Value{str(def.Name)}, Block: true}
	add := func(c *kdl.Node) { n.Children = append(n.Children, c) }
	if opt.Extends != "" {
		add(leaf(agents.NodeExtends, str(opt.Extends)))
	}
	if opt.Replace {
		add(leaf(agents.NodeReplace, kdl.Value{Kind: kdl.Bool, Bool: true}))
	}
	for _, f := range agents.Fields {
		v, set := f.Get(&def)
		switch {
		case !set:
			continue
		case f == agents.FieldShowReasoning || f == agents.FieldRenderMarkdown:
			if !opt.Runtime {
				continue
			}
		case f == agents.FieldHidden:
			if !def.Hidden {
				continue
			}
		}
		add(fieldNode(f, v))
	}
	if t := toolsNode(def.Tools, opt.ResetTools); t != nil {
		add(t)
	}
	for _, srv := range def.MCPServers {
		node := leaf(agents.NodeMCPServer, str(srv.Name))
		if srv.Config != nil {
			node.Block = true
			for _, k := range srv.Config.Keys {
				node.Children = append(node.Children, dataNode(k, srv.Config.Values[k]))
			}
		}
		add(node)
	}
	if len(def.Placeholders) > 0 {
		node := &kdl.Node{Name: agents.NodePlaceholders, Block: true}
		for _, k := range slices.Sorted(maps.Keys(def.Placeholders)) {
			node.Children = append(node.Children, leaf(k, str(def.Placeholders[k])))
		}
		add(node)
	}
	if len(def.Accepts) > 0 {
		node := leaf(agents.NodeAccept)
		for _, a := range def.Accepts {
			node.Args = append(node.Args, str(a.Fingerprint))
		}
		add(node)
	}
	for _, tool := range slices.Sorted(maps.Keys(def.Targets)) {
		if s := sectionNode(tool, def.Targets[tool]); s != nil {
			add(s)
		}
	}
	switch {
	case opt.PromptFile != "":
		add(leaf(agents.NodePromptFile, str(opt.PromptFile)))
	case def.Prompt != "":
		add(leaf(agents.NodePrompt, str(def.Prompt)))
	}
	return n
}

func str(s string) kdl.Value { return kdl.Value{Kind: kdl.String, Str: s} }

func leaf(name string, args ...kdl.Value) *kdl.Node { return &kdl.Node{Name: name, Args: args} }

func fieldNode(f *agents.Field, v any) *kdl.Node {
	switch x := v.(type) {
	case string:
		return leaf(f.Name, str(x))
	case bool:
		return leaf(f.Name, kdl.Value{Kind: kdl.Bool, Bool: x})
	case float64:
		sv, _ := scalarValue(x)
		return leaf(f.Name, sv)
	case int64:
		return leaf(f.Name, kdl.Value{Kind: kdl.Int, Str: strconv.FormatInt(x, 10)})
	case []string:
		n := leaf(f.Name)
		for _, s := range x {
			n.Args = append(n.Args, str(s))
		}
		return n
	}
	return leaf(f.Name)
}

// toolsNode writes the tools block; nil when there is nothing to say.
func toolsNode(t agents.Tools, reset bool) *kdl.Node {
	n := &kdl.Node{Name: agents.NodeTools, Block: true}
	// An ask allows its pattern too: said once, as ask.
	allow := slices.DeleteFunc(slices.Clone(t.Allow), func(p string) bool { return slices.Contains(t.Ask, p) })
	// No tool at all is said with reset: without it, an agent with
	// nothing allowed would keep what it started with (every tool), as
	// would one whose every allowed tool asks, which no allow says.
	if reset || !t.All && len(allow) == 0 {
		n.Children = append(n.Children, leaf("reset"))
	}
	if t.All {
		n.Children = append(n.Children, leaf("all"))
	}
	list := func(op string, patterns []string) { // one per line, easy to edit
		for _, p := range patterns {
			n.Children = append(n.Children, leaf(op, str(p)))
		}
	}
	if !t.All {
		list("allow", allow)
	}
	list("ask", t.Ask)
	list("deny", t.Deny)
	if len(n.Children) == 0 {
		return nil
	}
	return n
}

func sectionNode(tool string, t *agents.Target) *kdl.Node {
	n := &kdl.Node{Name: tool, Block: true}
	add := func(c *kdl.Node) { n.Children = append(n.Children, c) }
	if t.ID != "" {
		add(leaf(SectionID, str(t.ID)))
	}
	if t.Partial != "" {
		add(leaf(SectionPartial, str(t.Partial)))
	}
	for _, k := range t.Fields.Keys {
		add(dataNode(k, t.Fields.Values[k]))
	}
	if len(n.Children) == 0 {
		return nil
	}
	return n
}
