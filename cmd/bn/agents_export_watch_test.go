package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A watch passes no skipped agent and no reported difference over in
// silence: each run's line counts them, and each skip has a line.
func TestPrintWatchRun(t *testing.T) {
	for _, tt := range []struct {
		name string
		run  watchRun
		want string
	}{
		{"up to date", watchRun{Time: "10:00:00"}, "10:00:00 export: up to date\n"},
		{"skipped and differences", watchRun{Time: "10:00:00", Written: []string{"a"}, Losses: 2,
			Skipped: []string{`claude: broken: unknown field "descripton"`}},
			"10:00:00 export: 1 file written, 1 skipped, 2 differences reported (export without --watch lists them)\n" +
				"10:00:00 skipped: claude: broken: unknown field \"descripton\"\n"},
		{"an error over lines", watchRun{Time: "10:00:00", Error: "fix these files first (x):\n  config.kdl:71:1: y\n  z"},
			"10:00:00 export failed: fix these files first (x): config.kdl:71:1: y; z\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var out bytes.Buffer
			opts := &ExportOptions{F: &Factory{IO: &IOStreams{Out: &out}, Human: true}}
			printWatchRun(opts, tt.run)
			assert.Equal(t, tt.want, out.String())
		})
	}
}
