// Package agents is bn's model of an agent definition: the resolved
// Definition, the per-layer Spec that a config.kdl node or a markdown agent
// file contributes, the enums and names they use, the decoders for both file
// formats, and the tool-permission pattern matcher.
//
// Decoders never panic on bad input and never coerce silently: every problem
// becomes a Diagnostic naming the file, the agent, the field, a 1-based
// line:column where one is known, and how to fix it.
package agents
