package resolver

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// layers builds disk layers from file contents, keyed by layer then path.
func layers(t *testing.T, files map[LayerName]map[string]string) []Layer {
	t.Helper()
	out := []Layer{EmbeddedLayer()}
	for _, name := range Names[1:] {
		dir := filepath.Join(t.TempDir(), string(name))
		for rel, content := range files[name] {
			path := filepath.Join(dir, rel)
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
			require.NoError(t, os.WriteFile(path, []byte(content), 0o644))
		}
		out = append(out, DiskLayer(name, dir, string(name)))
	}
	return out
}

func TestEmbeddedDefaults(t *testing.T) {
	s := Load([]Layer{EmbeddedLayer()})
	require.NoError(t, s.Fatal())
	assert.Empty(t, s.Diagnostics(), "the built-in layer must load without warnings")
	assert.Equal(t, []string{"worker", "do", "prd", "buddy", "ask", "free"}, s.Names())
	want := map[string]struct {
		exec agents.Execution
		life agents.Lifecycle
	}{
		"worker": {agents.Container, agents.Stateful}, "do": {agents.Host, agents.Stateful},
		"prd": {agents.Host, agents.Stateless}, "buddy": {agents.Host, agents.Stateful},
		"ask": {agents.Host, agents.Stateless}, "free": {agents.Host, agents.Stateful},
	}
	for name, w := range want {
		a, err := s.Lookup(name)
		require.NoError(t, err)
		assert.Equal(t, w.exec, a.Execution, name)
		assert.Equal(t, w.life, a.Lifecycle, name)
		prompt, err := a.Prompt()
		require.NoError(t, err)
		if w.life == agents.Stateful {
			assert.Contains(t, prompt, "run `bn goodbye`", name)
		} else {
			assert.Contains(t, prompt, "Do NOT run `bn goodbye`", name)
		}
		for _, p := range append(a.Tools.Allow, a.Tools.Deny...) {
			tp, err := agents.ParseToolPattern(p)
			require.NoError(t, err)
			assert.Empty(t, agents.LintToolPattern(tp), "%s: %s", name, p)
		}
	}
	do, _ := s.Lookup("do")
	prompt, _ := do.Prompt()
	assert.Contains(t, prompt, "{description}")
	ask, _ := s.Lookup("ask")
	for _, denied := range []string{"write", "edit", "create", "shell(git push)", "shell(git commit)"} {
		assert.Contains(t, ask.Tools.Deny, denied, "ask is read-only")
	}
	assert.NotContains(t, ask.Tools.Allow, "write")
}

func TestMergeRules(t *testing.T) {
	set := Load(layers(t, map[LayerName]map[string]string{
		System: {"config.kdl": `agent "ask" {
    model "sys"
    tools {
        allow "shell(make)" "view"
        deny "shell(rm:*)"
    }
    prompt-append "From system."
}
agent "custom" {
    description "A custom agent"
    prompt "Custom prompt."
    tags "x"
}
`},
		Session: {"config.kdl": `agent "ask" {
    tools {
        remove "shell(make)"
    }
    prompt-prepend "From session."
}
`},
		Project: {
			"config.kdl": `agent "ask" {
    description "Project ask"
    tools {
        allow "shell(make)"
    }
}
agent "worker" {
    tools {
        reset
        allow "view"
    }
    prompt "Replaced."
}
`,
			"custom/prompt.md": "Conventional prompt.\n",
		},
	}))
	require.NoError(t, set.Fatal())
	assert.Equal(t, []string{"worker", "do", "prd", "buddy", "ask", "free", "custom"}, set.Names())

	ask, err := set.Lookup("ask")
	require.NoError(t, err)
	assert.Equal(t, "Project ask", ask.Description)
	assert.Equal(t, Project, ask.Provenance().Fields["description"].Layer)
	assert.Equal(t, "sys", ask.Model)
	assert.Equal(t, System, ask.Provenance().Fields["model"].Layer)
	assert.Equal(t, Project, ask.Layer)
	assert.True(t, ask.ToolsMerged)
	// "view" was already allowed: kept once, in its first place; shell(make)
	// was removed in session and added back at the end in project.
	allow := ask.Tools.Allow
	assert.Equal(t, "shell(make)", allow[len(allow)-1])
	assert.Equal(t, 1, count(allow, "view"))
	assert.Equal(t, Project, ask.Provenance().Allow["shell(make)"].Layer)
	assert.Equal(t, "shell(rm:*)", ask.Tools.Deny[len(ask.Tools.Deny)-1])
	prompt, err := ask.Prompt()
	require.NoError(t, err)
	assert.Regexp(t, `^From session\.\n\nYou answer questions(.|\n)*\n\nFrom system\.$`, prompt)
	assert.Len(t, ask.Sources, 4)

	worker, err := set.Lookup("worker")
	require.NoError(t, err)
	assert.Equal(t, agents.Tools{Allow: []string{"view"}}, worker.Tools)
	prompt, _ = worker.Prompt()
	assert.Equal(t, "Replaced.", prompt)

	custom, err := set.Lookup("custom")
	require.NoError(t, err)
	assert.Equal(t, agents.Host, custom.Execution)
	assert.Equal(t, agents.Stateless, custom.Lifecycle)
	prompt, _ = custom.Prompt()
	assert.Equal(t, "Conventional prompt.", prompt, "a higher layer's <name>/prompt.md replaces the prompt")
}

func count(list []string, s string) int {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n
}

func TestFailClosedAndIsolation(t *testing.T) {
	set := Load(layers(t, map[LayerName]map[string]string{
		Project: {"config.kdl": "agent \"ask\" {\n    tools {\n        allow \"x\" }\n}\n"},
	}))
	require.Error(t, set.Fatal(), "a broken layer fails closed")

	set = Load(layers(t, map[LayerName]map[string]string{
		Project: {"config.kdl": "agent \"ask\" {\n    execution \"nowhere\"\n}\n"},
	}))
	require.NoError(t, set.Fatal())
	_, err := set.Lookup("ask")
	assert.ErrorContains(t, err, `agent "ask": execution: "nowhere" is not one of`)
	_, err = set.Lookup("worker")
	assert.NoError(t, err, "one bad agent does not break the others")
}

func TestUnknownAgentSuggests(t *testing.T) {
	set := Load([]Layer{EmbeddedLayer()})
	_, err := set.Lookup("wroker")
	assert.EqualError(t, err, `unknown agent "wroker"; available: worker, do, prd, buddy, ask, free (did you mean "worker"?)`)
	_, err = set.Lookup("zzzzzzzz")
	assert.EqualError(t, err, `unknown agent "zzzzzzzz"; available: worker, do, prd, buddy, ask, free`)
}

func TestScopes(t *testing.T) {
	p := Paths{SystemDir: "/s", SessionDir: "/x", ProjectDir: "/p"}
	names := func(ls []Layer) []LayerName {
		var out []LayerName
		for _, l := range ls {
			out = append(out, l.Name)
		}
		return out
	}
	assert.Equal(t, Names, names(p.Layers(AllLayers)))
	assert.Equal(t, []LayerName{Embedded, Project}, names(p.Layers(Committed)))
	assert.Equal(t, []LayerName{Embedded, System}, names(p.Layers(User)))
}
