package probe

import "os/exec"

// setProcessGroup does nothing on Windows, where killing the process is
// what stops it.
func setProcessGroup(*exec.Cmd) {}

// killProcessGroup stops cmd.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		cmd.Process.Kill()
	}
}
