//go:build !unix

package main

import (
	"errors"
	"os/exec"
)

// handOff runs another of bn's binaries on bn's own streams and exits
// with its status, where a process cannot replace itself.
func handOff(f *Factory, bin string, args []string) error {
	cmd := exec.Command(bin, args[1:]...)
	cmd.Stdin = f.IO.In
	cmd.Stdout, cmd.Stderr = f.IO.Raw()
	release, err := startChild(cmd)
	if err != nil {
		return err
	}
	defer release()
	err = cmd.Wait()
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		return exitError{exit.ExitCode()}
	}
	return err
}
