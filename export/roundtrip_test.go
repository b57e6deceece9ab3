package export_test

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/export"
	"github.com/binnacle-dev/bn/frontmatter"
	"github.com/binnacle-dev/bn/importer"
	"github.com/binnacle-dev/bn/probe"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/pelletier/go-toml/v2"
	"github.com/stretchr/testify/require"
)

// corpusRoot holds real agent files from public repositories (each
// folder has its README and licences).
const corpusRoot = "../testdata/corpus"

// corpora maps each corpus to the tool its files are written for.
var corpora = []struct{ dir, tool string }{
	{"claude-agents", "claude"},
	{"claude-agents-2", "claude"},
	{"claude-agents-3", "claude"},
	{"copilot-agents", "copilot"},
	{"opencode-agents", "opencode"},
}

// pipeline imports a directory of agent files into a project's config.kdl
// and resolves the project as bn does.
type pipeline struct {
	t    testing.TB
	repo string
	reg  dialect.Registry
	dec  config.Decoder
}

func newPipeline(t testing.TB) *pipeline {
	repo := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(repo, ".git"), 0o755))
	reg := dialect.All()
	return &pipeline{t: t, repo: repo, reg: reg, dec: config.Decoder{Sections: reg}}
}

func (p *pipeline) layers() []resolver.Layer {
	return []resolver.Layer{resolver.EmbeddedLayer(), resolver.DiskLayer(resolver.Project, filepath.Join(p.repo, ".binnacle", "agents"), ".binnacle/agents")}
}

func (p *pipeline) set() *resolver.Set {
	s := resolver.Load(p.layers(), p.dec)
	require.NoError(p.t, s.Fatal())
	return s
}

func (p *pipeline) importDir(dir string, from dialect.Dialect) *importer.Result {
	res, err := importer.Plan(importer.Options{Paths: []string{dir}, Cwd: p.repo, From: from,
		Config: filepath.Join(p.repo, ".binnacle", "agents", "config.kdl"), Registry: p.reg, Catalog: p.set().Catalog(), Decoder: p.dec})
	require.NoError(p.t, err)
	require.NoError(p.t, res.Apply())
	return res
}

// importCorpus imports one corpus folder with its tool's reader.
func (p *pipeline) importCorpus(dir, tool string) (*importer.Result, dialect.Dialect) {
	from, _ := p.reg.Lookup(tool)
	abs, err := filepath.Abs(filepath.Join(corpusRoot, dir))
	require.NoError(p.t, err)
	return p.importDir(abs, from), from
}

func (p *pipeline) export(names []string, targets ...string) *export.Result {
	opts := export.Options{Root: p.repo, Agents: names}
	for _, t := range targets {
		d, _ := p.reg.Lookup(t)
		opts.Targets = append(opts.Targets, d)
	}
	res, err := export.Plan(p.set(), opts)
	require.NoError(p.t, err)
	require.NoError(p.t, res.Apply())
	return res
}

// document reads an agent file as data: its frontmatter (or TOML) keys
// and its body.
func document(t testing.TB, path string) (*agents.Map, string) {
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	if strings.HasSuffix(path, ".toml") {
		var m map[string]any
		require.NoError(t, toml.Unmarshal(data, &m))
		d, err := agents.Data(m)
		require.NoError(t, err)
		doc := d.(*agents.Map)
		body, _ := doc.Get("developer_instructions")
		doc.Delete("developer_instructions")
		return doc, strings.TrimSpace(fmt.Sprint(body))
	}
	md, err := frontmatter.Split(data)
	require.NoError(t, err)
	entries, _, err := frontmatter.Lenient(md)
	require.NoError(t, err)
	doc := &agents.Map{}
	for _, e := range entries {
		doc.Set(e.Key, e.Value)
	}
	return doc, strings.TrimSpace(string(md.Body))
}

