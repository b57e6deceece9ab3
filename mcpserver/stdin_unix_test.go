//go:build unix

package mcpserver

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// A pipe is read through the poller while the server runs and is blocking
// again after; a regular file is left as it is.
func TestPollableStdin(t *testing.T) {
	// A pipe made as a client makes it: blocking, as os.Stdin finds it.
	var fds [2]int
	require.NoError(t, syscall.Pipe(fds[:]))
	r, w := os.NewFile(uintptr(fds[0]), "stdin"), os.NewFile(uintptr(fds[1]), "client")
	defer r.Close()
	defer w.Close()
	require.False(t, nonblocking(t, r))
	pr, restore := pollable(r)
	assert.True(t, nonblocking(t, r), "the pipe is read through the poller")
	go w.Write([]byte("line\n"))
	buf := make([]byte, 5)
	_, err := io.ReadFull(pr, buf)
	require.NoError(t, err)
	assert.Equal(t, "line\n", string(buf))
	restore()
	assert.False(t, nonblocking(t, r), "the pipe is blocking again")

	f, err := os.Create(filepath.Join(t.TempDir(), "in"))
	require.NoError(t, err)
	defer f.Close()
	got, restoreFile := pollable(f)
	defer restoreFile()
	assert.Same(t, f, got)
	assert.False(t, nonblocking(t, f))
}

func nonblocking(t *testing.T, f *os.File) bool {
	raw, err := f.SyscallConn()
	require.NoError(t, err)
	var flags int
	var fcntlErr error
	require.NoError(t, raw.Control(func(fd uintptr) {
		flags, fcntlErr = unix.FcntlInt(fd, unix.F_GETFL, 0)
	}))
	require.NoError(t, fcntlErr)
	return flags&unix.O_NONBLOCK != 0
}
