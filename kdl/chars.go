package kdl

import (
	"unicode/utf8"
)

// Character classes of the KDL 2.0 specification (sections 3.10, 3.17,
// 3.18, 3.19). ASCII is decided by table; the few non-ASCII members of
// each class are listed.

const (
	cSpace   = 1 << iota // unicode-space
	cNewline             // a newline character
	cIdent               // may appear in an identifier string
	cBad                 // a disallowed literal code point
)

var ascii = func() (t [128]uint8) {
	for c := 0; c < 128; c++ {
		switch {
		case c == '\t' || c == ' ':
			t[c] = cSpace
		case c == '\n' || c == '\r' || c == 0x0B || c == 0x0C:
			t[c] = cNewline
		case c < 0x20 || c == 0x7F:
			t[c] = cBad
		default:
			t[c] = cIdent
		}
	}
	for _, c := range `\/(){};[]"#=` {
		t[c] = 0
	}
	return t
}()

func isUnicodeSpace(r rune) bool {
	switch r {
	case '\t', ' ', 0x00A0, 0x1680, 0x202F, 0x205F, 0x3000:
		return true
	}
	return r >= 0x2000 && r <= 0x200A
}

func isNewlineRune(r rune) bool {
	switch r {
	case '\n', '\r', 0x0B, 0x0C, 0x0085, 0x2028, 0x2029:
		return true
	}
	return false
}

func isDisallowed(r rune) bool {
	return r <= 0x08 || (r >= 0x0E && r <= 0x1F) || r == 0x7F || (r >= 0xD800 && r <= 0xDFFF) ||
		r == 0x200E || r == 0x200F || (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0xFEFF
}

func isIdentRune(r rune) bool {
	if r < utf8.RuneSelf {
		return ascii[r]&cIdent != 0
	}
	return !isUnicodeSpace(r) && !isNewlineRune(r) && !isDisallowed(r)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// checkText finds the first byte offset that is not valid UTF-8 or is a
// disallowed literal code point (a BOM is allowed only at offset 0).
// It returns -1 when the text is clean.
func checkText(s string) (int, string) {
	for i := 0; i < len(s); {
		// Eight bytes at a time while none of them needs a look: every
		// command checks each layer file whole before it parses it.
		for i+8 <= len(s) && plain8(s[i:i+8]) {
			i += 8
		}
		if i == len(s) {
			break
		}
		c := s[i]
		if c < utf8.RuneSelf {
			if ascii[c]&cBad != 0 {
				return i, describeBad(rune(c))
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			return i, "the file is not valid UTF-8 here"
		}
		if isDisallowed(r) && !(r == 0xFEFF && i == 0) {
			return i, describeBad(r)
		}
		i += size
	}
	return -1, ""
}

// plain8 says whether eight bytes are each ASCII and allowed (printable,
// a tab or a newline character), which checkText passes without a look.
func plain8(s string) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	_ = s[7] // one bounds check for the eight bytes
	w := uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
	// With each byte's high bit set first, subtracting n from every byte
	// borrows from none, and leaves the high bit set where the byte is at
	// least n.
	atLeast := func(n uint64) uint64 { return ((w | highs) - n*ones) & highs }
	control := highs &^ atLeast(0x20) &^ (atLeast(0x09) &^ atLeast(0x0E)) // under 0x20, not tab to CR
	return (w&highs | control | atLeast(0x7F)) == 0
}

func describeBad(r rune) string {
	switch {
	case r == 0xFEFF:
		return "a byte order mark (U+FEFF) may appear only at the very start of a file"
	case r == 0x7F || r < 0x20:
		return "control character U+" + hex4(r) + " is not allowed in KDL; write it as an escape inside a quoted string"
	}
	return "invisible direction-control character U+" + hex4(r) + " is not allowed in KDL"
}

func hex4(r rune) string {
	const digits = "0123456789ABCDEF"
	b := []byte{digits[r>>12&0xF], digits[r>>8&0xF], digits[r>>4&0xF], digits[r&0xF]}
	return string(b)
}
