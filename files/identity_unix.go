//go:build unix

package files

import (
	"io/fs"
	"strconv"
	"syscall"
)

// Identity names the file itself (device and inode), so that another
// file put in its place reads as another.
func Identity(fi fs.FileInfo) string {
	if sys, ok := fi.Sys().(*syscall.Stat_t); ok {
		return strconv.FormatUint(uint64(sys.Dev), 10) + ":" + strconv.FormatUint(uint64(sys.Ino), 10)
	}
	return ""
}
