package views

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/resolver"
)

// BenchmarkListOneFile is `list` in process over one KDL 2.0 config.kdl
// of 10,000 agents: read, parse, decode, resolve, build and encode.
func BenchmarkListOneFile(b *testing.B) {
	dir := b.TempDir()
	var s strings.Builder
	s.WriteString("/- kdl-version 2\n")
	for i := range 10000 {
		fmt.Fprintf(&s, "agent agent-%d {\n    description \"Agent %d: reviews one kind of change\"\n    lifecycle stateless\n    model claude-sonnet-4.5\n    tags bench review\n    tools {\n        allow view grep \"shell(git:*)\"\n        deny write\n    }\n    prompt #\"You are agent %d.\"#\n}\n", i, i, i)
	}
	if err := os.WriteFile(filepath.Join(dir, "config.kdl"), []byte(s.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	layers := []resolver.Layer{resolver.EmbeddedLayer(), resolver.DiskLayer(resolver.Project, dir, dir)}
	dec := config.Decoder{Sections: dialect.All()}
	b.SetBytes(int64(s.Len()))
	b.ResetTimer()
	for b.Loop() {
		out := ListData(resolver.Load(layers, dec), "", false)
		if out.Count != 10006 {
			b.Fatalf("%d agents", out.Count)
		}
		if err := json.NewEncoder(io.Discard).Encode(out); err != nil {
			b.Fatal(err)
		}
	}
}
