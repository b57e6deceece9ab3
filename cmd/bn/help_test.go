package main

import (
	"testing"

	"github.com/spf13/cobra"
)

// TestEveryCommandHasExamples: each command a user runs shows, in its
// --help, examples to copy.
func TestEveryCommandHasExamples(t *testing.T) {
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Runnable() && !c.Hidden && c.Name() != "help" && c.Parent() != nil && c.Parent().Name() != "completion" && c.Name() != "completion" {
			if c.Example == "" {
				t.Errorf("%q has no examples in its --help", c.CommandPath())
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(NewCmdRoot(&Factory{IO: &IOStreams{}}))
}
