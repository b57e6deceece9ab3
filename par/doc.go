// Package par runs independent pieces of work side by side, one goroutine
// per core, for the loaders and writers that handle many files.
package par
