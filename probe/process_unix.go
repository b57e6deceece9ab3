//go:build unix

package probe

import (
	"os/exec"
	"syscall"
)

// setProcessGroup starts cmd in a process group of its own: a client's
// launcher (Kilo's, node's) starts the client as a child, and both must
// stop; a Ctrl+C meant for bn-verify does not reach it either, as
// bn-verify stops it.
func setProcessGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killProcessGroup stops cmd's process group.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
