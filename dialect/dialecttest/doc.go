// Package dialecttest checks that an agent file means what its definition
// says, for tests of the dialects and of whole exports.
package dialecttest
