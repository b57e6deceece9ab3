package frontmatter

import (
	"fmt"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSplit(t *testing.T) {
	md, err := Split([]byte("\uFEFF---\r\nname: a\r\n---  \r\nbody\r\n"))
	require.NoError(t, err)
	assert.Equal(t, "name: a\r\n", string(md.YAML))
	assert.Equal(t, "body\r\n", string(md.Body))
	assert.Equal(t, 4, md.BodyLine)

	md, err = Split([]byte("---\nname: a\n---"))
	require.NoError(t, err)
	assert.Empty(t, md.Body)

	_, err = Split([]byte("# Title\n"))
	assert.ErrorIs(t, err, ErrNone)
	_, err = Split([]byte("---\nname: a\n"))
	assert.ErrorContains(t, err, "never closed")
	_, err = Split(nil)
	assert.ErrorIs(t, err, ErrNone)
}

func TestReadPositionsAndOrder(t *testing.T) {
	md, err := Split([]byte("---\nname: rev\ndescription: |\n  Multi\n  line\nhandoffs:\n  - label: Go\n    agent: x\n    send: false\n---\nbody\n"))
	require.NoError(t, err)
	entries, err := Read(md)
	require.NoError(t, err)
	require.Len(t, entries, 3)
	assert.Equal(t, Entry{Key: "name", Value: "rev", Line: 2, Col: 1}, entries[0])
	assert.Equal(t, "Multi\nline\n", entries[1].Value)
	assert.Equal(t, 6, entries[2].Line)
	list := entries[2].Value.([]any)
	item := list[0].(*agents.Map)
	assert.Equal(t, []string{"label", "agent", "send"}, item.Keys, "maps keep the file's key order")
	assert.Equal(t, false, item.Values["send"])
}

func TestReadErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{"---\nname: a\ntools: [a, b\n---\n", "3:8: invalid YAML frontmatter"},
		{"---\nname: a\nname: b\n---\n", `3:1: invalid YAML frontmatter: mapping key "name" already defined at line 2`},
		{"---\n- a\n- b\n---\n", "frontmatter must be a YAML mapping"},
	}
	for _, tt := range tests {
		md, err := Split([]byte(tt.src))
		require.NoError(t, err)
		_, err = Read(md)
		require.Error(t, err, tt.src)
		assert.Contains(t, err.Error(), tt.want)
	}
}

func TestLenient(t *testing.T) {
	md, err := Split([]byte("---\nname: a\ndescription: Use this: when asked\ntools:\n  - Read\n  - Grep\n---\nbody\n"))
	require.NoError(t, err)
	entries, note, err := Lenient(md)
	require.NoError(t, err)
	assert.Contains(t, note, "not strict YAML (3:")
	assert.Equal(t, "Use this: when asked", entries[1].Value)
	assert.Equal(t, []any{"Read", "Grep"}, entries[2].Value)
}

func FuzzRead(f *testing.F) {
	f.Add([]byte("---\nname: a\ndescription: b\ntools: x, y\n---\nbody"))
	f.Add([]byte("---\nname: a\ntools:\n  allow: [a]\n  reset: true\n---\n"))
	f.Add([]byte("\uFEFF---\r\nname: &x a\r\nb: *x\r\n---\r\n"))
	f.Add([]byte("---\n{name: a, tags: [1, 2]}\n---\n"))
	f.Add([]byte("---\nx: " + strings.Repeat("[", 100) + strings.Repeat("]", 100) + "\n---\n"))
	f.Add([]byte("---\nx:\n  " + strings.Repeat("- ", 100) + "a\n---\n"))
	f.Add([]byte("---\nx: " + strings.Repeat("a, ", 20000) + "\n---\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		md, err := Split(src)
		if err != nil {
			return
		}
		Read(md)
		Lenient(md)
	})
}

// Hostile nesting is refused with its place before the YAML parser runs,
// and not read again line by line; the text of a block scalar, however
// indented, does not count.
func TestDepthLimit(t *testing.T) {
	for name, yaml := range map[string]string{
		"flow":    "x: " + strings.Repeat("[", 100000) + strings.Repeat("]", 100000),
		"compact": "x:\n  " + strings.Repeat("- ", 50000) + "a",
		"indent": func() string {
			var b strings.Builder
			b.WriteString("x:\n")
			for i := 1; i < 200; i++ {
				b.WriteString(strings.Repeat(" ", i) + "k:\n")
			}
			return b.String() + strings.Repeat(" ", 200) + "v"
		}(),
	} {
		md := Markdown{YAML: []byte("name: a\n" + yaml + "\n"), YAMLLine: 2}
		_, _, err := Lenient(md)
		require.Error(t, err, name)
		assert.Contains(t, err.Error(), "frontmatter nests more than 64 levels deep", name)
		assert.Regexp(t, `^\d+:\d+: `, err.Error(), name)
	}
	scalar := "description: |\n" + strings.Repeat("  text\n", 5)
	for i := range 100 {
		scalar += strings.Repeat(" ", i+2) + "code\n"
	}
	entries, err := Read(Markdown{YAML: []byte(scalar + "tags: [a, [b]]\n"), YAMLLine: 2})
	require.NoError(t, err)
	assert.Len(t, entries, 2)
}

// Hostile width is refused with its place before the YAML parser runs
// (which recursed once per key: 100,000 keys took minutes), counting the
// lines of keys and items and the values of flow collections, not the
// lines of a block scalar; MaxEntries entries still read.
func TestWidthLimit(t *testing.T) {
	keys := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "k%d: 1\n", i)
		}
		return b.String()
	}
	tests := []struct {
		name, yaml string
		place      string // "": reads
	}{
		{"keys at the bound", keys(MaxEntries - 1), ""},
		{"keys past it", keys(MaxEntries), fmt.Sprintf("%d:1: ", MaxEntries+2)},
		{"flow values past it", "x: [" + strings.Repeat("1, ", MaxEntries) + "1]", "3:15000: "},
		{"items past it", "x:\n" + strings.Repeat("  - a\n", MaxEntries), fmt.Sprintf("%d:3: ", MaxEntries+2)},
		{"a long block scalar", "x: |\n" + strings.Repeat("  line\n", 3*MaxEntries), ""},
	}
	for _, tt := range tests {
		md := Markdown{YAML: []byte("name: a\n" + tt.yaml), YAMLLine: 2}
		_, _, err := Lenient(md)
		if tt.place == "" {
			assert.NoError(t, err, tt.name)
			continue
		}
		require.Error(t, err, tt.name)
		assert.Contains(t, err.Error(), tt.place+fmt.Sprintf("frontmatter holds more than %d entries (keys, list items and values); agent files hold a few dozen: remove the extra ones", MaxEntries), tt.name)
	}
}
