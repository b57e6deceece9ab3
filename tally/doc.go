// Package tally counts repeated messages, so that a long report reads as
// the kinds of message in it, each with how often it came and for whom,
// most frequent first: a 150-agent export to every tool repeats a few
// hundred differences thousands of times.
package tally
