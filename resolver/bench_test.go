package resolver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
)

// benchLayers writes three disk layers of n agents each (prompt files
// beside a config.kdl, or markdown agent files) for the Load benchmarks.
func benchLayers(b *testing.B, n int, markdown bool) []Layer {
	b.Helper()
	prompt := strings.Repeat("Read the code, make the change, run the tests, explain what you did.\n", 30)
	ls := []Layer{EmbeddedLayer()}
	for li, name := range Names[1:] {
		dir := filepath.Join(b.TempDir(), string(name))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			b.Fatal(err)
		}
		var kdl strings.Builder
		fmt.Fprintf(&kdl, "agent \"worker\" {\n    model \"m%d\"\n    tools {\n        allow \"shell(make:*)\"\n    }\n}\n", li)
		for i := 0; i < n; i++ {
			agent := fmt.Sprintf("l%d-agent-%d", li, i)
			var file, content string
			if markdown {
				file = agent + ".md"
				content = fmt.Sprintf("---\nname: %s\ndescription: Agent %d does one job well\ntools: Read, Grep, shell(git:*)\ntags: [bench]\n---\n\n%s", agent, i, prompt)
			} else {
				fmt.Fprintf(&kdl, "agent %q {\n    description \"Agent %d does one job well\"\n    tags \"bench\"\n    tools {\n        allow \"view\" \"shell(git:*)\"\n        deny \"write\"\n    }\n    prompt-file %q\n}\n", agent, i, agent+".md")
				file, content = agent+".md", prompt
			}
			if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644); err != nil {
				b.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "config.kdl"), []byte(kdl.String()), 0o644); err != nil {
			b.Fatal(err)
		}
		ls = append(ls, DiskLayer(name, dir, dir))
	}
	return ls
}

// BenchmarkShowWorker is the launch path: load four layers, resolve worker
// and read its prompt, decoding only the agent nodes worker needs.
func BenchmarkShowWorker(b *testing.B) {
	ls := benchLayers(b, 50, false)
	b.ResetTimer()
	for b.Loop() {
		s := Load(ls, config.Decoder{Sections: dialect.All(), Defer: true})
		a, err := s.Lookup("worker")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := a.Prompt(); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadKDL(b *testing.B)      { benchLoad(b, false) }
func BenchmarkLoadMarkdown(b *testing.B) { benchLoad(b, true) }

func benchLoad(b *testing.B, markdown bool) {
	ls := benchLayers(b, 1000, markdown)
	b.ResetTimer()
	for b.Loop() {
		if err := loadAll(ls).Fatal(); err != nil {
			b.Fatal(err)
		}
	}
}
