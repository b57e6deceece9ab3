//go:build unix

package main

import (
	"os"
	"syscall"
)

// handOff replaces bn with another of its binaries, which then talks to
// the caller directly (the MCP server speaks over bn's own stdin/stdout).
func handOff(f *Factory, bin string, args []string) error {
	return syscall.Exec(bin, args, os.Environ())
}
