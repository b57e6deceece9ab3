package enforce

import (
	"os"
	"testing"
)

// TestMain lets the test binary also be the oracle's recorder and its
// sandbox (oracle_linux_test.go), which it runs as.
func TestMain(m *testing.M) {
	if code, ok := oracleRole(); ok {
		os.Exit(code)
	}
	os.Exit(m.Run())
}
