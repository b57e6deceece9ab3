// Package scripts holds bn's shell tools; the bn-agent launcher is
// compiled into bn so `bn system emit bn-agent` prints the same script.
package scripts

import _ "embed"

//go:embed bn-agent
var launcher []byte

// Launcher returns the bn-agent script.
func Launcher() []byte { return launcher }
