package importer

import (
	"encoding/json"
	"os"
	"path/filepath"
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
	for _, p := range []string{"../..", "/etc", "a/../../b"} {
		src := `{"source": "git-subdir", "url": "https://example.com/r.git", "path": "` + p + `"}`
		_, why := pluginSource(dir, "", "f", json.RawMessage(src), cache)
		if !strings.Contains(why, "leads out of the repository it names") {
			t.Errorf("%s: %q, want a refusal", src, why)
		}
	}
	if entries, _ := os.ReadDir(cache); len(entries) != 0 {
		t.Errorf("the cache holds %v, want nothing", entries)
	}
}

// A marketplace.json or plugin.json bn cannot read is skipped with the
// reason, as an agent file is, and the other paths are still read.
func TestCollectSkipsUnreadableManifests(t *testing.T) {
	big := `{"name": "m", "plugins": [], "x": "` + strings.Repeat("a", 1<<20) + `"}`
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	for _, tc := range []struct {
		name, file, content, reason string
	}{
		{"big marketplace", "marketplace.json", big, "over the 1 MiB bn reads"},
		{"deep marketplace", "marketplace.json", deep, "exceeded max depth); fix it"},
		{"big plugin", "plugin.json", big, "over the 1 MiB bn reads"},
		{"deep plugin", "plugin.json", deep, "exceeded max depth"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "m", ".claude-plugin", tc.file), tc.content)
			writeFile(t, filepath.Join(dir, "a", "ok.md"), "---\nname: ok\n---\nOK.\n")
			found, skipped, err := Collect([]string{"m", "a"}, dir, "", "")
			if err != nil {
				t.Fatalf("Collect: %v, want %s skipped", err, tc.file)
			}
			if len(found) != 1 || filepath.Base(found[0].Path) != "ok.md" {
				t.Errorf("found %v, want a/ok.md", found)
			}
			if len(skipped) != 1 || filepath.Base(skipped[0].File) != tc.file || !strings.Contains(skipped[0].Reason, tc.reason) {
				t.Errorf("skipped %v, want %s: %s", skipped, tc.file, tc.reason)
			}
		})
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}
