package resolver

import (
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A system-layer policy binds every agent of every layer: its denies are
// added last (a project's reset cannot drop them), an agent's model must
// be one it allows (in any tool's spelling), and a later layer cannot
// allow what it denies.
func TestPolicyOnlyTightens(t *testing.T) {
	s := loadAll(layers(t, map[LayerName]map[string]string{
		System: {"config.kdl": "policy {\n    deny \"shell(rm:*)\"\n    models claude-sonnet-4-5-20250929\n}\n"},
		Project: {"config.kdl": `agent mine {
    description d
    model "Claude Sonnet 4.5 (copilot)"
    tools {
        reset
        allow shell
    }
    prompt p
}
agent opus {
    description d
    model opus
    prompt p
}
agent loosen {
    description d
    tools {
        allow "shell(rm -rf:*)"
    }
    prompt p
}
`},
	}))
	require.NoError(t, s.Fatal())
	mine, err := s.Lookup("mine")
	require.NoError(t, err)
	require.NoError(t, mine.Err(), "Copilot's spelling of the allowed model is allowed")
	assert.False(t, agents.Decide(mine.Tools, agents.ToolPattern{Kind: "shell", Arg: "rm -rf /", HasArg: true}).Allowed,
		"the policy deny survives the project's reset")
	assert.True(t, agents.Decide(mine.Tools, agents.ToolPattern{Kind: "shell", Arg: "ls", HasArg: true}).Allowed)

	opus, _ := s.Agent("opus")
	require.Error(t, opus.Err())
	assert.Contains(t, opus.Err().Error(), `model "opus" is not one the policy of the system layer`)

	loosen, _ := s.Agent("loosen")
	require.Error(t, loosen.Err())
	assert.Contains(t, loosen.Err().Error(), `allow "shell(rm -rf:*)" grants what the policy of the system layer`)

	worker, _ := s.Agent("worker")
	assert.Error(t, worker.Err(), "the built-in worker runs a model the policy does not allow")
}
