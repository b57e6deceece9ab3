//go:build !windows

package wine

// Running reports whether this process runs under Wine: never, off Windows.
func Running() bool { return false }
