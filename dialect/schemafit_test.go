package dialect

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// FitSchema refuses a file the pinned client's schema rejects, which
// would make the client load no agent of the project, and passes the
// rest; tools whose schema bn does not hold are not checked.
func TestFitSchema(t *testing.T) {
	for _, tt := range []struct {
		name, tool, file, err string
	}{
		{name: "fits", tool: "opencode", file: "---\ndescription: Reviews\npermission:\n  bash:\n    \"git diff*\": allow\n---\nReview.\n"},
		{name: "a map where an action goes", tool: "opencode", file: "---\ndescription: Fetches\npermission:\n  webfetch:\n    fetch: allow\n---\nFetch.\n",
			err: "bn would write a file OpenCode's schema (opencode-ai@"},
		{name: "kilo too", tool: "kilo", file: "---\ndescription: Fetches\ntemperature: hot\n---\nFetch.\n", err: "schema"},
		{name: "no schema held", tool: "claude", file: "---\ndescription: x\npermission: 3\n---\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			d, _ := All().Lookup(tt.tool)
			err := FitSchema(d.Info(), []byte(tt.file))
			if tt.err == "" {
				assert.NoError(t, err)
			} else {
				assert.ErrorContains(t, err, tt.err)
			}
		})
	}
}
