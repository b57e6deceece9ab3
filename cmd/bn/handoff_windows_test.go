//go:build windows

package main

import (
	"bufio"
	"os"
	"os/exec"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// TestHandOffJobSleeper is the child of TestHandOffJobKillsChild: it says
// it runs, then sleeps until it is killed.
func TestHandOffJobSleeper(t *testing.T) {
	if os.Getenv("BN_HANDOFF_SLEEPER") != "1" {
		t.Skip("the child of TestHandOffJobKillsChild")
	}
	os.Stdout.WriteString("sleeping\n")
	time.Sleep(time.Hour)
}

// Closing the job's handle, as a killed bn does, ends the child.
func TestHandOffJobKillsChild(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestHandOffJobSleeper$", "-test.v")
	cmd.Env = append(os.Environ(), "BN_HANDOFF_SLEEPER=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	job, err := startInJob(cmd)
	if err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(out)
	for lines.Scan() && lines.Text() != "sleeping" {
	}
	if lines.Err() != nil || lines.Text() != "sleeping" {
		t.Fatalf("the child did not start sleeping: %v", lines.Err())
	}
	if err := windows.CloseHandle(job); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		for lines.Scan() { // drain until the child's end closes its stdout
		}
		done <- cmd.Wait()
	}()
	select {
	case err := <-done:
		t.Logf("the child ended: %v", err)
	case <-time.After(time.Minute):
		_ = cmd.Process.Kill()
		t.Fatal("the child still runs a minute after its job closed")
	}
}
