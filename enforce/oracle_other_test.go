//go:build !linux

package enforce

import "testing"

// The oracle runs lines in Linux namespaces only.
func oracleRole() (int, bool) { return 0, false }

func buildRecorder(t testing.TB) string {
	t.Skip("the oracle runs lines in Linux mount namespaces")
	return ""
}

func runOracle(t *testing.T, rec string, runs []oracleRun) []oracleResult { return nil }
