package export_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/dialect/dialecttest"
	"github.com/binnacle-dev/bn/importer"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCorpusCrossingKeepsMeaning imports each real collection and exports
// it to every tool bn writes. Every agent is written or skipped with a
// reason, and every written file, read back by that tool's own reader,
// means what the definition says (dialecttest.Meaning): unrestricted stays
// unrestricted, read access stays, nothing is granted beyond the
// definition without a reported widening, models are spelled as the
// target spells them or left out with a loss. The counts are logged for
// the closing report.
func TestCorpusCrossingKeepsMeaning(t *testing.T) {
	for _, c := range corpora {
		t.Run(c.dir, func(t *testing.T) {
			p := newPipeline(t)
			res, _ := p.importCorpus(c.dir, c.tool)
			names := importedNames(res)
			set := p.set()
			var targets []string
			for _, d := range p.reg.Exporters() {
				targets = append(targets, d.Info().Name)
			}
			out := p.export(names, targets...)
			for _, rep := range out.Reports {
				d, _ := p.reg.Lookup(rep.Target)
				info := d.Info()
				losses := map[string][]dialect.Loss{}
				for _, l := range rep.Losses {
					losses[l.Agent] = append(losses[l.Agent], l.Loss)
					// An accept of any difference reported is one config.kdl takes.
					if l.Fingerprint != "" {
						assert.NoError(t, agents.CheckFingerprint(l.Fingerprint, p.reg.Tools()), "%s: %s", rep.Target, l.Agent)
						assert.NoError(t, p.reg.CheckDifferenceField(rep.Target, l.Field), "%s: %s: %s", rep.Target, l.Agent, l.Detail)
					}
				}
				written := map[string]bool{}
				for _, f := range rep.Files {
					if f.Agent == "" || strings.HasSuffix(f.Path, dialect.RulesExt) {
						continue // a hook's compiled rules are no agent file
					}
					written[f.Agent] = true
					a, ok := set.Agent(f.Agent)
					require.True(t, ok, f.Agent)
					content, err := os.ReadFile(f.Path)
					require.NoError(t, err)
					rel, _ := filepath.Rel(filepath.Join(p.repo, filepath.FromSlash(info.Dir)), f.Path)
					back, err := d.Read(dialect.Source{Path: f.Path, Rel: filepath.ToSlash(rel), Data: content}, set.Catalog())
					if !assert.NoError(t, err, "%s does not read the file bn wrote for %s:\n%s", info.Title, f.Agent, content) {
						continue
					}
					rendered := dialect.Rendered{Content: content, Losses: losses[f.Agent]}
					for _, problem := range dialecttest.Meaning(a.Definition, info, rendered, back, set.Catalog()) {
						t.Errorf("%s → %s: %s: %s\n%s", c.tool, info.Name, f.Agent, problem, content)
					}
				}
				for _, s := range rep.Skipped {
					assert.NotEmpty(t, s.Reason, "%s: %s skipped without a reason", rep.Target, s.Agent)
					written[s.Agent] = true
				}
				for _, n := range names {
					assert.True(t, written[n], "%s: %s neither written nor skipped", rep.Target, n)
				}
				t.Logf("%s → %s: %d written (%d overriding a built-in, %d renamed), %d skipped, %d differences (%d widened)",
					c.dir, rep.Target, rep.Counts.Agents, rep.Counts.Overridden, rep.Counts.Renamed, rep.Counts.Skipped, rep.Counts.Losses, rep.Counts.Widened)
			}
		})
	}
}

func importedNames(res *importer.Result) []string {
	names := make([]string, len(res.Imported))
	for i, im := range res.Imported {
		names[i] = im.Name
	}
	return names
}
