//go:build unix

package verify

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A signal to bn-verify stops it: the clients running are killed, no
// report is written, and the exit status is the shell's for the signal
// (128 + its number), naming it, whichever of the two it is.
func TestMainStopsOnSignal(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		want string
	}{
		{syscall.SIGINT, "interrupt"},
		{syscall.SIGTERM, "terminated"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			repo := t.TempDir()
			t.Setenv("HOME", filepath.Join(repo, "home"))
			t.Setenv("XDG_CONFIG_HOME", filepath.Join(repo, "home", ".config"))
			clients, pids := filepath.Join(repo, "clients"), filepath.Join(repo, "pids")
			for path, content := range map[string]string{
				".git/HEAD":                   "ref: refs/heads/main\n",
				".binnacle/agents/config.kdl": "agent reviewer {\n    description \"Reviews\"\n    prompt \"Review.\"\n    tools {\n        reset\n        allow read\n    }\n}\n",
				"clients/claude":              "#!/bin/sh\nsleep 300 &\necho $$ $! > " + pids + ".tmp\nmv " + pids + ".tmp " + pids + "\nwait\n",
			} {
				path = filepath.Join(repo, filepath.FromSlash(path))
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			var stdout, stderr bytes.Buffer
			status := make(chan int, 1)
			go func() {
				status <- Main([]string{"--repo", repo, "--target", "claude", "--client-dir", clients}, &stdout, &stderr)
			}()
			// The client runs once bn-verify listens for signals.
			for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
				if data, err := os.ReadFile(pids); err == nil && len(strings.Fields(string(data))) == 2 {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the client did not start within a minute: %s", stderr.String())
				}
			}
			if err := syscall.Kill(os.Getpid(), tc.sig); err != nil {
				t.Fatal(err)
			}
			select {
			case got := <-status:
				if got != 128+int(tc.sig) {
					t.Errorf("exit status %d, want %d", got, 128+int(tc.sig))
				}
			case <-time.After(time.Minute):
				t.Fatal("bn-verify still runs a minute after the signal")
			}
			if want := "Error: stopped by " + tc.want + "; the clients running were killed, and nothing was verified\n"; stderr.String() != want {
				t.Errorf("stderr %q, want %q", stderr.String(), want)
			}
			if stdout.Len() > 0 {
				t.Errorf("a report after the signal: %s", stdout.String())
			}
		})
	}
}
