//go:build !unix

package files

import "io/fs"

// Identity is empty where bn reads no file identity: a replaced
// directory is seen by its entries alone.
func Identity(fs.FileInfo) string { return "" }
