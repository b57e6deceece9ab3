package dialect

import (
	"fmt"
	"slices"
	"strings"

	"github.com/binnacle-dev/bn/agents"
)

// The reference tables in docs/ are generated from the registry, so the
// documentation says what the readers and writers do; a test keeps
// docs/ in step (go test ./dialect -update rewrites it).

// DocTables maps each generated section of docs/ to its content.
func (r Registry) DocTables(cat *agents.Catalog) map[string]string {
	return map[string]string{
		"tools":        r.toolsTable(),
		"vocabulary":   r.vocabularyTable(),
		"fields":       r.fieldsTable(cat),
		"own-fields":   r.ownFieldsTable(),
		"built-ins":    r.builtInsTable(),
		"agent-env":    r.agentEnvTable(),
		"plugin-hosts": r.pluginHostsTable(),
		"sections":     r.sectionsList(),
	}
}

// sectionsList names the tool sections an agent in config.kdl may hold:
// one per tool, as config.Decoder accepts them.
func (r Registry) sectionsList() string {
	names := r.Tools()
	for i, n := range names {
		names[i] = "`" + n + "`"
	}
	return strings.Join(names, ", ") + "\n"
}

func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

func header(cols ...string) string {
	return "| " + strings.Join(cols, " | ") + " |\n|" + strings.Repeat("---|", len(cols)) + "\n"
}

func (r Registry) toolsTable() string {
	var b strings.Builder
	b.WriteString(header("tool", "`--target`", "export writes", "where the tool finds agents", "a grant it cannot limit", "checked by"))
	for _, d := range r {
		info := d.Info()
		dir := "(read only)"
		if info.Exports {
			dir = "`" + info.Dir + "/<id>" + info.Ext + "`"
		}
		partial := "written as a pattern"
		switch {
		case info.Hook != nil:
			var tools []string
			for _, t := range info.Hook.Tools {
				tools = append(tools, "`"+t.Name+"`")
			}
			partial = "**enforced** by a hook bn writes in the file, for " + strings.Join(tools, ", ") +
				" (`bn config agents check NAME --hook " + info.Name + "`); other tools **widened** (reported): " + info.PartialWhy
		case info.ShellWords != "":
			partial = "written as a pattern; " + info.Title + " " + info.ShellWords + ", so what a matched command writes (a redirection) and a denied command spelled another way are **widened** (reported)"
		case info.Partial == "widen":
			partial = "**widened** (reported): " + info.PartialWhy
		case info.Partial == "narrow":
			partial = "**left out** (reported): " + info.PartialWhy
		}
		target := "`" + info.Name + "`"
		if !info.Exports {
			target = "—"
		}
		checked := info.Verified()
		if info.Client != "" {
			checked = "its client, npm `" + info.Client + "` (`bn config agents verify`)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", info.Title, target, dir, cell(info.Doc), cell(partial), checked)
	}
	return b.String()
}

