//go:build !linux

package team

import "io/fs"

// changeStamp is the modification time of a file where bn does not read
// change times.
func changeStamp(fi fs.FileInfo) string { return fi.ModTime().String() }
