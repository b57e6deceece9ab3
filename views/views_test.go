package views

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// projectLayers are the built-in layer and a project layer holding only
// a config.kdl of configKDL, with the decoder bn uses.
func projectLayers(tb testing.TB, configKDL string) ([]resolver.Layer, config.Decoder) {
	dir := tb.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "config.kdl"), []byte(configKDL), 0o644); err != nil {
		tb.Fatal(err)
	}
	return []resolver.Layer{resolver.EmbeddedLayer(), resolver.DiskLayer(resolver.Project, dir, dir)}, config.Decoder{Sections: dialect.All()}
}

// TestWriteListJSONMatchesMarshal: list's JSON, written as the agents
// are resolved, must be byte for byte what encoding ListData's value
// gives, indented: with errors, hidden agents, tag filters, many entries
// and none.
func TestWriteListJSONMatchesMarshal(t *testing.T) {
	var many strings.Builder
	for i := range 1000 {
		fmt.Fprintf(&many, "agent a%d {\n    description \"<%d> & \\\"q\\\" \\t\\n\\u{2028} é\"\n    prompt p\n    tags t%d\n}\n", i, i, i%3)
	}
	set := resolver.Load(projectLayers(t, many.String()+
		"agent h {\n    description h\n    prompt p\n    hidden #true\n    tags t0 t1\n}\n"+
		"agent broken {\n    execution nowhere\n}\nagent worse {\n    extends nobody\n}\n"))
	for _, c := range []struct {
		tag string
		all bool
	}{{"", false}, {"", true}, {"t1", true}, {"none", false}} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		require.NoError(t, enc.Encode(ListData(set, c.tag, c.all)))
		var got bytes.Buffer
		failed, err := WriteListJSON(&got, set, c.tag, c.all)
		require.NoError(t, err)
		assert.Len(t, failed, 2)
		require.Equal(t, want.String(), got.String(), "tag %q, all %v", c.tag, c.all)
	}
}

// TestListEntryJSONMatchesMarshal: one entry, whatever its strings hold,
// is written as encoding/json writes it.
func TestListEntryJSONMatchesMarshal(t *testing.T) {
	for _, e := range []ListEntry{
		{Name: "a", Description: "tab\tnew\nline\x01\x7f\b\f\r \\ \"q\" \xff\xfe é \u2029 <&>", Source: "\xc3", Tags: []string{"x", "\u2028"}},
		{Name: "b", Tags: []string{}, Hidden: true},
		{Name: "c"},
	} {
		want, err := json.MarshalIndent(e, "    ", "  ")
		require.NoError(t, err)
		want = bytes.ReplaceAll(want, []byte(`\u003c`), []byte("<")) // HTML escaping off
		want = bytes.ReplaceAll(want, []byte(`\u003e`), []byte(">"))
		want = bytes.ReplaceAll(want, []byte(`\u0026`), []byte("&"))
		assert.Equal(t, "\n    "+string(want), string(e.appendJSON(nil)))
	}
}

// FuzzAppendJSONString: a string is written as encoding/json writes it.
func FuzzAppendJSONString(f *testing.F) {
	for _, s := range []string{"", "plain", "\"\\/\b\f\n\r\t\x00\x1f\x7f", "<&>", "\u2028\u2029\u0085", "\xff\xc3(", "é🚀"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		require.NoError(t, enc.Encode(s))
		require.Equal(t, want.String(), string(appendJSONString(nil, s))+"\n")
	})
}

// TestPreview: the first PreviewChars characters, as converting the
// prompt to runes gives them.
func TestPreview(t *testing.T) {
	long := strings.Repeat("é", PreviewChars+10)
	for _, s := range []string{"", "short", long, long[:2*PreviewChars], strings.Repeat("a", PreviewChars), strings.Repeat("\xff", PreviewChars+3), "\xffé" + long} {
		want := s
		if r := []rune(s); len(r) > PreviewChars {
			want = string(r[:PreviewChars])
		}
		assert.Equal(t, want, Preview(s))
	}
}
