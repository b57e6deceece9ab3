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

// A client whose context is cancelled (bn-verify told to stop) is killed
// with the processes it started: a launcher's child sleeping does not
// outlive it. Once the context is done, no client starts.
func TestClientStopsWithItsChildren(t *testing.T) {
	dir := t.TempDir()
	client := filepath.Join(dir, "client")
	// The launcher writes its own pid and its child's, then waits.
	script := "#!/bin/sh\nsleep 300 &\necho $$ $! > \"$1.tmp\"\nmv \"$1.tmp\" \"$1\"\nwait\n"
	if err := os.WriteFile(client, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	pids := filepath.Join(dir, "pids")
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	ended := make(chan error, 1)
	go func() {
		_, err := run(ctx, dir, os.Environ(), client, pids)
		ended <- err
	}()
	var both []string
	waitUntil(t, "the client to start its child", func() bool {
		data, err := os.ReadFile(pids)
		both = strings.Fields(string(data))
		return err == nil && len(both) == 2
	})
	cancel()
	select {
	case err := <-ended:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("the client ended with %v, want it stopped (%v)", err, context.Canceled)
		}
	case <-time.After(time.Minute):
		t.Fatal("the client still runs a minute after it was stopped")
	}
	for _, pid := range both {
		waitUntil(t, "process "+pid+" to end", func() bool { return gone(t, pid) })
	}
	started := filepath.Join(dir, "started")
	if _, err := run(ctx, dir, nil, "/bin/sh", "-c", "touch "+started); !errors.Is(err, context.Canceled) {
		t.Errorf("a client run after its context was cancelled: %v, want %v", err, context.Canceled)
	}
	if _, err := os.Stat(started); err == nil {
		t.Error("a client started after its context was cancelled")
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
