package probe

import (
	"os/exec"
	"strconv"
	"syscall"
)

// setProcessGroup starts cmd in a process group of its own, so that a
// Ctrl+C meant for bn-verify does not reach it: bn-verify stops it.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// killProcessGroup stops cmd and the processes it started (taskkill /T:
// Windows keeps no group to signal), and cmd itself should taskkill fail.
func killProcessGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		exec.Command("taskkill", "/T", "/F", "/PID", strconv.Itoa(cmd.Process.Pid)).Run()
		cmd.Process.Kill()
	}
}
