//go:build !linux

package main

import "github.com/rogpeppe/go-internal/testscript"

// ptyExec needs Linux's pseudo-terminals; scripts that use it skip
// elsewhere ([!linux] skip).
func ptyExec(ts *testscript.TestScript, neg bool, args []string) {
	ts.Fatalf("pty: pseudo-terminals are used on Linux only; start the script with [!linux] skip")
}
