package emit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

// A sealed file is not hand-edited until a byte of it outside the marker
// changes; \r\n line endings are no edit; an unsealed or unmarked file is
// never hand-edited.
func TestSeal(t *testing.T) {
	for _, file := range []string{
		"---\n" + Marker("bn config agents export --target claude") + "name: a\n---\nBody.\n",
		Marker("bn config agents export --target codex") + "name = 'a'\n",
		JSONMarker(`bn config agents export --target kiro-cli --out C:\"x"`) + "  \"name\": \"a\"\n}\n",
	} {
		sealed := Seal([]byte(file))
		assert.Regexp(t, `run `+"`"+`[^`+"`"+`]+`+"`"+`\. bn:[0-9a-f]{12}(\n|",\n)`, string(sealed))
		if bytes.HasPrefix(sealed, []byte("{")) {
			var doc map[string]string
			assert.NoError(t, json.Unmarshal(sealed, &doc), "still JSON")
			assert.Regexp(t, `--out C:\\"x"`+"`"+`\. bn:[0-9a-f]{12}$`, doc["$comment"])
		}
		assert.True(t, IsGenerated(sealed))
		assert.False(t, HandEdited(sealed))
		assert.False(t, HandEdited(bytes.ReplaceAll(sealed, []byte("\n"), []byte("\r\n"))), "a CRLF checkout")
		assert.True(t, HandEdited(append(sealed, "more\n"...)))
		assert.True(t, HandEdited(bytes.Replace(sealed, []byte("name"), []byte("nome"), 1)))
		assert.False(t, HandEdited([]byte(file)), "a file sealed by no one")
	}
	assert.Equal(t, "plain\n", string(Seal([]byte("plain\n"))))
	// The digest counts each \r\n as \n, as bytes.ReplaceAll would make it.
	for _, rest := range []string{"a\r\nb\r\n", "a\r\r\nb", "\r", "\r\n\r\n", "a\rb\n", ""} {
		content := Marker("x") + rest
		start, end, _ := markerLine([]byte(content))
		sum := sha256.Sum256(bytes.ReplaceAll([]byte(content[end:]), []byte("\r\n"), []byte("\n")))
		assert.Equal(t, hex.EncodeToString(sum[:])[:12], digest([]byte(content), start, end), "%q", rest)
	}
	assert.False(t, HandEdited([]byte("# not bn's bn:0123456789ab\n")))
}
