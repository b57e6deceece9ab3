package main

import (
	"slices"
	"strings"
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

// TestCmdRootForMatchesTheWholeTree: the tree Run builds for some arguments
// (cmdRootFor) finds the same command as the whole tree, with the same
// help, and each of agentsCommands carries the name it is listed by.
func TestCmdRootForMatchesTheWholeTree(t *testing.T) {
	f := &Factory{IO: &IOStreams{}}
	whole := NewCmdRoot(f)
	agents, _, err := whole.Find([]string{"config", "agents"})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range agentsCommands {
		if got := c.build(f).Name(); got != c.name {
			t.Errorf("agentsCommands lists %q, whose command is named %q", c.name, got)
		}
	}
	var cases [][]string
	walkCommands(whole, func(c *cobra.Command) {
		path := strings.Fields(c.CommandPath())[1:]
		cases = append(cases, path, append(slices.Clone(path), "--help"), append([]string{"-C", "config", "--json"}, path...))
	})
	cases = append(cases, nil, []string{"--version"}, []string{"-H", "--version"}, []string{"config", "agents", "lst"},
		[]string{"help", "export"}, []string{"config", "agents", "check", "worker", "shell(ls)"}, []string{"session"})
	for _, args := range cases {
		wantCmd, wantArgs, wantErr := whole.Find(args)
		gotCmd, gotArgs, gotErr := cmdRootFor(f, args).Find(args)
		if (wantErr == nil) != (gotErr == nil) || !slices.Equal(wantArgs, gotArgs) {
			t.Errorf("%q: found %v %q in the tree Run builds, %v %q in the whole tree", args, gotErr, gotArgs, wantErr, wantArgs)
			continue
		}
		if wantErr != nil {
			continue
		}
		if got, want := gotCmd.CommandPath(), wantCmd.CommandPath(); got != want {
			t.Errorf("%q: the tree Run builds finds %q, the whole tree %q", args, got, want)
		}
		if got, want := gotCmd.UsageString()+gotCmd.Long+gotCmd.Example, wantCmd.UsageString()+wantCmd.Long+wantCmd.Example; got != want {
			t.Errorf("%q: help differs from the whole tree's:\n%s\nwant:\n%s", args, got, want)
		}
	}
	if len(agents.Commands()) != len(agentsCommands) {
		t.Errorf("bn config agents has %d commands, agentsCommands lists %d", len(agents.Commands()), len(agentsCommands))
	}
}
