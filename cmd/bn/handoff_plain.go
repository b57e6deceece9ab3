//go:build !unix && !windows

package main

import "os/exec"

// startChild starts cmd; nothing ties it to bn's life here.
func startChild(cmd *exec.Cmd) (release func(), err error) {
	return func() {}, cmd.Start()
}
