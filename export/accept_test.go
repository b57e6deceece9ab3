package export

import (
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A policy's deny is checked against what a difference grants, never
// against how its detail is worded, and a deny bn cannot read refuses.
func TestAcceptorPolicy(t *testing.T) {
	d, _ := dialect.All().Lookup("copilot")
	push := []resolver.PolicyDeny{{Pattern: "shell(git push)", Where: "the policy of the system layer (config.kdl:1:1)"}}
	mcp := []resolver.PolicyDeny{{Pattern: "github/*", Where: "the policy of the system layer (config.kdl:1:1)"}}
	// Details that name neither the denied kind nor the pattern.
	every := dialect.Loss{Field: "tools", Kind: dialect.Widened, Detail: "the file names nothing", Grants: []string{dialect.EveryTool}}
	lists := dialect.Loss{Field: "tools", Kind: dialect.Widened, Detail: "also grants shell, in words", Grants: []string{"list", "lsp"}}
	servers := dialect.Loss{Field: "tools", Kind: dialect.Widened, Detail: "no limit", Grants: []string{dialect.EveryMCPTool}}
	model := dialect.Loss{Field: "model", Kind: dialect.Changed, Detail: "written as x"}
	for _, tt := range []struct {
		name     string
		loss     dialect.Loss
		denies   []resolver.PolicyDeny
		accept   bool
		accepted bool
		err      string
	}{
		{name: "a widening that grants the deny", loss: every, denies: push, err: `agent "critic": not exported to copilot: the file names nothing; its file would grant what the policy of the system layer (config.kdl:1:1) denies ("shell(git push)")`},
		{name: "an accept of it", loss: every, denies: push, accept: true, err: `cannot accept "the file names nothing": the file it lets bn write grants what the policy of the system layer (config.kdl:1:1) denies ("shell(git push)")`},
		{name: "a widening the deny does not concern, whatever it says", loss: lists, denies: push, accept: true, accepted: true},
		{name: "every MCP tool, and an MCP deny", loss: servers, denies: mcp, err: `denies ("github/*")`},
		{name: "every MCP tool, and a shell deny", loss: servers, denies: push},
		{name: "a deny bn cannot read", loss: lists, denies: []resolver.PolicyDeny{{Pattern: "shell(", Where: "the policy of the system layer (config.kdl:2:5)"}},
			err: `agent "critic": not exported to copilot: the policy of the system layer (config.kdl:2:5) has deny "shell(", which bn cannot read`},
		{name: "an accepted model", loss: model, denies: push, accept: true, accepted: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			def := agents.Definition{Name: "critic"}
			if tt.accept {
				fp := agents.Fingerprint("critic", "copilot", tt.loss.Field, tt.loss.Kind, tt.loss.Detail)
				def.Accepts = []agents.Acceptance{{Fingerprint: fp, Layer: "project", Pos: agents.Pos{File: "config.kdl", Line: 9, Col: 12}}}
			}
			a := &acceptor{d: d, denies: tt.denies, def: def, used: map[string]bool{}}
			l := AgentLoss{Agent: "critic", Loss: tt.loss}
			accepted, err := a.mark("copilot", &l)
			if tt.err != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.accepted, accepted)
		})
	}
}
