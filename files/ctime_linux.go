package files

import (
	"io/fs"
	"strconv"
	"syscall"
	"time"
)

// ChangeStamp describes a file's identity and last change: its inode and
// change time. Any write to the file or its metadata changes the change
// time, and no user can set it back, as one can a modification time.
func ChangeStamp(fi fs.FileInfo) string {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return fi.ModTime().String()
	}
	b := make([]byte, 0, 40)
	b = strconv.AppendUint(b, st.Ino, 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, st.Ctim.Sec, 10)
	b = append(b, '.')
	ns := strconv.AppendInt(nil, st.Ctim.Nsec, 10)
	for range 9 - len(ns) { // %09d
		b = append(b, '0')
	}
	return string(append(b, ns...))
}

// ChangeTimes says ChangeStamp reads change times: an edit is seen even
// when its modification time is set back.
const ChangeTimes = true

// ChangeTime is when a file or directory last changed: its change time.
func ChangeTime(fi fs.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(st.Ctim.Sec, st.Ctim.Nsec)
	}
	return fi.ModTime()
}
