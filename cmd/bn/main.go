// Command bn resolves AI agent definitions from layers and hands them to
// the tools that run agents.
package main

import (
	"os"

	"github.com/adrg/xdg"
	"golang.org/x/term"
)

// version is set at build time by the Makefile.
var version = "dev"

func main() {
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
		// Text for people on a terminal, JSON for programs (formatHuman).
		OutTerminal: term.IsTerminal(int(os.Stdout.Fd())),
	}
	os.Exit(Run(f, os.Args[1:]))
}
