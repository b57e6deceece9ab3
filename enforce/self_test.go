package enforce

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bn's executable under another name (a link to it, hard or symbolic, a
// copy of it) runs bn: its commands that write are recorded for the
// hook's guard as bn's are. A copy changed in a byte is another program.
func TestSelfUnderOtherNames(t *testing.T) {
	root, home := repo(t)
	self := filepath.Join(t.TempDir(), "bn")
	content := []byte("bn's executable, as far as this test goes\n")
	require.NoError(t, os.WriteFile(self, content, 0o755))
	bin := filepath.Join(t.TempDir(), "bin")
	require.NoError(t, os.MkdirAll(bin, 0o755))
	changed := append([]byte(nil), content...)
	changed[0] = 'B'
	require.NoError(t, os.WriteFile(filepath.Join(root, "copy"), content, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "changed"), changed, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "other"), []byte("x"), 0o755))
	require.NoError(t, os.Link(self, filepath.Join(bin, "bnx")))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "rel"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, "rel", "bny"), content, 0o755))
	if runtime.GOOS != "windows" {
		require.NoError(t, os.Symlink(self, filepath.Join(root, "link")))
	}
	ctx := Context{Root: root, Home: home, Self: self, Getenv: func(k string) string {
		if k == "PATH" {
			return bin + string(filepath.ListSeparator) + "rel" // "rel": from the line's directory
		}
		return ""
	}}
	for _, tt := range []struct {
		line string
		runs string // the bn command recorded, "" for none
	}{
		{"./copy config agents export --target claude", "bn config agents export"},
		{"bnx config agents import x.md", "bn config agents import"},
		{"'" + bin + "'/bnx config agents init", "bn config agents init"}, // quoted: a shell drops the backslashes of C:\...
		{"cd src && ../copy config agents export", "bn config agents export"},
		{"env ./copy config agents export", "bn config agents export"},
		{"./copy config agents show", ""},
		{"bny config agents export", "bn config agents export"},
		{"cd src && bny config agents export", ""},
		{"./changed config agents export", ""},
		{"./other config agents export", ""},
		{"./link config agents export", map[bool]string{true: "", false: "bn config agents export"}[runtime.GOOS == "windows"]},
	} {
		d := Decide(agents.Tools{All: true}, shellUse(tt.line), ctx)
		require.True(t, d.Allowed, "%q: %s", tt.line, d.Reason)
		var got string
		for _, a := range d.Accesses {
			if a.Defines != "" {
				got = a.Path
			}
		}
		assert.Equal(t, tt.runs, got, "%q", tt.line)
	}
	// Under a limit of writes, as bn is refused.
	limited := agents.Tools{All: true, Deny: []string{"edit(src/**)"}}
	d := Decide(limited, shellUse("bnx config agents export"), ctx)
	assert.False(t, d.Allowed)
	assert.Contains(t, d.Reason, "it runs bn config agents export, which writes")
	// Without bn's executable known, nothing is compared.
	ctx.Self = ""
	assert.True(t, Decide(limited, shellUse("bnx config agents export"), ctx).Allowed)
}
