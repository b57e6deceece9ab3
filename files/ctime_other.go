//go:build !linux

package files

import "io/fs"

// ChangeStamp is the modification time of a file where bn does not read
// change times.
func ChangeStamp(fi fs.FileInfo) string { return fi.ModTime().String() }

// ChangeTimes says ChangeStamp reads modification times alone: an edit
// whose modification time is set back is not seen.
const ChangeTimes = false