func (r Registry) vocabularyTable() string {
	var b strings.Builder
	cols := []string{"bn kind", "what"}
	for _, d := range r {
		cols = append(cols, d.Info().Title)
	}
	b.WriteString(header(cols...))
	for _, k := range agents.Kinds {
		row := []string{"`" + string(k.Kind) + "`", k.Doc}
		for _, d := range r {
			var names []string
			for _, w := range d.Info().Vocabulary {
				if !slices.Contains(w.Kinds, k.Kind) {
					continue
				}
				name := "`" + w.Name + "`"
				switch {
				case w.Write:
					name = "**" + name + "**"
				case w.Legacy:
					name = "~~" + name + "~~"
				}
				if len(w.Kinds) > 1 {
					name += "+"
				}
				if !slices.Contains(names, name) {
					names = append(names, name)
				}
			}
			if len(names) == 0 {
				names = []string{"—"}
			}
			row = append(row, cell(strings.Join(names, " ")))
		}
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	return b.String()
}

// sample is a value a field takes, to ask each writer what it does with it.
func sample(f *agents.Field) any {
	switch f.Type {
	case agents.TypeEnum:
		if f == agents.FieldExecution {
			return string(agents.Container) // host is every tool's default
		}
		if f == agents.FieldMode {
			return "primary" // subagent is what most tools' files are anyway
		}
		return f.Enum[len(f.Enum)-1]
	case agents.TypeBool:
		if f == agents.FieldModelInvocable {
			return false
		}
		return true
	case agents.TypeNumber:
		return 0.5
	case agents.TypeInt:
		return int64(7)
	case agents.TypeWords, agents.TypeStrings:
		return []string{"one"}
	}
	if f == agents.FieldModel {
		return "sonnet"
	}
	if f == agents.FieldColor {
		return "blue"
	}
	return "text"
}

// fieldsTable asks every writer what it does with each field: written
// (✓), written differently (~) or left out (—), with the writer's own
// words for what is lost. Fields only bn uses are marked so.
func (r Registry) fieldsTable(cat *agents.Catalog) string {
	var b strings.Builder
	cols := []string{"field", "holds"}
	exporters := r.Exporters()
	for _, d := range exporters {
		cols = append(cols, d.Info().Title)
	}
	b.WriteString(header(cols...))
	base := agents.Definition{Name: "sample", Description: "d", Prompt: "Do the job well.", Tools: agents.Tools{All: true}}
	for _, f := range agents.Fields {
		if f == agents.FieldDescription {
			continue
		}
		def := base.Clone()
		f.Apply(&def, sample(f))
		row := []string{"`" + f.Name + "`", cell(f.Doc)}
		if f.BnOnly {
			for range exporters {
				row = append(row, "bn's own")
			}
			b.WriteString("| " + strings.Join(row, " | ") + " |\n")
			continue
		}
		for _, d := range exporters {
			out, err := d.Render(def.Clone(), "sample", "", cat)
			mark := "✓"
			if err != nil {
				mark = "error"
			}
			for _, l := range out.Losses {
				if l.Field != f.Name {
					continue
				}
				switch l.Kind {
				case Dropped:
					mark = "— " + l.Detail
				case Changed, Widened:
					mark = "~ " + l.Detail
				}
			}
			row = append(row, cell(mark))
		}
		b.WriteString("| " + strings.Join(row, " | ") + " |\n")
	}
	return b.String()
}

func (r Registry) ownFieldsTable() string {
	var b strings.Builder
	b.WriteString(header("tool", "its own fields (kept in its section, written back to it, reported as lost elsewhere)"))
	for _, d := range r {
		info := d.Info()
		var keys []string
		for _, f := range info.Fields {
			if !f.Hint {
				keys = append(keys, "`"+f.Key+"`")
			}
		}
		if len(keys) == 0 {
			keys = []string{"—"}
		}
		fmt.Fprintf(&b, "| %s | %s |\n", info.Title, cell(strings.Join(keys, ", ")))
	}
	return b.String()
}

func (r Registry) builtInsTable() string {
	var b strings.Builder
	b.WriteString(header("tool", "built-in agents", "a project agent of the same name", "export", "ids it accepts"))
	for _, d := range r {
		info := d.Info()
		byRule := map[Collision][]string{}
		var order []Collision
		for _, bi := range info.BuiltIns {
			if _, ok := byRule[bi.On]; !ok {
				order = append(order, bi.On)
			}
			byRule[bi.On] = append(byRule[bi.On], "`"+bi.Name+"`")
		}
		if len(order) == 0 {
			fmt.Fprintf(&b, "| %s | — | — | — | %s |\n", info.Title, cell(idRule(info)))
			continue
		}
		for _, on := range order {
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", info.Title, strings.Join(byRule[on], ", "), on, collisionExport(on), cell(idRule(info)))
		}
	}
	return b.String()
}

// agentEnvTable lists the variables by which bn knows an agent tool runs
// it (Registry.AgentHarness).
func (r Registry) agentEnvTable() string {
	var b strings.Builder
	b.WriteString(header("tool", "sets, for the commands its agents run", "not in a terminal it opens for its user, which sets"))
	for _, d := range r {
		info := d.Info()
		if len(info.AgentEnv) == 0 {
			continue
		}
		term := "—"
		if info.TerminalEnv != "" {
			term = "`" + info.TerminalEnv + "`"
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s |\n", info.Title, strings.Join(info.AgentEnv, "` or `"), term)
	}
	return b.String()
}

func idRule(info *Info) string {
	if info.IDRule == "" {
		return "any bn name"
	}
	return info.IDRule
}

func collisionExport(on Collision) string {
	switch on {
	case Replaces:
		return "written; the override is reported"
	case Merges:
		return "written; the merge is reported"
	}
	return "skipped with the fix (`--prefix`, or an `id` in the tool's section)"
}

// pluginHostsTable: the tools besides Claude Code that install the plugin
// export writes, from ClaudePluginHosts.
func (r Registry) pluginHostsTable() string {
	var b strings.Builder
	b.WriteString(header("tool", "installs the plugin with", "knows its agent as", "starts it", "what it makes of the agent's tools"))
	for _, h := range ClaudePluginHosts {
		title := h.Tool
		if d, ok := r.Lookup(h.Tool); ok {
			title = d.Info().Title
		}
		starts := "yes"
		if !h.Starts {
			starts = "**no**"
		}
		fmt.Fprintf(&b, "| %s | %s | `%s` | %s | %s |\n", title, cell(h.Install), h.KnownAs, starts, cell(h.Meaning))
	}
	return b.String()
}
