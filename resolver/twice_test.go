package resolver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDefinedTwiceInALayer: an agent two files of one layer define is an
// error naming both, never the union of their tools; across layers, and
// with a config.kdl node that only accepts differences, it is not.
func TestDefinedTwiceInALayer(t *testing.T) {
	const md = "---\nname: n\ndescription: d\ntools: Read, Bash\n---\nb\n"
	const kdl = "agent n {\n    description \"x\"\n    prompt \"p\"\n    tools {\n        allow read\n    }\n}\n"
	tests := []struct {
		name  string
		files map[LayerName]map[string]string
		err   string
	}{
		{"markdown and config.kdl", map[LayerName]map[string]string{Project: {"n.md": md, "config.kdl": kdl}},
			"config.kdl:1:1: agent \"n\": defined in two files of the project layer: project/n.md and project/config.kdl (keep one definition"},
		{"two markdown files", map[LayerName]map[string]string{Project: {"a.md": md, "b.md": md}},
			"b.md:1: agent \"n\": defined in two files of the project layer: project/a.md and project/b.md"},
		{"two layers", map[LayerName]map[string]string{System: {"n.md": md}, Project: {"config.kdl": kdl}}, ""},
		{"an accept only", map[LayerName]map[string]string{Project: {"n.md": md, "config.kdl": "agent n {\n    accept \"claude:tools:0123abcd\"\n}\n"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := loadAll(layers(t, tt.files))
			_, err := s.Lookup("n")
			if tt.err == "" {
				require.NoError(t, err)
				return
			}
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.err)
		})
	}
}
