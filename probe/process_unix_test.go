//go:build unix

package probe

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A client cancelled, or stopped with every other (a signal to
// bn-verify), is killed with the processes it started: a launcher's
// child sleeping does not outlive it.
func TestClientStopsWithItsChildren(t *testing.T) {
	for _, tc := range []struct {
		name string
		stop func(cancel context.CancelFunc)
	}{
		{"context cancelled", func(cancel context.CancelFunc) { cancel() }},
		{"Stop", func(context.CancelFunc) { Stop() }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Cleanup(func() {
				clients.Lock()
				clients.stopped = false
				clients.Unlock()
			})
			dir := t.TempDir()
			client := filepath.Join(dir, "client")
			// The launcher writes its own pid and its child's, then waits.
			script := "#!/bin/sh\nsleep 300 &\necho $$ $! > \"$1.tmp\"\nmv \"$1.tmp\" \"$1\"\nwait\n"
			if err := os.WriteFile(client, []byte(script), 0o755); err != nil {
				t.Fatal(err)
			}
			pids := filepath.Join(dir, "pids")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			ended := make(chan error, 1)
			go func() {
				_, err := runContext(ctx, dir, os.Environ(), client, pids)
				ended <- err
			}()
			var both []string
			waitUntil(t, "the client to start its child", func() bool {
				data, err := os.ReadFile(pids)
				both = strings.Fields(string(data))
				return err == nil && len(both) == 2
			})
			tc.stop(cancel)
			select {
			case err := <-ended:
				if err == nil {
					t.Error("the client ended without error, want it killed")
				}
			case <-time.After(time.Minute):
				t.Fatal("the client still runs a minute after it was stopped")
			}
			for _, pid := range both {
				waitUntil(t, "process "+pid+" to end", func() bool { return gone(t, pid) })
			}
		})
	}
	// Once stopped, no client starts.
	Stop()
	defer func() { clients.Lock(); clients.stopped = false; clients.Unlock() }()
	if _, err := runContext(context.Background(), t.TempDir(), nil, "/bin/sh", "-c", "true"); !errors.Is(err, errStopped) {
		t.Errorf("a client started after Stop: %v, want %v", err, errStopped)
	}
}

// gone says whether process pid has ended: it is not listed, or is a
// zombie no one has reaped yet (a container's first process may not).
func gone(t *testing.T, pid string) bool {
	if _, err := strconv.Atoi(pid); err != nil {
		t.Fatalf("pid %q", pid)
	}
	out, _ := exec.Command("ps", "-o", "stat=", "-p", pid).Output()
	state := strings.TrimSpace(string(out))
	return state == "" || strings.HasPrefix(state, "Z")
}

// waitUntil polls cond until it holds, failing the test after a minute.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !cond(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
	}
}
