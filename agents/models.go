package agents

import (
	"maps"
	"slices"
	"strings"
)

// ModelEntry is one model of the catalog: a canonical id and how each
// tool spells it. The first spelling of a tool is the one bn writes; the
// others are read. A tool without spellings cannot run the model.
type ModelEntry struct {
	ID    string
	Tools map[string][]string
	Pos   Pos
}

// Catalog maps model names between tools. It is data: the built-in layer
// ships one (embedded/agents/models.kdl) and any config.kdl may add or
// override entries with `model` nodes, so a new model needs no new bn.
type Catalog struct {
	entries []*ModelEntry
	byID    map[string]int // index in entries
}

// NewCatalog builds a catalog; later entries with the same id replace the
// spellings of the tools they name.
func NewCatalog(entries ...[]*ModelEntry) *Catalog {
	n := 0
	for _, list := range entries {
		n += len(list)
	}
	c := &Catalog{entries: make([]*ModelEntry, 0, n), byID: make(map[string]int, n)}
	for _, list := range entries {
		for _, e := range list {
			c.Add(e)
		}
	}
	return c
}

// Add merges one entry into the catalog. Entries are only read once
// added, so the catalog holds e itself, and copies an entry only when a
// later one of its id changes it: copying every entry of the built-in
// catalog was most of building it, on the path of every show.
func (c *Catalog) Add(e *ModelEntry) {
	i, ok := c.byID[e.ID]
	if !ok {
		c.byID[e.ID] = len(c.entries)
		c.entries = append(c.entries, e)
		return
	}
	cur := c.entries[i]
	merged := &ModelEntry{ID: cur.ID, Tools: make(map[string][]string, len(cur.Tools)+len(e.Tools)), Pos: cur.Pos}
	maps.Copy(merged.Tools, cur.Tools)
	maps.Copy(merged.Tools, e.Tools)
	c.entries[i] = merged
}

// Entries lists the catalog in the order entries were first added.
func (c *Catalog) Entries() []*ModelEntry { return c.entries }

// Lookup finds the entry for a model name as written: a canonical id, a
// spelling of tool (when given), or a spelling of any tool. Exact matches
// win over case-insensitive ones. A spelling an alias shares with a
// version (Copilot's claude-haiku-4.5, haiku's version today) names the
// version: a file that says it stays on it when the family moves on.
func (c *Catalog) Lookup(name, tool string) (*ModelEntry, bool) {
	if c == nil || name == "" {
		return nil, false
	}
	for _, fold := range []bool{false, true} {
		eq := func(a, b string) bool { return a == b || fold && strings.EqualFold(a, b) }
		spelled := func(spellings []string) bool {
			return slices.ContainsFunc(spellings, func(s string) bool { return eq(s, name) })
		}
		for _, e := range c.entries {
			if eq(e.ID, name) {
				return e, true
			}
		}
		if tool != "" {
			if e := c.spelledBy(func(e *ModelEntry) bool { return spelled(e.Tools[tool]) }); e != nil {
				return e, true
			}
		}
		anyTool := func(e *ModelEntry) bool {
			for _, spellings := range e.Tools {
				if spelled(spellings) {
					return true
				}
			}
			return false
		}
		if e := c.spelledBy(anyTool); e != nil {
			return e, true
		}
	}
	return nil, false
}

// spelledBy returns the first entry match takes, a version before an alias.
func (c *Catalog) spelledBy(match func(*ModelEntry) bool) *ModelEntry {
	var alias *ModelEntry
	for _, e := range c.entries {
		switch {
		case !match(e):
		case !isAlias(e.ID):
			return e
		case alias == nil:
			alias = e
		}
	}
	return alias
}

// Spelling returns how tool writes the model, if it can run it.
func (e *ModelEntry) Spelling(tool string) (string, bool) {
	if s := e.Tools[tool]; len(s) > 0 {
		return s[0], true
	}
	return "", false
}

// Pinned finds the entry whose name e takes in tool, when e is an alias
// that follows a family's newest model (sonnet) and tool spells it as one
// fixed version of it (claude-sonnet-5): the file then names that version.
// An alias names a family, not a version: its id has no digit, and the
// version's has.
func (c *Catalog) Pinned(e *ModelEntry, tool string) *ModelEntry {
	sp, ok := e.Spelling(tool)
	if !ok || !isAlias(e.ID) {
		return nil
	}
	for _, o := range c.entries {
		if o != e && !isAlias(o.ID) && slices.Contains(o.Tools[tool], sp) {
			return o
		}
	}
	return nil
}

func isAlias(id string) bool { return !strings.ContainsAny(id, "0123456789") }
