//go:build !unix

package files

import "os"

// openNonblock is nothing where opening a file never waits for a writer
// (Windows' named pipes live outside the file system bn reads).
const openNonblock = 0

func blocking(*os.File) {}
