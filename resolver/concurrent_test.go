package resolver

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// One set, asked from many goroutines at once, as verify plans every
// tool's questions side by side: each answer is what a set asked from one
// goroutine gives (run under -race, which `make test` does, every cache
// resolving fills is seen to be guarded).
func TestSetResolvesSideBySide(t *testing.T) {
	var project strings.Builder
	project.WriteString("model probe-model {\n    claude \"claude-probe\"\n}\n")
	for i := range 40 {
		// A chain of extends, lazily decoded specs, tool sections, a
		// policy's model check: every cache resolving fills.
		extends := ""
		if i > 0 {
			extends = fmt.Sprintf("    extends a%d\n", i-1)
		}
		fmt.Fprintf(&project, "agent a%d {\n%s    description d%d\n    model sonnet\n    tools {\n        allow \"shell(git log:*)\"\n        deny \"shell(git log:*)\"\n    }\n    claude {\n        color blue\n    }\n    prompt p%d\n}\n", i, extends, i, i)
	}
	files := map[LayerName]map[string]string{
		System:  {"config.kdl": "policy {\n    deny \"shell(rm:*)\"\n}\n"},
		Project: {"config.kdl": project.String()},
	}
	ls := layers(t, files)
	serial := loadAll(ls)
	want := map[string]string{}
	for _, name := range serial.Names() {
		want[name] = describe(t, serial, name)
	}
	wantDiags := len(serial.Diagnostics())

	s := loadAll(ls)
	var wg sync.WaitGroup
	got := make([]map[string]string, 8)
	for g := range got {
		got[g] = map[string]string{}
		wg.Go(func() {
			// Each goroutine asks in its own order, through every door.
			names := serial.Names()
			if g%2 == 1 {
				slices.Reverse(names)
			}
			for i := range names {
				name := names[(i+g*5)%len(names)]
				got[g][name] = describe(t, s, name)
			}
			s.Each(func(a *Agent) { _ = a.Provenance() })
			assert.Len(t, s.Diagnostics(), wantDiags)
			assert.NotNil(t, s.Catalog())
			s.CheckModels()
			s.CheckPrompts()
			s.DefinedBelow("a3", Project)
		})
	}
	wg.Wait()
	for g := range got {
		assert.Equal(t, len(want), len(got[g]), "goroutine %d", g)
		for name, w := range want {
			assert.Equal(t, w, got[g][name], "goroutine %d, agent %s", g, name)
		}
	}
}

// describe is what a set says of one agent: its definition, prompt,
// diagnostics and where its tools came from.
func describe(t *testing.T, s *Set, name string) string {
	a, ok := s.Agent(name)
	require.True(t, ok, name)
	prompt, err := a.Prompt()
	def, jsonErr := json.Marshal(a.Definition)
	require.NoError(t, jsonErr)
	return fmt.Sprintf("%s|%q|%v|%v|%v|%v", def, prompt, err, a.Diags, a.Provenance().Allow, a.Provenance().Deny)
}
