package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/binnacle-dev/bn/config"
	"github.com/binnacle-dev/bn/dialect"
	"github.com/binnacle-dev/bn/resolver"
)

// IOStreams is the one place commands read and write, so tests can capture
// everything.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
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

	// Global flags.
	Human bool
	Repo  string

	paths *resolver.Paths
	sets  map[resolver.Scope]*resolver.Set
}

// Registry is every tool bn knows.
func (f *Factory) Registry() dialect.Registry { return dialect.All() }

// Decoder reads layer files, with every tool's section.
func (f *Factory) Decoder() config.Decoder { return config.Decoder{Sections: f.Registry()} }

// Paths discovers the layer directories once.
func (f *Factory) Paths() (resolver.Paths, error) {
	if f.paths == nil {
		p, err := resolver.DiscoverPaths(resolver.PathInputs{
			Getenv: f.Getenv, Cwd: f.Cwd, RepoFlag: f.Repo, ConfigHome: f.ConfigHome, DataHome: f.DataHome,
			CacheHome: f.CacheHome,
		})
		if err != nil {
			return resolver.Paths{}, err
		}
		f.paths = &p
	}
	return *f.paths, nil
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
	s := resolver.Load(p.Layers(scope), dec)
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
	dec := f.Decoder()
	dec.Defer = true
	set, err := f.judged(f.loadAgents(resolver.AllLayers, dec))
	if err != nil {
		return nil, err
	}
	return set.Lookup(name)
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

// writeJSON prints v as 2-space indented JSON, as binnacle does. The
// compact JSON goes straight through an indenter, as encoding/json's own
// indenting costs more than the encoding. (list writes its own JSON, as
// it resolves the agents: views.WriteListJSON.)
func writeJSON(w io.Writer, v any) error {
	bw := bufio.NewWriterSize(w, 16<<10)
	enc := json.NewEncoder(&jsonIndenter{w: bw})
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	return bw.Flush()
}

// jsonIndenter turns the compact JSON written to it into what
// json.Indent(dst, src, "", "  ") gives, in any number of writes.
type jsonIndenter struct {
	w        *bufio.Writer
	depth    int
	inString bool
	escaped  bool // the last byte in a string was a backslash
	opened   bool // '{' or '[' was written: a newline is due unless it closes at once
}

func (in *jsonIndenter) newline() {
	in.w.WriteByte('\n')
	for range in.depth {
		in.w.WriteString("  ")
	}
}

func (in *jsonIndenter) Write(p []byte) (int, error) {
	for i := 0; i < len(p); i++ {
		c := p[i]
		if in.inString {
			// Copy the run up to the closing quote in one write.
			j := i
			for ; j < len(p); j++ {
				if in.escaped {
					in.escaped = false
				} else if p[j] == '\\' {
					in.escaped = true
				} else if p[j] == '"' {
					in.inString = false
					break
				}
			}
			in.w.Write(p[i:min(j+1, len(p))])
			i = j
			continue
		}
		if in.opened {
			in.opened = false
			if c == '}' || c == ']' {
				in.w.WriteByte(c)
				continue
			}
			in.depth++
			in.newline()
		}
		switch c {
		case '"':
			in.inString = true
			in.w.WriteByte(c)
		case '{', '[':
			in.w.WriteByte(c)
			in.opened = true
		case '}', ']':
			in.depth--
			in.newline()
			in.w.WriteByte(c)
		case ',':
			in.w.WriteByte(c)
			in.newline()
		case ':':
			in.w.WriteString(": ")
		default:
			in.w.WriteByte(c)
		}
	}
	return len(p), nil
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
