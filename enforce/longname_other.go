//go:build !windows

package enforce

// shortNames: only Windows gives files 8.3 short names.
const shortNames = false

// longName is p: only Windows gives files 8.3 short names.
func longName(p string) (string, error) { return p, nil }
