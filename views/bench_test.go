package views

import (
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/resolver"
)

// BenchmarkListOneFile is `list` in process over one KDL 2.0 config.kdl
// of 10,000 agents: read, parse, decode, resolve and write the JSON.
func BenchmarkListOneFile(b *testing.B) {
	var s strings.Builder
	s.WriteString("/- kdl-version 2\n")
	for i := range 10000 {
		fmt.Fprintf(&s, "agent agent-%d {\n    description \"Agent %d: reviews one kind of change\"\n    lifecycle stateless\n    model claude-sonnet-4.5\n    tags bench review\n    tools {\n        allow view grep \"shell(git:*)\"\n        deny write\n    }\n    prompt #\"You are agent %d.\"#\n}\n", i, i, i)
	}
	layers, dec := projectLayers(b, s.String())
	b.SetBytes(int64(s.Len()))
	b.ResetTimer()
	for b.Loop() {
		failed, err := WriteListJSON(io.Discard, resolver.Load(layers, dec), "", false)
		if err != nil || len(failed) > 0 {
			b.Fatalf("%v, %d failed", err, len(failed))
		}
	}
}
