package agents

import (
	"strings"
	"testing"
)

func TestFailListsAtMostmaxFileProblems(t *testing.T) {
	var f File
	for i := range 3 * maxFileProblems {
		f.Fail(Pos{File: "config.kdl", Line: int32(i + 1)}, "n", "unknown top-level node", "")
	}
	if len(f.Diags) != maxFileProblems+1 {
		t.Fatalf("%d diagnostics, want %d", len(f.Diags), maxFileProblems+1)
	}
	last := f.Diags[maxFileProblems]
	if last.Pos.Line != maxFileProblems+1 || last.Field != "" || !strings.Contains(last.Message, "more than 100 problems") {
		t.Errorf("last diagnostic %v: want the one saying the rest are not listed", last)
	}
	if !f.Diags.HasErrors() {
		t.Error("the file must fail")
	}
}

// An agent's own problems are bounded as a file's are, and the last line
// counts the rest: an error if any of them is one.
func TestSpecListsAtMostmaxFileProblems(t *testing.T) {
	tests := []struct {
		name     string
		last     Severity
		wantLast Severity
	}{
		{"warnings only", Warning, Warning},
		{"an error past the bound", Error, Error},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := Spec{Name: "a", Pos: Pos{File: "config.kdl", Line: 1}}
			for i := range 3*maxFileProblems - 1 {
				s.AddDiag(Warning, Pos{File: "config.kdl", Line: int32(i + 2)}, "n", "unknown field", "")
			}
			s.AddDiag(tt.last, Pos{File: "config.kdl", Line: 1}, "n", "unknown field", "")
			if len(s.Diags) != maxFileProblems+1 {
				t.Fatalf("%d diagnostics, want %d", len(s.Diags), maxFileProblems+1)
			}
			last := s.Diags[maxFileProblems]
			if last.Pos != s.Pos || last.Agent != "a" || last.Message != "200 more problems in this agent; bn lists the first 100" || last.Severity != tt.wantLast {
				t.Errorf("last diagnostic %+v: want the one counting the rest, %v", last, tt.wantLast)
			}
		})
	}
}
