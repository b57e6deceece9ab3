package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"
)

// ptyExec runs a program with its standard output on a pseudo-terminal, as
// a person's shell runs it; what it printed there is the script's stdout
// (line ends as written, not as the terminal shows them), its standard
// error the script's stderr. With -stderr, its standard error is on the
// terminal too (what a program draws there, a progress line, is then in
// stdout, where it shows among the rest).
//
//	pty [-stderr] PROG ARGS...
func ptyExec(ts *testscript.TestScript, neg bool, args []string) {
	both := len(args) > 0 && args[0] == "-stderr"
	if both {
		args = args[1:]
	}
	if len(args) == 0 {
		ts.Fatalf("usage: pty [-stderr] PROG ARGS...")
	}
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR|unix.O_NOCTTY, 0)
	ts.Check(err)
	defer ptmx.Close()
	n, err := unix.IoctlGetInt(int(ptmx.Fd()), unix.TIOCGPTN)
	ts.Check(err)
	ts.Check(unix.IoctlSetPointerInt(int(ptmx.Fd()), unix.TIOCSPTLCK, 0))
	tty, err := os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|unix.O_NOCTTY, 0)
	ts.Check(err)
	var stderr bytes.Buffer
	cmd := exec.Command(scriptProgram(ts, args[0]), args[1:]...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = ts.MkAbs("."), scriptEnv(ts), tty, &stderr
	if both {
		cmd.Stderr = tty
	}
	ts.Check(cmd.Start())
	tty.Close()
	var out bytes.Buffer
	// Reading ends with EIO once the program, the terminal's last
	// holder, has exited.
	if _, err := io.Copy(&out, ptmx); err != nil && !errors.Is(err, unix.EIO) {
		ts.Fatalf("pty: reading the terminal: %v", err)
	}
	runErr := cmd.Wait()
	fmt.Fprint(ts.Stdout(), strings.ReplaceAll(out.String(), "\r\n", "\n"))
	fmt.Fprint(ts.Stderr(), stderr.String())
	switch {
	case runErr != nil && !neg:
		ts.Fatalf("pty %s: %v", strings.Join(args, " "), runErr)
	case runErr == nil && neg:
		ts.Fatalf("pty %s: unexpected success", strings.Join(args, " "))
	}
}
