package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/resolver"
	"github.com/binnacle-dev/bn/termsafe"
)

// IOStreams is the one place commands read and write, so tests can capture
// everything.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
}

// Raw returns stdout and stderr as they were before Run made them safe
// for terminals, for a child process of bn's that writes there itself.
func (s *IOStreams) Raw() (out, errOut io.Writer) {
	return unwrap(s.Out), unwrap(s.ErrOut)
}

func unwrap(w io.Writer) io.Writer {
	if t, ok := w.(*termsafe.Writer); ok {
		return t.Unwrap()
	}
	return w
}

// Factory carries what every command needs: streams, the environment, and
// the global flags. Layers are loaded at most once per scope per process.
type Factory struct {
	IO         *IOStreams
	Getenv     func(string) string
	Cwd        string
	ConfigHome string
	DataHome   string
	CacheHome  string
	Version    string

	// OutTerminal says stdout is a terminal: people read it, so text is
	// the default there (formatHuman).
	OutTerminal bool

	// Global flags. Human is decided by formatHuman, then -H or --json.
	Human bool
	Repo  string

	paths *resolver.Paths
	sets  map[resolver.Scope]*resolver.Set
}

// lock serialises bn's writes to place (a repository or a layer
// directory) with other bn processes; call the result to unlock.
func (f *Factory) lock(place string) (func(), error) {
	p, err := f.Paths()
	if err != nil {
		return nil, err
	}
	return files.Lock(p.CacheDir, place, files.LockWait)
}

// formatHuman decides whether bn prints text for people when neither -H
// nor --json says: BN_FORMAT (json or text), else JSON when an agent
// tool runs bn (its agents run commands in pseudo-terminals and parse
// what they print), else text on a terminal and JSON when piped, as gh
// does.
func (f *Factory) formatHuman() (bool, error) {
	switch v := f.Getenv("BN_FORMAT"); v {
	case "json":
		return false, nil
	case "text":
		return true, nil
	case "":
	default:
		return f.OutTerminal, usagef("BN_FORMAT=%q: use json or text%s, or unset it for text on a terminal and JSON when piped", v, suggest(v, []string{"json", "text"}))
	}
	if f.Registry().AgentHarness(f.Getenv) != "" {
		return false, nil
	}
	return f.OutTerminal, nil
}

// Registry is every tool bn knows.
func (f *Factory) Registry() dialect.Registry { return dialect.All() }

// Decoder reads layer files, with every tool's section.
func (f *Factory) Decoder() config.Decoder { return config.Decoder{Sections: f.Registry()} }

// Paths discovers the layer directories once.
func (f *Factory) Paths() (resolver.Paths, error) {
	if f.paths == nil {
		p, err := resolver.DiscoverPaths(f.pathInputs())
		if err != nil {
			return resolver.Paths{}, err
		}
		f.paths = &p
	}
	return *f.paths, nil
}

// pathInputs is what path discovery reads.
func (f *Factory) pathInputs() resolver.PathInputs {
	return resolver.PathInputs{
		Getenv: f.Getenv, Cwd: f.Cwd, RepoFlag: f.Repo, ConfigHome: f.ConfigHome, DataHome: f.DataHome,
		CacheHome: f.CacheHome,
	}
}

// LoadAgents loads the layers of a scope without judging them; validate
// uses it to report everything.
func (f *Factory) LoadAgents(scope resolver.Scope) (*resolver.Set, error) {
	return f.loadAgents(scope, f.Decoder())
}

// loadAgents loads the layers of a scope with dec, once per scope.
func (f *Factory) loadAgents(scope resolver.Scope, dec config.Decoder) (*resolver.Set, error) {
	if s, ok := f.sets[scope]; ok {
		return s, nil
	}
	p, err := f.Paths()
	if err != nil {
		return nil, err
	}
	s := p.Load(scope, dec)
	if f.sets == nil {
		f.sets = map[resolver.Scope]*resolver.Set{}
	}
	f.sets[scope] = s
	return s, nil
}

// Agents loads the layers of a scope and fails closed if any layer file
// could not be read or parsed.
func (f *Factory) Agents(scope resolver.Scope) (*resolver.Set, error) {
	return f.judged(f.LoadAgents(scope))
}

// judged fails closed when a layer file could not be read or parsed.
func (f *Factory) judged(s *resolver.Set, err error) (*resolver.Set, error) {
	if err != nil {
		return nil, err
	}
	if err := s.Fatal(); err != nil {
		return nil, resolver.LoadError{Err: err}
	}
	return s, nil
}

// Agent resolves one agent from every layer, failing closed. Only the
// nodes that agent needs are decoded; the files are still read and
// checked whole.
func (f *Factory) Agent(name string) (*resolver.Agent, error) {
	a, _, err := f.agentInSet(name)
	return a, err
}

// agentInSet is Agent, with the set it was resolved in (whose model
// catalog is built only when asked for).
func (f *Factory) agentInSet(name string) (*resolver.Agent, *resolver.Set, error) {
	dec := f.Decoder()
	dec.Defer = true
	set, err := f.judged(f.loadAgents(resolver.AllLayers, dec))
	if err != nil {
		return nil, nil, err
	}
	a, err := set.Lookup(name)
	if err != nil {
		return nil, nil, err
	}
	return a, set, nil
}

// AgentWithPrompt is Agent, with the agent's prompt read and assembled.
func (f *Factory) AgentWithPrompt(name string) (*resolver.Agent, string, error) {
	a, err := f.Agent(name)
	if err != nil {
		return nil, "", err
	}
	prompt, err := a.Prompt()
	return a, prompt, err
}

// writeJSON prints v as 2-space indented JSON, as binnacle does. (list
// writes its own JSON, as it resolves the agents: views.WriteListJSON.)
func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// usageError marks a mistake in how bn was called: exit status 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// exitError ends the command with a status and nothing more to print; the
// command has already reported what happened.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

// reportError prints err for the user's mode and returns the exit status.
func (f *Factory) reportError(err error) int {
	var ex exitError
	if errors.As(err, &ex) {
		return ex.code
	}
	code := 1
	var ue usageError
	if errors.As(err, &ue) {
		code = 2
	}
	if f.Human {
		fmt.Fprintf(f.IO.ErrOut, "Error: %s\n", err)
	} else {
		writeJSON(f.IO.ErrOut, map[string]string{"error": err.Error()})
	}
	return code
}
