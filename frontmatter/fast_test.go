package frontmatter

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-yaml"
)

func TestFastYAML(t *testing.T) {
	accepts := map[string]map[string]any{
		"name: a\ndescription: Reviews code, carefully.\n":       {"name": "a", "description": "Reviews code, carefully."},
		"tools: [Read, Grep, shell(git:*)]\nhidden: true\r\n":    {"tools": []any{"Read", "Grep", "shell(git:*)"}, "hidden": true},
		"model: \"claude-opus-4.6\"\ndescription: 'Use: this'\n": {"model": "claude-opus-4.6", "description": "Use: this"},
		"tools: Read, Bash(git log:*)\n\nempty_list: []\n":       {"tools": "Read, Bash(git log:*)", "empty_list": []any{}},
		"description: a b:c d#e\n":                               {"description": "a b:c d#e"},
	}
	for src, want := range accepts {
		got, ok := fastYAML([]byte(src), 2)
		if !ok {
			t.Errorf("fastYAML declined %q", src)
			continue
		}
		values := map[string]any{}
		for _, e := range got {
			values[e.Key] = e.Value
		}
		if !reflect.DeepEqual(values, want) {
			t.Errorf("fastYAML(%q) = %#v, want %#v", src, values, want)
		}
	}
	for _, src := range []string{
		"tools:\n  - a\n", "description: |\n  x\n", "a: &x 1\n", "n: 5\n", "n: 1.5\n", "v: yes\n", "v: null\n", "v: ~\n",
		"d: \"esc \\\" aped\"\n", "d: a: b\n", "d: x #c\n", "  indented: x\n", "a: 1\na: 2\n", "m: {a: b}\n",
		"k: [a, [b]]\n", "d: -leading\n", "d:\tx\n", "k:v\n", "# comment\nk: v\n", "d: x\n  continued\n",
	} {
		if _, ok := fastYAML([]byte(src), 2); ok {
			t.Errorf("fastYAML accepted %q; it must leave it to the YAML parser", src)
		}
	}
}

// FuzzFastYAML: whatever the fast path accepts, goccy must read the same.
func FuzzFastYAML(f *testing.F) {
	for _, s := range []string{"name: a\ndescription: b c\n", "tools: [a, b]\nx: true\n", "d: 'q'\ne: \"r\"\n", "a: b:c\n", "t: Read, Grep\n", "d: x#y é ✓\r\n", "k: [a b, c-d]\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		fast, ok := fastYAML([]byte(src), 1)
		if !ok {
			return
		}
		var slow map[string]any
		if err := yaml.Unmarshal([]byte(src), &slow); err != nil {
			t.Fatalf("fastYAML accepted %q, which goccy rejects: %v", src, err)
		}
		if len(fast) == 0 && len(slow) == 0 {
			return
		}
		got := map[string]any{}
		for _, e := range fast {
			got[e.Key] = e.Value
		}
		if !reflect.DeepEqual(got, slow) {
			t.Fatalf("fastYAML(%q) = %#v; goccy reads %#v", src, got, slow)
		}
	})
}

// TestManyKeys: frontmatter is read in time linear in its keys. Finding
// a duplicate key by looking back through those read took 20 s for
// 32,000 keys.
func TestManyKeys(t *testing.T) {
	var b strings.Builder
	const n = 200_000
	for i := range n {
		fmt.Fprintf(&b, "k%d: v%d\n", i, i)
	}
	start := time.Now()
	entries, err := Read(Markdown{YAML: []byte(b.String()), YAMLLine: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != n {
		t.Fatalf("%d entries, want %d", len(entries), n)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("reading %d keys took %v", n, d)
	}
	dup := "a: 1\nb: 2\na: 3\n"
	if _, err := Read(Markdown{YAML: []byte(dup), YAMLLine: 2}); err == nil || !strings.Contains(err.Error(), "a") {
		t.Errorf("a duplicate key: %v", err)
	}
}
