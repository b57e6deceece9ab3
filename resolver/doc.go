// Package resolver finds bn's layer directories (embedded, system, session,
// project), loads each layer once, and merges the agent specs they hold
// into resolved definitions that remember which layer and file set every
// field.
//
// Loading fails closed: a layer file that cannot be read or parsed fails
// every command that resolves agents, so a broken project file can never
// silently widen an agent's tools back to the defaults. A semantic error
// in one agent fails only that agent.
package resolver
