package main

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/sys/unix"
)

// check --hook run by hand, on a terminal, refuses at once instead of
// waiting for hook input that never comes.
func TestCheckHookOnATerminal(t *testing.T) {
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	defer ptmx.Close()
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	require.NoError(t, err)
	require.NoError(t, unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0))
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	require.NoError(t, err)
	defer tty.Close()

	var out, errOut bytes.Buffer
	dir := t.TempDir()
	f := &Factory{IO: &IOStreams{In: tty, Out: &out, ErrOut: &errOut}, Getenv: func(string) string { return "" },
		Cwd: dir, ConfigHome: dir, DataHome: dir, CacheHome: dir}
	code := Run(f, []string{"config", "agents", "check", "differ", "--hook", "claude"})
	assert.Equal(t, 2, code)
	assert.Contains(t, errOut.String(), "bn refused: --hook reads Claude Code's hook input on stdin, not a terminal; to ask by hand, run bn config agents check differ TOOL")
}
