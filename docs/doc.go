// Package docs is bn's reference documentation, in markdown beside this
// file; its test holds every link in README.md and docs/ to a file and a
// heading of this repository.
package docs
