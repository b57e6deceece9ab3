//go:build unix

package mcpserver

import (
	"io/fs"
	"os"
	"syscall"
)

// pollable returns a File that reads f through Go's poller when f is a
// pipe or a socket, as a client's stdio connection is: a blocking read
// parks a thread in the kernel, and waking it to hand each request on
// was about a sixth of a call's time. The File reads a duplicate of f's
// descriptor; restore closes it and sets the input back to blocking, as
// the process that started the server may share it.
func pollable(f *os.File) (r *os.File, restore func()) {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(fs.ModeNamedPipe|fs.ModeSocket) == 0 {
		return f, func() {}
	}
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		return f, func() {}
	}
	syscall.CloseOnExec(fd)
	if syscall.SetNonblock(fd, true) != nil {
		syscall.Close(fd)
		return f, func() {}
	}
	// NewFile makes a File of a descriptor in non-blocking mode pollable.
	r = os.NewFile(uintptr(fd), f.Name())
	return r, func() {
		syscall.SetNonblock(fd, false)
		r.Close()
	}
}
