package export

import (
	"fmt"
	"strings"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/importer"
	"github.com/binnacle-dev/bn/resolver"
)

// Shadow is an agent file in a tool's directories in the repository,
// other than the one bn writes for an agent, that the tool reads as that
// agent too: it loads one of the two, or merges this one into bn's. After
// a migration there is one file per agent, so export refuses while one
// remains.
type Shadow struct {
	Agent string `json:"agent"`
	File  string `json:"file"`
	// Original says import recorded the file as the agent's original
	// (import --move-originals moves it aside).
	Original bool   `json:"original"`
	Effect   string `json:"effect"`
}

// Foreign lists the agent files a tool reads in the repository that bn
// did not write, yet name an agent bn writes there (ids maps the tool's
// id to the agent) elsewhere than bn's file (writes maps each path bn
// writes to its agent): files left from before a migration, in the tool's
// directories and its legacy ones alike. bn's files for another tool that
// this one also reads (Copilot reads .claude/agents) say the same agent,
// and are not counted.
func Foreign(d dialect.Dialect, root string, reg dialect.Registry, cat *agents.Catalog, ids, writes map[string]string, record importer.Record) []Shadow {
	info := d.Info()
	// bn's own files were read as the export planned them: not again.
	ours := func(path string) bool { return writes[path] != "" }
	view := importer.Discover(d, dialect.Env{Cwd: root, RepoRoot: root, ProjectOnly: true}, reg, cat, ours)
	var out []Shadow
	for _, f := range view.Agents {
		agent, ok := ids[f.Name]
		if !ok || f.Generated != nil {
			continue
		}
		_, original := record.ByPath(root, f.File)
		out = append(out, Shadow{Agent: agent, File: f.File, Original: original, Effect: ShadowEffect(info)})
	}
	return out
}

// ShadowEffect says what a tool does with a second file for an agent.
func ShadowEffect(info *dialect.Info) string {
	if info.Merges {
		return info.Title + " merges it into bn's file, field by field"
	}
	return info.Title + " reads it beside bn's file and loads only one of the two"
}

// IDs maps each agent an export writes for a tool (with no --prefix) by
// its id there, to its name.
func IDs(set *resolver.Set, d dialect.Dialect) map[string]string {
	ids := map[string]string{}
	for _, n := range set.Names() {
		a, ok := set.Agent(n)
		if !ok || !set.Exported(a) || a.Err() != nil {
			continue
		}
		if id, _, skip := targetID(d.Info(), a.Definition, ""); skip == nil {
			ids[id] = n
		}
	}
	return ids
}

// ShadowError refuses an export while files shadow bn's, naming each and
// the fix.
func ShadowError(shadows []Shadow, display func(string) string) error {
	// Two tools may read the same file (Copilot reads .claude/agents):
	// it is named once.
	var files []string
	seen := map[string]bool{}
	originals := 0
	for _, s := range shadows {
		if seen[s.File] {
			continue
		}
		seen[s.File] = true
		files = append(files, display(s.File))
		if s.Original {
			originals++
		}
	}
	fix := "move them out of the tools' directories (or import them first, with --move-originals)"
	if originals == len(files) {
		fix = "they are originals import recorded: bn config agents import --move-originals moves them aside, keeping them for diff"
	}
	return fmt.Errorf("%s a tool would read beside bn's own (one file per agent): %s; %s; nothing was written",
		plural(len(files), "agent file"), strings.Join(files, ", "), fix)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
