package dialect

import (
	"testing"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// tomlMultilineCases are prompts at every edge of go-toml's escaping.
var tomlMultilineCases = []string{
	"", "plain\n", "a \"quoted\" word\n", `"""` + "\n", `""""` + "\n", `""` + "\n", "ends in a quote\"", "ends in two\"\"",
	`back\slash` + "\n", "tab\there\n", "\r\n", "\b\f\x00\x1f\x7f\n", "é 日本語 \u2028\n", "\xff not UTF-8\n", "\xe6\x97 cut\n",
	"#!/bin/sh\necho \"$HOME\" '\\n'\n",
}

// TestTOMLMultilineIsGoTOMLs: developer_instructions is written as go-toml
// writes a multi-line string, and go-toml reads it back as it was.
func TestTOMLMultilineIsGoTOMLs(t *testing.T) {
	for _, s := range tomlMultilineCases {
		assertTOMLMultiline(t, s+"\n")
	}
}

func FuzzTOMLMultiline(f *testing.F) {
	for _, s := range tomlMultilineCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { assertTOMLMultiline(t, s+"\n") })
}

func assertTOMLMultiline(t *testing.T, s string) {
	want, err := toml.Marshal(struct {
		V string `toml:"developer_instructions,multiline"`
	}{s})
	require.NoError(t, err)
	got := "developer_instructions = " + string(appendTOMLMultiline(nil, s)) + "\n"
	assert.Equal(t, string(want), got, "%q", s)
	if utf8.ValidString(s) { // go-toml writes a byte that is not UTF-8 as the rune of its value
		var back struct {
			V string `toml:"developer_instructions"`
		}
		require.NoError(t, toml.Unmarshal([]byte(got), &back), "%q", s)
		assert.Equal(t, s, back.V)
	}
}
