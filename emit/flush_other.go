//go:build !linux

package emit

// flush puts the files' contents on disk, one at a time.
func flush(temps []tempFile) error { return fsyncEach(temps) }
