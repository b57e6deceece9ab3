//go:build !linux

package files

import "io/fs"

// ChangeStamp is the modification time of a file where bn does not read
// change times.
func ChangeStamp(fi fs.FileInfo) string { return fi.ModTime().String() }
