// Package kdl reads and writes KDL documents, version 2.0 and 1.0, into a
// small tree with a position for every node and value.
//
// Read reads a document as KDL 2.0 and falls back to 1.0, as the 2.0
// specification's compatibility section allows (a document valid in both
// versions means the same data in both). A leading `/- kdl-version 1` or
// `/- kdl-version 2` forces one. The 2.0 reader is this package's own,
// held to the official test suite and checked against an independent
// implementation by differential fuzzing; the 1.0 reader is
// github.com/sblinch/kdl-go, wrapped so that its panics, its unlocated
// errors and its large-document tokenizer bug never reach callers.
//
// ReadEach reads the same way but hands each top-level node to the caller
// as soon as it is read, reusing its memory for the next; ReadNodeAt reads
// one again later.
//
// Errors are *Error values: a 1-based line and column in the version the
// file is written in, a message, and a hint. A file mixing 1.0-only and
// 2.0-only spellings gets an error naming a place of each.
package kdl
