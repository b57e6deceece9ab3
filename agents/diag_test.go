package agents

import (
	"strings"
	"testing"
)

func TestFailListsAtMostMaxFileProblems(t *testing.T) {
	var f File
	for i := range 3 * MaxFileProblems {
		f.Fail(Pos{File: "config.kdl", Line: int32(i + 1)}, "n", "unknown top-level node", "")
	}
	if len(f.Diags) != MaxFileProblems+1 {
		t.Fatalf("%d diagnostics, want %d", len(f.Diags), MaxFileProblems+1)
	}
	last := f.Diags[MaxFileProblems]
	if last.Pos.Line != MaxFileProblems+1 || last.Field != "" || !strings.Contains(last.Message, "more than 100 problems") {
		t.Errorf("last diagnostic %v: want the one saying the rest are not listed", last)
	}
	if !f.Diags.HasErrors() {
		t.Error("the file must fail")
	}
}
