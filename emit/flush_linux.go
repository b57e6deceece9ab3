package emit

import "golang.org/x/sys/unix"

// flush puts the files' contents on disk. Linux flushes the file system
// that holds them in one call (syncfs), far faster than one fsync a file
// for the hundreds of prompts an import writes.
func flush(temps []tempFile) error {
	if len(temps) == 0 {
		return nil
	}
	f, err := temps[0].dir.Open(temps[0].name)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := unix.Syncfs(int(f.Fd())); err != nil {
		return fsyncEach(temps)
	}
	return nil
}
