//go:build unix

package hookrules

import (
	"os"
	"syscall"
)

// hardLinks is the number of names an existing regular file at path has;
// 0 when it is not one, or the system does not say.
func hardLinks(path string) uint64 {
	fi, err := os.Stat(path)
	if err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 0
}
