//go:build !windows

package emit

import (
	"errors"
	"syscall"
)

// processRunning says whether a process with this id exists (signal 0
// checks without sending anything; EPERM means it exists as another user).
func processRunning(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
