package importer

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestNetworkURL(t *testing.T) {
	for _, tc := range []struct {
		url, why string
	}{
		{"https://github.com/o/r.git", ""},
		{"HTTP://example.com/r", ""},
		{"ssh://git@example.com/r.git", ""},
		{"git://example.com/r", ""},
		{"git@github.com:o/r.git", ""},
		{"example.com:o/r.git", ""},
		{"../../outside", "is a local path"},
		{"/tmp/x", "is a local path"},
		{"./x:y", "is a local path"},
		{`C:\x`, "is a local path"},
		{"C:/x", "is a local path"},
		{"file:///tmp/x", "is a file:// URL, a local path"},
		{"FILE://host/x", "is a file:// URL, a local path"},
		{"ext::sh -c touch% /tmp/pwned", `uses git's "ext" transport`},
		{"fd::3", `uses git's "fd" transport`},
		{"ftp://example.com/r", `uses the scheme "ftp"`},
		{"https:///r", "names no host"},
		{"-uupload-pack=touch x", "starts with a dash"},
		{"", "names no repository"},
	} {
		if got := networkURL(tc.url); got != tc.why {
			t.Errorf("networkURL(%q) = %q, want %q", tc.url, got, tc.why)
		}
	}
}

// A git source that is no repository on the network is refused before
// anything is fetched: nothing lands in the cache.
func TestPluginSourceRefusesLocalGit(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	for _, src := range []string{
		`{"source": "url", "url": "../../outside", "ref": "main"}`,
		`{"source": "url", "url": "/tmp/x"}`,
		`{"source": "url", "url": "file:///tmp/x"}`,
		`{"source": "git-subdir", "url": "ext::sh -c id", "path": "p"}`,
	} {
		_, why := pluginSource(dir, "", "f", json.RawMessage(src), cache)
		if !strings.Contains(why, "a plugin in git is fetched only over the network") {
			t.Errorf("%s: %q, want a refusal", src, why)
		}
	}
	if entries, _ := os.ReadDir(cache); len(entries) != 0 {
		t.Errorf("the cache holds %v, want nothing", entries)
	}
}
