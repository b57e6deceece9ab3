package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"testing"
)

// indentJSON writes what encoding/json's indenter writes.
func TestIndentJSONMatchesEncodingJSON(t *testing.T) {
	for _, v := range []any{
		map[string]any{"a": []any{}, "b": map[string]any{}, "c": []any{1, "x", nil, true, map[string]any{"d": "e"}}},
		[]any{`quote " and \ and {[,:]}`, "unicode ✓ \u0001 \t", 1.5e10, -0},
		map[string]any{"nested": []any{[]any{[]any{}}, map[string]any{"k": []any{map[string]any{}}}}},
		"plain", 7, nil,
	} {
		var compact bytes.Buffer
		enc := json.NewEncoder(&compact)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		src := bytes.TrimSuffix(compact.Bytes(), []byte("\n"))
		var want bytes.Buffer
		if err := json.Indent(&want, src, "", "  "); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		w := bufio.NewWriter(&got)
		indentJSON(w, src)
		w.Flush()
		if got.String() != want.String() {
			t.Errorf("indentJSON(%s):\n%s\nwant:\n%s", src, got.String(), want.String())
		}
	}
}
