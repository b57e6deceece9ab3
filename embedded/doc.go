// Package embedded holds bn's built-in agent layer, compiled into the
// binary with go:embed. It is an ordinary layer directory (a config.kdl and
// one prompt file per agent) and is loaded by the same code as the system,
// session and project layers.
package embedded
