package export_test

import (
	"testing"

	"github.com/binnacle-dev/bn/export"
	"github.com/stretchr/testify/require"
)

// BenchmarkExportCorpus plans what export --target copilot,claude,opencode,codex
// does for the imported Claude corpus: load the layers, resolve every
// agent, read its prompt, render and compare each file (nothing written).
func BenchmarkExportCorpus(b *testing.B) {
	p := newPipeline(b)
	p.importCorpus("claude-agents", "claude")
	opts := export.Options{Root: p.repo, Prefix: "bn-"}
	for _, t := range []string{"copilot", "claude", "opencode", "codex"} {
		d, _ := p.reg.Lookup(t)
		opts.Targets = append(opts.Targets, d)
	}
	for b.Loop() {
		_, err := export.Plan(p.set(), opts)
		require.NoError(b, err)
	}
}
