package team

import (
	"fmt"
	"io/fs"
	"syscall"
)

// changeStamp is the inode and change time of a file.
func changeStamp(fi fs.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("%d %d.%09d", st.Ino, st.Ctim.Sec, st.Ctim.Nsec)
	}
	return fi.ModTime().String()
}
