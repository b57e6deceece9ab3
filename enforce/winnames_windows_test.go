package enforce

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/binnacle-dev/bn/agents"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// On Windows the other spellings of a file Win32 opens as it (trailing
// dots and spaces, ::$DATA, the 8.3 short name, \\?\) are the file to a
// deny, and a stream or a device path is refused under path rules.
func TestWindowsSpellings(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(root, "src"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(root, ".env"), []byte("SECRET"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "secret-file.env"), []byte("SECRET"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(root, "src", "a.go"), nil, 0o644))
	short := shortPath(t, filepath.Join(root, "secret-file.env"))
	t.Logf("secret-file.env's short name: %s", short)
	ctx := Context{Root: root, Dir: root}
	tools := agents.Tools{Allow: []string{"read"}, Deny: []string{"read(.env)", "read(secret-file.env)"}}
	abs := filepath.Join(root, ".env")
	for p, reason := range map[string]string{
		".env.": `deny rule "read(.env)"`, ".env ": `deny rule "read(.env)"`, ".env. .": `deny rule "read(.env)"`,
		".env::$DATA": `deny rule "read(.env)"`, ".env:$DATA": `deny rule "read(.env)"`, `src\..\.env.`: `deny rule "read(.env)"`,
		short: `deny rule "read(secret-file.env)"`, filepath.Base(short) + ".": `deny rule "read(secret-file.env)"`,
		".env:x": "alternate data stream", `\\?\` + abs: "device or raw path", `\\.\` + abs: "device or raw path",
	} {
		if b, err := os.ReadFile(filepath.Join(root, p)); err == nil {
			t.Logf("%q opens as %q", p, b)
		}
		d := Decide(tools, agents.ToolPattern{Kind: "read", Arg: p, HasArg: true}, ctx)
		assert.False(t, d.Allowed, "read %q beside deny read(.env): %s", p, d.Reason)
		assert.Contains(t, d.Reason, reason, p)
	}
	limited := agents.Tools{Allow: []string{"read(src/*)"}}
	for p, reason := range map[string]string{
		`src\a.go. `: "", `src\a.go::$DATA`: "", `src\a.go:x`: "alternate data stream", `src\new~1.go`: "8.3 short name",
	} {
		d := Decide(limited, agents.ToolPattern{Kind: "read", Arg: p, HasArg: true}, ctx)
		assert.Equal(t, reason == "", d.Allowed, "read %q under read(src/*): %s", p, d.Reason)
		assert.Contains(t, d.Reason, reason, p)
	}
	shell := agents.Tools{Allow: []string{"read", "shell(cat:*)"}, Deny: []string{"read(.env)"}}
	runShell(t, shell, ctx, []shellCase{
		{"cat '.env.'", false, `deny rule "read(.env)"`},
		{"cat '.env::$DATA'", false, `deny rule "read(.env)"`},
		// Stream x of .env is not the data the deny names; bn does not
		// place it, and a name it cannot place stays advisory beside a
		// deny of reading (as HEAD:.env and URLs do).
		{"cat .env:x", true, ""},
		{`cat '\\?\` + abs + `'`, false, "device or raw path"},
		{`cat 'src\a.go.'`, true, ""},
	})
}

// shortPath is p's 8.3 short name, as Windows (and Wine) make one for a
// name that is not 8.3.
func shortPath(t *testing.T, p string) string {
	in, err := syscall.UTF16PtrFromString(p)
	require.NoError(t, err)
	buf := make([]uint16, syscall.MAX_LONG_PATH)
	n, err := syscall.GetShortPathName(in, &buf[0], uint32(len(buf)))
	require.NoError(t, err)
	return syscall.UTF16ToString(buf[:n])
}
