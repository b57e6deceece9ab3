package termsafe

import (
	"bytes"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain text", "Agent: reviewer\n\tReads code.\n", "Agent: reviewer\n\tReads code.\n"},
		{"unicode text", "café — 日本\n", "café — 日本\n"},
		{"crlf kept", "line\r\nnext", "line\r\nnext"},
		{"bare carriage return", "safe\rhidden", `safe\x0dhidden`},
		{"escape sequence", "\x1b]0;title\x07\x1b[2Jred", `\x1b]0;title\x07\x1b[2Jred`},
		{"nul and del", "a\x00b\x7f", `a\x00b\x7f`},
		{"c1 csi as a rune", "a\u009b31mb", `a\u009b31mb`},
		{"c1 csi as a bare byte", "a\x9b31mb", `a\x9b31mb`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(Escape([]byte(tc.in))); got != tc.want {
				t.Errorf("Escape(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestWriter(t *testing.T) {
	human := true
	var buf bytes.Buffer
	w := &Writer{W: &buf, On: func() bool { return human }}
	// A sequence cut across writes is escaped in each.
	for _, part := range []string{"x\x1b", "[31m\n"} {
		if n, err := w.Write([]byte(part)); err != nil || n != len(part) {
			t.Fatalf("Write(%q) = %d, %v", part, n, err)
		}
	}
	if got, want := buf.String(), `x\x1b[31m`+"\n"; got != want {
		t.Errorf("human output %q, want %q", got, want)
	}
	buf.Reset()
	human = false
	w.Write([]byte("{\"a\":\"\x1b\"}"))
	if got := buf.String(); got != "{\"a\":\"\x1b\"}" {
		t.Errorf("output for programs %q, want it unchanged", got)
	}
}
