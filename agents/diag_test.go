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
