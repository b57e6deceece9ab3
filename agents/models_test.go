package agents

import (
	"strings"
	"testing"
)

func TestPinned(t *testing.T) {
	sonnet := &ModelEntry{ID: "sonnet", Tools: map[string][]string{"claude": {"sonnet"}, "copilot": {"claude-sonnet-5"}}}
	version := &ModelEntry{ID: "claude-sonnet-5", Tools: map[string][]string{"claude": {"claude-sonnet-5"}, "copilot": {"claude-sonnet-5"}}}
	c := NewCatalog([]*ModelEntry{sonnet, version})
	alias, _ := c.Lookup("sonnet", "")
	pinned, _ := c.Lookup("claude-sonnet-5", "")
	tests := []struct {
		entry *ModelEntry
		tool  string
		want  string
	}{
		{alias, "copilot", "claude-sonnet-5"}, // the alias becomes the version
		{alias, "claude", ""},                 // Claude Code keeps the alias
		{pinned, "copilot", ""},               // a version written as itself
		{pinned, "claude", ""},
		{alias, "gemini", ""}, // no spelling at all
	}
	for _, tt := range tests {
		got := ""
		if p := c.Pinned(tt.entry, tt.tool); p != nil {
			got = p.ID
		}
		if got != tt.want {
			t.Errorf("Pinned(%s, %s) = %q, want %q", tt.entry.ID, tt.tool, got, tt.want)
		}
	}
}

// TestLookupVersionFirst: a spelling an alias shares with a version names
// the version; the alias's own names still find the alias.
func TestLookupVersionFirst(t *testing.T) {
	c := NewCatalog([]*ModelEntry{
		{ID: "haiku", Tools: map[string][]string{"claude": {"haiku"}, "copilot": {"claude-haiku-4.5"}, "opencode": {"anthropic/claude-haiku-4-5"}}},
		{ID: "claude-haiku-4-5-20251001", Tools: map[string][]string{"claude": {"claude-haiku-4-5"}, "copilot": {"claude-haiku-4.5"}, "opencode": {"anthropic/claude-haiku-4-5"}}},
	})
	tests := []struct{ name, tool, want string }{
		{"claude-haiku-4.5", "copilot", "claude-haiku-4-5-20251001"},
		{"Claude-Haiku-4.5", "copilot", "claude-haiku-4-5-20251001"}, // case folded
		{"anthropic/claude-haiku-4-5", "", "claude-haiku-4-5-20251001"},
		{"haiku", "claude", "haiku"},
		{"haiku", "", "haiku"},
	}
	for _, tt := range tests {
		if e, _ := c.Lookup(tt.name, tt.tool); e == nil || e.ID != tt.want {
			t.Errorf("Lookup(%s, %s) = %v, want %s", tt.name, tt.tool, e, tt.want)
		}
	}
}

// TestNewCatalogMerges: a later entry of an id replaces the spellings of
// the tools it names and keeps the others, its first position and place,
// and the entries given are left as they were (the catalog shares them).
func TestNewCatalogMerges(t *testing.T) {
	builtin := []*ModelEntry{
		{ID: "sonnet", Tools: map[string][]string{"claude": {"sonnet"}, "copilot": {"claude-sonnet-5"}}, Pos: Pos{Line: 1}},
		{ID: "haiku", Tools: map[string][]string{"claude": {"haiku"}}, Pos: Pos{Line: 2}},
	}
	layer := []*ModelEntry{
		{ID: "sonnet", Tools: map[string][]string{"copilot": {"claude-sonnet-6"}}, Pos: Pos{Line: 9}},
		{ID: "new", Tools: map[string][]string{"claude": {"new"}}, Pos: Pos{Line: 10}},
	}
	c := NewCatalog(builtin, layer)
	tests := []struct {
		id, tool, want string
		line           int32
	}{
		{"sonnet", "copilot", "claude-sonnet-6", 1}, // replaced by the layer
		{"sonnet", "claude", "sonnet", 1},           // kept
		{"haiku", "claude", "haiku", 2},
		{"new", "claude", "new", 10},
	}
	for _, tt := range tests {
		e, ok := c.Lookup(tt.id, "")
		if !ok {
			t.Fatalf("Lookup(%s): not found", tt.id)
		}
		if got, _ := e.Spelling(tt.tool); got != tt.want || e.Pos.Line != tt.line {
			t.Errorf("%s in %s = %q at line %d, want %q at line %d", tt.id, tt.tool, got, e.Pos.Line, tt.want, tt.line)
		}
	}
	var ids []string
	for _, e := range c.Entries() {
		ids = append(ids, e.ID)
	}
	if got := strings.Join(ids, " "); got != "sonnet haiku new" {
		t.Errorf("entries %q, want sonnet haiku new", got)
	}
	if got, _ := builtin[0].Spelling("copilot"); got != "claude-sonnet-5" || len(layer[0].Tools) != 1 {
		t.Errorf("the entries given changed: built-in sonnet in copilot %q, layer sonnet %v", got, layer[0].Tools)
	}
}
