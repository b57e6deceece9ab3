package kdl

import (
	"fmt"
	"strings"
	"testing"
)

// BenchmarkRead2 reads a KDL 2.0 document of 10,000 agents (3 MB).
func BenchmarkRead2(b *testing.B) {
	src := []byte(benchDocument())
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Read(src); err != nil {
			b.Fatal(err)
		}
	}
}

// benchDocument is a KDL 2.0 config.kdl of 10,000 agents (3 MB).
func benchDocument() string {
	var s strings.Builder
	s.WriteString("/- kdl-version 2\n")
	for i := range 10000 {
		fmt.Fprintf(&s, "agent agent-%d {\n    description \"Agent %d: reviews one kind of change\"\n    lifecycle stateless\n    model claude-sonnet-4.5\n    show-reasoning #true\n    tags bench review\n    tools {\n        allow view grep \"shell(git:*)\"\n        deny write\n    }\n    prompt #\"You are agent %d. Read the change, check it, and say what you found.\"#\n}\n", i, i, i)
	}
	return s.String()
}
