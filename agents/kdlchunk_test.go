package agents

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// bigConfig writes n agent nodes; 2,500 of them once made kdl-go's
// streaming reader report a syntax error in a valid file.
func bigConfig(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "agent \"a-%d\" {\n    description \"Agent %d: does one job well\"\n    lifecycle \"stateless\"\n    tags \"bench\" \"x\"\n    tools {\n        allow \"view\" \"grep\" \"shell(git:*)\"\n        deny \"write\"\n    }\n    prompt-file \"a-%d.md\"\n}\n", i, i, i)
	}
	return b.String()
}

func TestDecodeKDLLargeFiles(t *testing.T) {
	for _, n := range []int{1, 300, 2500, 4000} {
		f := DecodeKDL("big.kdl", []byte(bigConfig(n)))
		require.Empty(t, f.Diags, "n=%d", n)
		require.Len(t, f.Specs, n)
		last := f.Specs[n-1]
		assert.Equal(t, fmt.Sprintf("a-%d", n-1), last.Name)
		assert.Equal(t, Pos{"big.kdl", 10*(n-1) + 1, 1}, last.Pos)
	}
}

func TestDecodeKDLLargeFileErrorLine(t *testing.T) {
	src := bigConfig(3000) + "agent \"z\" {\n    model \"m\" = 1\n}\n"
	f := DecodeKDL("big.kdl", []byte(src))
	require.Len(t, f.Diags, 1)
	assert.Equal(t, Pos{"big.kdl", 30002, 15}, f.Diags[0].Pos)
}
