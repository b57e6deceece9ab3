package export

import (
	"testing"

	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/stretchr/testify/assert"
)

// A generated file's marker says how to make it again: the target, the
// prefix and the layers, wherever the flags stand.
func TestParseMarker(t *testing.T) {
	for _, tt := range []struct {
		cmd  string
		want Generator
	}{
		{"bn config agents export --target claude", Generator{Target: "claude", Scope: resolver.Committed}},
		{"bn config agents export --target codex --prefix bn- --all-layers", Generator{Target: "codex", Prefix: "bn-", Scope: resolver.AllLayers}},
		{"bn config agents export --all-layers --target gemini", Generator{Target: "gemini", Scope: resolver.AllLayers}},
		{HostInitCommand, Generator{Target: "copilot", Scope: resolver.User, Ext: ".md"}},
	} {
		g, ok := ParseMarker([]byte("---\n" + emit.Marker(tt.cmd) + "name: x\n---\n"))
		assert.True(t, ok, tt.cmd)
		tt.want.Command = tt.cmd
		assert.Equal(t, tt.want, g, tt.cmd)
	}
	_, ok := ParseMarker([]byte("---\nname: x\n---\n"))
	assert.False(t, ok, "a hand-written file has no marker")
}
