//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// maxInitBytes bounds what one of bn's packages may allocate when it is
// initialised. Every command pays for every package's initialisation, so a
// table only some commands need is built on first use (sync.OnceValue),
// not in a package-level variable or init.
const maxInitBytes = 32 << 10

// notLinked are packages bn must not link: each command would initialise
// them at start. The MCP server and probe's HTTP stand-in live in their own
// binaries (bn-mcp, bn-verify).
var notLinked = []string{
	"net/http",
	"crypto/tls",
	"github.com/modelcontextprotocol/go-sdk/mcp",
	"github.com/binnacle-dev/bn/probe",
	"github.com/binnacle-dev/bn/mcpserver",
}

// TestStartupInit builds bn and reads what each package's initialisation
// allocates when `bn --version` starts (GODEBUG=inittrace=1), and which
// packages bn links (go list -deps).
func TestStartupInit(t *testing.T) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("needs the go command to build bn:", err)
	}
	deps, err := exec.Command(goTool, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	linked := strings.Fields(string(deps))
	for _, p := range notLinked {
		for _, l := range linked {
			if l == p {
				t.Errorf("bn links %s, whose initialisation every command would pay for; keep it in the binary that needs it", p)
			}
		}
	}

	bin := filepath.Join(t.TempDir(), "bn")
	if out, err := exec.Command(goTool, "build", "-trimpath", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("bn --version: %v\n%s", err, stderr.Bytes())
	}
	seen := 0
	for _, line := range strings.Split(stderr.String(), "\n") {
		// init github.com/binnacle-dev/bn/dialect @2.1 ms, 0.9 ms clock, 16744 bytes, 115 allocs
		f := strings.Fields(line)
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		seen++
		if !strings.HasPrefix(f[1], "github.com/binnacle-dev/bn/") && f[1] != "main" {
			continue
		}
		n, err := strconv.Atoi(f[7])
		if err != nil {
			t.Fatalf("inittrace line %q: %v", line, err)
		}
		if n > maxInitBytes {
			t.Errorf("%s allocates %d bytes when initialised (at most %d): build what only some commands need on first use (sync.OnceValue)", f[1], n, maxInitBytes)
		}
	}
	if seen == 0 {
		t.Fatalf("no inittrace lines in bn --version's standard error:\n%s", stderr.Bytes())
	}
}
