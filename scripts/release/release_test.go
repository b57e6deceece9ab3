package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const sums = `1111111111111111111111111111111111111111111111111111111111111111  bn-v1.2.0-linux-amd64.tar.gz
2222222222222222222222222222222222222222222222222222222222222222  bn-v1.2.0-linux-arm64.tar.gz
3333333333333333333333333333333333333333333333333333333333333333  bn-v1.2.0-darwin-arm64.tar.gz
4444444444444444444444444444444444444444444444444444444444444444  bn-v1.2.0-darwin-amd64.tar.gz
5555555555555555555555555555555555555555555555555555555555555555  bn-v1.2.0-windows-amd64.zip
`

const url = "https://example.org/releases/v1.2.0"

// TestWrite: the formula names every Unix archive with its checksum under
// the release URL, and the Scoop manifest is valid by Scoop's own schema
// (scoop/, vendored with its source and licence).
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(sums), 0o644))
	require.NoError(t, run("v1.2.0", url, filepath.Join(dir, "SHA256SUMS"), dir))

	rb, err := os.ReadFile(filepath.Join(dir, "bn.rb"))
	require.NoError(t, err)
	assert.Contains(t, string(rb), `RELEASE_URL = "`+url+`".freeze`)
	assert.Contains(t, string(rb), `version "1.2.0"`)
	for i, f := range []string{"linux-amd64", "linux-arm64", "darwin-arm64", "darwin-amd64"} {
		assert.Contains(t, string(rb), "url \"#{RELEASE_URL}/bn-v1.2.0-"+f+".tar.gz\"\n      sha256 \""+strings.Repeat(string(rune('1'+i)), 64)+"\"")
	}
	assert.NotContains(t, string(rb), "windows")

	manifest, err := os.ReadFile(filepath.Join(dir, "bn.json"))
	require.NoError(t, err)
	checkScoop(t, manifest)
	var m struct {
		Version      string
		Architecture map[string]struct{ URL, Hash, Extract_dir string }
	}
	require.NoError(t, json.Unmarshal(manifest, &m))
	assert.Equal(t, "1.2.0", m.Version)
	assert.Equal(t, url+"/bn-v1.2.0-windows-amd64.zip", m.Architecture["64bit"].URL)
	assert.Equal(t, strings.Repeat("5", 64), m.Architecture["64bit"].Hash)
	assert.Equal(t, "bn-v1.2.0-windows-amd64", m.Architecture["64bit"].Extract_dir)
}

// checkScoop checks a manifest against Scoop's schema, and that the
// schema is not so loose that anything passes.
func checkScoop(t *testing.T, manifest []byte) {
	t.Helper()
	assert.NoError(t, validateScoop(manifest))
	var v map[string]any
	require.NoError(t, json.Unmarshal(manifest, &v))
	v["architecture"].(map[string]any)["64bit"].(map[string]any)["hash"] = "not a hash"
	bad, _ := json.Marshal(v)
	assert.ErrorContains(t, validateScoop(bad), "does not follow Scoop's schema", "a bad hash must fail the schema")
	delete(v, "architecture")
	v["unknown"] = true
	bad, _ = json.Marshal(v)
	assert.Error(t, validateScoop(bad), "an unknown key must fail the schema")
}

// TestSumsRefused: a checksum line bn did not write, an archive of
// another version and a missing platform are errors naming the problem.
func TestSumsRefused(t *testing.T) {
	for _, tc := range []struct{ sums, want string }{
		{"abc  bn-v1.2.0-linux-amd64.tar.gz\n", `line 1: "abc  bn-v1.2.0-linux-amd64.tar.gz" is not "SHA256  FILE"`},
		{strings.Repeat("1", 64) + "  notes.txt\n", `line 1: "notes.txt" is not a release archive`},
		{strings.Replace(sums, "v1.2.0-linux-arm64", "v1.1.0-linux-arm64", 1), "line 2: bn-v1.1.0-linux-arm64.tar.gz is of version v1.1.0, not v1.2.0"},
		{strings.SplitAfterN(sums, "\n", 2)[1], "no linux/amd64 archive among the checksums"},
	} {
		dir := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(dir, "SHA256SUMS"), []byte(tc.sums), 0o644))
		err := run("v1.2.0", url, filepath.Join(dir, "SHA256SUMS"), dir)
		require.Error(t, err)
		assert.Contains(t, err.Error(), tc.want)
	}
}
