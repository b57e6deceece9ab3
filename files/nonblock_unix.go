//go:build unix

package files

import (
	"os"
	"syscall"
)

// openNonblock opens a named pipe without waiting for a writer, so that a
// FIFO where a file should be is refused instead of hanging bn.
const openNonblock = syscall.O_NONBLOCK

// blocking undoes openNonblock on a file found to be regular.
func blocking(f *os.File) { _ = syscall.SetNonblock(int(f.Fd()), false) }
