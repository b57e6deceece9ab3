//go:build !linux

package files

// prefault does nothing where pages cannot be mapped ahead of a read.
func prefault([]byte) {}
