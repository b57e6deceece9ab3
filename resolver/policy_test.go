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

// A later layer cannot change what a model the policy allows names: the
// tools would run another model under the allowed name.
func TestPolicyModelCannotBeRedefined(t *testing.T) {
	s := loadAll(layers(t, map[LayerName]map[string]string{
		System: {"config.kdl": "policy {\n    models claude-sonnet-4.5\n}\n"},
		Project: {"config.kdl": `model claude-sonnet-4.5 {
    claude claude-opus-4-6
    copilot claude-opus-4.6
}
agent sneaky {
    description d
    model claude-sonnet-4.5
    prompt p
}
`},
	}))
	require.NoError(t, s.Fatal())
	a, _ := s.Agent("sneaky")
	require.Error(t, a.Err())
	assert.Contains(t, a.Err().Error(), `model "claude-sonnet-4.5" is allowed by the policy of the system layer`)
	assert.Contains(t, a.Err().Error(), "a later layer changes what it names in the tools")
}

// The committed scope (export, session init) leaves the user's own agents
// out but applies their policies.
func TestCommittedScopeKeepsUserPolicies(t *testing.T) {
	ls := layers(t, map[LayerName]map[string]string{
		System:  {"config.kdl": "policy {\n    deny edit\n}\nagent private {\n    description d\n    prompt p\n}\n"},
		Session: {"config.kdl": "policy {\n    deny \"shell(git push:*)\"\n}\n"},
		Project: {"config.kdl": "agent mine {\n    description d\n    prompt p\n}\n"},
	})
	ls[1].PolicyOnly, ls[2].PolicyOnly = true, true
	s := loadAll(ls)
	require.NoError(t, s.Fatal())
	assert.NotContains(t, s.Names(), "private", "a policy-only layer's agents stay out")
	mine, err := s.Lookup("mine")
	require.NoError(t, err)
	assert.False(t, agents.Decide(mine.Tools, agents.ToolPattern{Kind: "edit"}).Allowed)
	assert.False(t, agents.Decide(mine.Tools, agents.ToolPattern{Kind: "shell", Arg: "git push origin", HasArg: true}).Allowed)
	assert.True(t, agents.Decide(mine.Tools, agents.ToolPattern{Kind: "shell", Arg: "git status", HasArg: true}).Allowed)
}
