package dialect_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/dialect/dialecttest"
	"github.com/binnacle-dev/bn/probe"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// schemaTools are the tools whose pinned clients publish the schema of
// their agent files (the tools built on OpenCode).
var schemaTools = []string{"opencode", "kilo"}

// TestSchemasArePinned: each vendored schema was taken from the client
// version the tool's record (and the Makefile) pins; moving the pin
// without taking the schema again (make schemas) fails here.
func TestSchemasArePinned(t *testing.T) {
	for _, tool := range schemaTools {
		d, _ := dialect.All().Lookup(tool)
		var doc struct {
			Comment string `json:"$comment"`
		}
		require.NoError(t, json.Unmarshal(dialect.Schema(tool), &doc), tool)
		assert.Contains(t, doc.Comment, "npm "+d.Info().Client+":", "dialect/schema/%s.json was not taken from %s; run make schemas", tool, d.Info().Client)
	}
}

// TestWrittenFilesFitTheSchema renders every agent of the corpus, every
// probe fixture and the awkward cases below for each tool built on
// OpenCode, and validates each file's frontmatter against the schema its
// pinned client publishes: OpenCode refuses a file its schema rejects,
// and with it loads no agent of the project.
func TestWrittenFilesFitTheSchema(t *testing.T) {
	cat := catalog(t)
	defs := awkward()
	for _, a := range dialecttest.Corpus(filepath.Join("..", "testdata", "corpus"), cat) {
		defs = append(defs, a.Def)
	}
	for client := range probe.Runners {
		g, err := probe.ReadGolden(probe.GoldenPath("..", client))
		require.NoError(t, err)
		d, _ := dialect.All().Lookup(client)
		for _, c := range g.Cases {
			rel := "probe-" + c.Name + d.Info().Ext
			if im, err := d.Read(dialect.Source{Path: rel, Rel: rel, Data: []byte(c.File)}, cat); err == nil {
				defs = append(defs, im.Def)
			}
		}
	}
	for _, tool := range schemaTools {
		d, _ := dialect.All().Lookup(tool)
		for i, def := range defs {
			out, err := d.Render(def, fmt.Sprintf("agent-%d", i), "", cat)
			if err != nil {
				// Skipped, with a reason, by export; never for the schema.
				assert.NotContains(t, err.Error(), "schema", "%s: %s", d.Info().Title, def.Name)
				continue
			}
			assert.NoError(t, dialect.FitSchema(d.Info(), out.Content), "%s rejects what bn wrote for %s:\n%s", d.Info().Title, def.Name, out.Content)
		}
	}
}

// awkward are definitions whose writing once broke a schema: a limited
// web fetch (OpenCode's webfetch takes no patterns), an MCP server named
// like a kind, colours, every mode.
func awkward() []agents.Definition {
	one := func(name string, f func(*agents.Definition)) agents.Definition {
		d := agents.Definition{Name: name, Description: "Awkward", Prompt: "Do the job.", Tools: agents.Tools{All: true}}
		f(&d)
		return d
	}
	var out []agents.Definition
	for _, tools := range []agents.Tools{
		{Allow: []string{"read", "webfetch(example.com)", "websearch(go)", "todo(x)", "ask(y)"}},
		{All: true, Deny: []string{"webfetch(evil.example)", "websearch(x)", "todo(x)"}},
		{Allow: []string{"read", "fetch/fetch", "memory/create_entities", "fetch/*"}},
		{All: true, Deny: []string{"fetch/*", "memory/x"}},
		{Allow: []string{"shell(git diff:*)", "edit(src/*.go)", "agent(reviewer)", "skill(deploy)"}},
	} {
		out = append(out, one(strings.Join(tools.Allow, "-")+"x", func(d *agents.Definition) { d.Tools = tools }))
	}
	for _, color := range []string{"red", "#ABCDEF", "primary", "chartreuse"} {
		out = append(out, one("colour", func(d *agents.Definition) { d.Color = color }))
	}
	for _, mode := range agents.Modes {
		out = append(out, one("mode", func(d *agents.Definition) { d.Mode = mode }))
	}
	return out
}
