//go:build !linux

package emit

// flush puts the files' contents on disk, one at a time.
func flush(paths []string) error { return fsyncEach(paths) }
