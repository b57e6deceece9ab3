package agents

import (
	"strings"
	"testing"
)

func TestFingerprint(t *testing.T) {
	fp := Fingerprint("critic", "copilot", "tools", "widened", `"read", written for read, also grants list and lsp`)
	if err := CheckFingerprint(fp, []string{"copilot"}); err != nil {
		t.Fatalf("%s: %v", fp, err)
	}
	for _, other := range []string{
		Fingerprint("critic2", "copilot", "tools", "widened", `"read", written for read, also grants list and lsp`),
		Fingerprint("critic", "copilot", "tools", "dropped", `"read", written for read, also grants list and lsp`),
		Fingerprint("critic", "copilot", "tools", "widened", `"read", written for read, also grants list`),
	} {
		if other == fp {
			t.Errorf("%s: another difference has the same fingerprint", fp)
		}
	}
	if FingerprintTarget(fp) != "copilot" || !strings.HasPrefix(fp, "copilot:tools:") {
		t.Errorf("%s: want copilot:tools:HASH", fp)
	}
}

func TestCheckFingerprint(t *testing.T) {
	tools := []string{"claude", "copilot"}
	for _, tc := range []struct{ fp, err string }{
		{"copilot:tools:8482a385", ""},
		{"claude:claude.unread:0fa1b443", ""},
		{"copilt:tools:8482a385", `names no tool "copilt": use one of claude, copilot (did you mean "copilot"?)`},
		{"8482a385", "is not a fingerprint"},
		{"copilot::8482a385", "is not a fingerprint"},
		{"copilot:tools:8482A385", "is not 8 lower-case hex digits"},
		{"copilot:tools:8482a38", "is not 8 lower-case hex digits"},
		{"copilot:tools:8482a38z", "is not 8 lower-case hex digits"},
	} {
		err := CheckFingerprint(tc.fp, tools)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.fp, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: got %v, want %q", tc.fp, err, tc.err)
		}
	}
}
