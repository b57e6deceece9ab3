package enforce

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// win32Name is a pure function of the string: its table runs on every
// system.
func TestWin32Name(t *testing.T) {
	for _, tt := range []struct{ in, want, err string }{
		{`C:\repo\.env`, `C:\repo\.env`, ""},
		{`C:\repo\.env.`, `C:\repo\.env`, ""},
		{`C:\repo\.env `, `C:\repo\.env`, ""},
		{`C:\repo\.env. .`, `C:\repo\.env`, ""},
		{`C:\repo\src. \a.go. `, `C:\repo\src\a.go`, ""},
		{`C:\repo\.env::$DATA`, `C:\repo\.env`, ""},
		{`C:\repo\.env:$data`, `C:\repo\.env`, ""},
		{`C:/repo/src/../.env.`, `C:\repo\src\..\.env`, ""},
		{`\\server\share\.env.`, `\\server\share\.env`, ""},
		{`C:\repo\.env:x`, "", "alternate data stream"},
		{`C:\repo\.env:x:$DATA`, "", "alternate data stream"},
		{`C:\repo\src:$I30:$INDEX_ALLOCATION\a`, "", "alternate data stream"},
		{`C:\repo\... \.env`, "", "only dots and spaces"},
		{`\\?\C:\repo\.env`, "", "device or raw path"},
		{`\\.\C:\repo\.env`, "", "device or raw path"},
		{`//?/C:/repo/.env`, "", "device or raw path"},
		{`\??\C:\repo\.env`, "", "device or raw path"},
	} {
		got, err := win32Name(tt.in)
		if tt.err != "" {
			assert.ErrorContains(t, err, tt.err, tt.in)
			continue
		}
		require.NoError(t, err, tt.in)
		assert.Equal(t, tt.want, got, tt.in)
	}
	for c, short := range map[string]bool{"PROGRA~1": true, "SECRET~1.ENV": true, "a~b": true, "SECR~FQR.ENV": true, "a.go~": false, "a~.b": false, ".mcp.~1~": false, "LONGNAME~1": false, "a~1.json": false, "~": false, "x~": false, "~~9": true} {
		assert.Equal(t, short, shortName(c), c)
	}
}
