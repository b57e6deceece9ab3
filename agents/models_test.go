package agents

import "testing"

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
