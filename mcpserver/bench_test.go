package mcpserver

import (
	"bufio"
	"context"
	"fmt"
	"github.com/binnacle-dev/bn/enforce"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/binnacle-dev/bn/resolver"
)

// BenchmarkShowAgent is one show_agent call to a running server over its
// stdio framing, nothing changed since the last call: what a client of
// bn mcp serve waits for. The layers are the built-in one and three on
// disk of 50 agents each, prompts in files beside config.kdl.
func BenchmarkShowAgent(b *testing.B) {
	layers := []resolver.Layer{resolver.EmbeddedLayer()}
	prompt := strings.Repeat("Read the code, make the change, run the tests, explain what you did.\n", 30)
	for li, name := range resolver.Names[1:] {
		dir := filepath.Join(b.TempDir(), string(name))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		var kdl strings.Builder
		fmt.Fprintf(&kdl, "agent \"worker\" {\n    model \"m%d\"\n    tools {\n        allow \"shell(make:*)\"\n    }\n}\n", li)
		for i := range 50 {
			agent := fmt.Sprintf("l%d-agent-%d", li, i)
			fmt.Fprintf(&kdl, "agent %q {\n    description \"Agent %d does one job well\"\n    tools {\n        allow \"view\" \"shell(git:*)\"\n    }\n    prompt-file %q\n}\n", agent, i, agent+".md")
			if err := os.WriteFile(filepath.Join(dir, agent+".md"), []byte(prompt), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "config.kdl"), []byte(kdl.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		layers = append(layers, resolver.DiskLayer(name, dir, dir))
	}
	// Files written a moment ago are read again until they settle; a
	// project's files were written before its server started.
	old := time.Now().Add(-time.Hour)
	for _, l := range layers[1:] {
		err := filepath.WalkDir(l.Dir, func(path string, _ fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			return os.Chtimes(path, old, old)
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- Serve(context.Background(), New("bench", testLoader(layers), enforce.Context{}, nil), inR, outW)
	}()
	out := bufio.NewReader(outR)
	roundTrip := func(msg string, answered bool) {
		if _, err := io.WriteString(inW, msg+"\n"); err != nil {
			b.Fatal(err)
		}
		if !answered {
			return
		}
		line, err := out.ReadString('\n')
		if err != nil || strings.Contains(line, `"isError":true`) || strings.Contains(line, `"error"`) {
			b.Fatalf("%v: %s", err, line)
		}
	}
	roundTrip(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}`, true)
	roundTrip(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, false)
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"show_agent","arguments":{"name":"worker"}}}`
	roundTrip(call, true) // loads the layers
	b.ResetTimer()
	for b.Loop() {
		roundTrip(call, true)
	}
	b.StopTimer()
	inW.Close()
	if err := <-done; err != nil {
		b.Fatal(err)
	}
}

// BenchmarkAccept is the check of one well-formed request line of 4 KB
// before it is handed to the SDK: one scan of it for its syntax, one for
// its nesting, one decode.
func BenchmarkAccept(b *testing.B) {
	line := []byte(`{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"show_agent","arguments":{"name":"` + strings.Repeat("a", 4000) + `","x":[[{"a":[1,2]}]]}}}`)
	f := newFrames(strings.NewReader(""), io.Discard)
	b.SetBytes(int64(len(line)))
	for b.Loop() {
		clear(f.pending)
		if !f.accept(line) {
			b.Fatal("refused")
		}
	}
}
