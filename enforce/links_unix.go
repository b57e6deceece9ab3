//go:build unix

package enforce

import (
	"io/fs"
	"syscall"
)

// HardLinks is the number of names (hard links) of the regular file fi
// describes; 0 when it is not one, or the system does not say.
func HardLinks(fi fs.FileInfo) uint64 {
	if fi == nil || !fi.Mode().IsRegular() {
		return 0
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 0
}
