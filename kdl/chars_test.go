package kdl

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// checkTextRuneByRune is checkText written plainly, one rune at a time.
func checkTextRuneByRune(s string) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || isDisallowed(r) && !(r == 0xFEFF && i == 0) {
			return i
		}
		i += size
	}
	return -1
}

// TestCheckTextFindsTheFirstBadByte puts every byte value, and the
// non-ASCII code points KDL treats specially, at offsets 0 to 18, alone
// and before a second bad character: checkText, which decides ASCII by
// table, finds what decoding rune by rune finds.
func TestCheckTextFindsTheFirstBadByte(t *testing.T) {
	var insert []string
	for c := range 256 {
		insert = append(insert, string([]byte{byte(c)}))
	}
	insert = append(insert, "\u00a0", "\u0085", "\u200e", "\u2028", "\u202a", "\u2066", "\ufeff", "\U0001F600", "\xe2\x80", "\xed\xa0\x80")
	for _, ins := range insert {
		for at := range 19 {
			for _, after := range []string{"", "\x01", "\x7f", "\xff", "\n"} {
				s := strings.Repeat("a", at) + ins + strings.Repeat("b", 3) + after + strings.Repeat("c", 9)
				got, _ := checkText(s)
				if want := checkTextRuneByRune(s); got != want {
					t.Fatalf("checkText(%q) = %d, want %d", s, got, want)
				}
			}
		}
	}
}

// TestPlain8 puts every byte value in each of eight places among
// printable ones: plain8 passes it only where the byte-by-byte check
// would.
func TestPlain8(t *testing.T) {
	for at := range 8 {
		for c := range 256 {
			b := []byte("abcdefgh")
			b[at] = byte(c)
			want := c < utf8.RuneSelf && ascii[c]&cBad == 0
			if got := plain8(string(b)); got != want {
				t.Errorf("plain8(%q) = %v, want %v", b, got, want)
			}
		}
	}
}

// TestQuotedStops holds quoted's table to the classes: its fast path
// stops at the closing quote, an escape, and any byte a newline can start
// with.
func TestQuotedStops(t *testing.T) {
	for c := range 256 {
		want := uint8(0)
		switch {
		case c == '"':
			want = endsQuoted
		case c == '\\' || c < utf8.RuneSelf && ascii[c]&cNewline != 0 || c == 0xC2 || c == 0xE2:
			want = slowQuoted
		}
		if got := quotedStops[c]; got != want {
			t.Errorf("quotedStops[%#x] = %d, want %d", c, got, want)
		}
	}
	for _, r := range []rune{0x85, 0x2028, 0x2029} {
		if first := string(r)[0]; quotedStops[first] != slowQuoted {
			t.Errorf("U+%04X starts with %#x, which quoted's fast path passes", r, first)
		}
	}
}
