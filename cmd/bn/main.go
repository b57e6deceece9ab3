// Command bn resolves AI agent definitions from layers and hands them to
// the tools that run agents.
package main

import (
	"os"
	"runtime/debug"

	"github.com/adrg/xdg"
)

// version is set at build time by the Makefile.
var version = "dev"

func main() {
	// A command's heap is mostly the layers it read and the agents it
	// resolved, all live until it exits: collecting early finds little
	// garbage and costs mark work on every run. So bn collects once the
	// heap is nine times what the last collection kept, unless GOGC says.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(800)
	}
	cwd, err := os.Getwd()
	if err != nil {
		cwd = "."
	}
	f := &Factory{
		IO:         &IOStreams{In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr},
		Getenv:     os.Getenv,
		Cwd:        cwd,
		ConfigHome: xdg.ConfigHome,
		DataHome:   xdg.DataHome,
		CacheHome:  xdg.CacheHome,
		Version:    version,
	}
	os.Exit(Run(f, os.Args[1:]))
}
