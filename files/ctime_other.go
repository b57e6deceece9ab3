//go:build !linux

package files

import (
	"io/fs"
	"time"
)

// ChangeStamp is the modification time of a file where bn does not read
// change times.
func ChangeStamp(fi fs.FileInfo) string { return fi.ModTime().String() }

// ChangeTimes says ChangeStamp reads modification times alone: an edit
// whose modification time is set back is not seen.
const ChangeTimes = false

// ChangeTime is when a file or directory last changed, as far as bn
// reads it: its modification time (a directory's moves when an entry is
// added, removed or renamed).
func ChangeTime(fi fs.FileInfo) time.Time { return fi.ModTime() }
