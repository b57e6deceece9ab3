package agents

import (
	"fmt"
	"strings"
)

// Severity orders diagnostics: errors fail commands, warnings fail only
// `validate --strict`.
type Severity int

const (
	Warning Severity = iota
	Error
)

func (s Severity) String() string {
	if s == Error {
		return "error"
	}
	return "warning"
}

// Pos is a place in a file. Line and Col are 1-based; zero means unknown.
type Pos struct {
	File string
	// 32 bits are plenty (a layer file is at most a few megabytes), and a
	// large file holds many positions.
	Line int32
	Col  int32
}

func (p Pos) String() string {
	switch {
	case p.File == "":
		return ""
	case p.Line == 0:
		return p.File
	case p.Col == 0:
		return fmt.Sprintf("%s:%d", p.File, p.Line)
	default:
		return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
	}
}

// Diagnostic is one problem found in a layer file.
type Diagnostic struct {
	Severity Severity
	Pos      Pos
	Agent    string // empty when the problem is not about one agent
	Field    string // the node or frontmatter key, when there is one
	Message  string
	Hint     string // how to fix it; may be empty
	// Cause is the error Message was taken from, when one was, so that
	// errors.As finds it (a *LimitError) through the diagnostics.
	Cause error
}

func (d Diagnostic) Unwrap() error { return d.Cause }

// maxQuoted bounds what a diagnostic quotes of a field's name and of its
// message: a node named with 400 KB of text is reported in 2 KiB, not
// twice over in full.
const maxQuoted = 1 << 10

func (d Diagnostic) Error() string {
	var b strings.Builder
	if s := d.Pos.String(); s != "" {
		b.WriteString(s)
		b.WriteString(": ")
	}
	if d.Agent != "" {
		fmt.Fprintf(&b, "agent %q: ", d.Agent)
	}
	if d.Field != "" {
		fmt.Fprintf(&b, "%s: ", Brief(d.Field, maxQuoted))
	}
	b.WriteString(Brief(d.Message, maxQuoted))
	if d.Hint != "" {
		b.WriteString(" (")
		b.WriteString(d.Hint)
		b.WriteString(")")
	}
	return b.String()
}

// Diagnostics is a list of problems, in the order they were found.
type Diagnostics []Diagnostic

// HasErrors reports whether any diagnostic is an error.
func (ds Diagnostics) HasErrors() bool {
	for _, d := range ds {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Errors returns only the error-level diagnostics.
func (ds Diagnostics) Errors() Diagnostics {
	var out Diagnostics
	for _, d := range ds {
		if d.Severity == Error {
			out = append(out, d)
		}
	}
	return out
}

// Err joins the error-level diagnostics into one error, or returns nil.
func (ds Diagnostics) Err() error {
	errs := ds.Errors()
	switch len(errs) {
	case 0:
		return nil
	case 1:
		return errs[0]
	}
	return errs
}

func (ds Diagnostics) Unwrap() []error {
	out := make([]error, len(ds))
	for i, d := range ds {
		out[i] = d
	}
	return out
}

func (ds Diagnostics) Error() string {
	msgs := make([]string, len(ds))
	for i, d := range ds {
		msgs[i] = d.Error()
	}
	return strings.Join(msgs, "\n")
}