// TestCorpusRoundTrip imports every file of every corpus, exports it to
// the same tool, and compares: every frontmatter value equal as data and
// the body identical. Files bn cannot read are listed with their reason;
// fields bn reports and does not keep (unknown keys) are the only
// differences allowed, and each must have been reported.
func TestCorpusRoundTrip(t *testing.T) {
	for _, c := range corpora {
		t.Run(c.dir, func(t *testing.T) {
			p := newPipeline(t)
			res, from := p.importCorpus(c.dir, c.tool)
			exact, reported := p.roundTrip(res, from)
			t.Logf("%s: %d files, %d imported, %d skipped (%v), %d round-trip exactly, %d keep every field but reported unknown keys",
				c.dir, len(res.Imported)+len(res.Skipped), len(res.Imported), len(res.Skipped), res.Skipped, exact, reported)
		})
	}
}

// TestGoldenRoundTrip: every agent file a probed client loads (its
// golden file's fixtures: values it takes, and values it loads the file
// with and ignores, such as Claude Code's permissionMode ask) imports,
// resolves without an error, and exports back to that tool as it was.
func TestGoldenRoundTrip(t *testing.T) {
	for _, client := range slices.Sorted(maps.Keys(probe.Runners)) {
		t.Run(client, func(t *testing.T) {
			g, err := probe.ReadGolden(probe.GoldenPath("..", client))
			require.NoError(t, err)
			from, _ := dialect.All().Lookup(client)
			info := from.Info()
			dir := t.TempDir()
			n := 0
			for _, c := range g.Cases {
				if c.Rejected != "" {
					continue
				}
				path := filepath.Join(dir, filepath.FromSlash(info.Dir), "probe-"+c.Name+info.Ext)
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
				require.NoError(t, os.WriteFile(path, []byte(c.File), 0o644))
				n++
			}
			p := newPipeline(t)
			res := p.importDir(filepath.Join(dir, filepath.FromSlash(info.Dir)), from)
			require.Empty(t, res.Skipped, "%s loads every one of these files", info.Title)
			require.Len(t, res.Imported, n)
			p.roundTrip(res, from)
		})
	}
}

// roundTrip exports what res imported back to its tool and compares each
// file with its source; it returns how many came back exactly, and how
// many with only reported unknown keys left out.
func (p *pipeline) roundTrip(res *importer.Result, from dialect.Dialect) (exact, reported int) {
	t := p.t
	tool := from.Info().Name
	set := p.set()
	for _, d := range set.Diagnostics() {
		if d.Severity == agents.Error {
			t.Errorf("the imported project does not resolve: %v", d)
		}
	}
	names := importedNames(res)
	out := p.export(names, tool)
	for _, rep := range out.Reports {
		for _, s := range rep.Skipped {
			t.Errorf("%s: %s skipped on the way back to its own tool: %s", tool, s.Agent, s.Reason)
		}
	}
	info := from.Info()
	for _, im := range res.Imported {
		def, _ := set.Agent(im.Name)
		id := im.Name
		if tt := def.Targets[tool]; tt != nil && tt.ID != "" {
			id = tt.ID
		}
		out := filepath.Join(p.repo, filepath.FromSlash(info.Dir), filepath.FromSlash(id)+info.Ext)
		srcDoc, srcBody := document(t, im.File)
		outDoc, outBody := document(t, out)
		if srcBody != outBody {
			t.Errorf("%s: the body changed", im.File)
			continue
		}
		var diffs []string
		for _, k := range append(slices.Clone(srcDoc.Keys), outDoc.Keys...) {
			a, aok := srcDoc.Get(k)
			b, bok := outDoc.Get(k)
			if aok && bok && agents.EqualData(a, b) || slices.Contains(diffs, k) {
				continue
			}
			if aok && !bok && slices.ContainsFunc(im.Notes, func(n string) bool { return strings.HasPrefix(n, k+" is not a") }) {
				continue // reported as not imported
			}
			if list, _ := b.([]any); aok && a == nil && bok && len(list) == 0 && k == "tools" {
				continue // a tools key with no value is written as the empty list it means
			}
			diffs = append(diffs, k)
			t.Errorf("%s: %s was %v (%v), is %v (%v)", im.File, k, agents.Plain(a), aok, agents.Plain(b), bok)
		}
		if len(diffs) == 0 {
			if len(im.Notes) > 0 && slices.ContainsFunc(im.Notes, func(n string) bool { return strings.Contains(n, "not imported") }) {
				reported++
			} else {
				exact++
			}
		}
	}
	return exact, reported
}
