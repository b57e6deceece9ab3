package termsafe

import (
	"fmt"
	"io"
	"unicode/utf8"
)

// Writer writes to W what is written to it, with every control character
// but tab, line feed and a carriage return before a line feed (C0, DEL,
// C1) and every byte that is not UTF-8 spelled out as \x1b or \u009b, while
// On says so (people read the output); otherwise it passes bytes through.
// Each control character is judged alone, so a sequence cut across two
// writes is escaped all the same.
type Writer struct {
	W  io.Writer
	On func() bool
}

// Unwrap returns the writer underneath, for a child process that writes
// to the terminal itself.
func (w *Writer) Unwrap() io.Writer { return w.W }

func (w *Writer) Write(p []byte) (int, error) {
	if w.On != nil && !w.On() {
		return w.W.Write(p)
	}
	if _, err := w.W.Write(Escape(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Escape returns p with its control characters and invalid bytes spelled
// out (see Writer); p itself when it has none.
func Escape(p []byte) []byte {
	var out []byte
	for i := 0; i < len(p); {
		r, size := utf8.DecodeRune(p[i:])
		var esc string
		switch {
		case r == utf8.RuneError && size == 1:
			esc = fmt.Sprintf(`\x%02x`, p[i])
		case r == '\t' || r == '\n' || r == '\r' && i+1 < len(p) && p[i+1] == '\n':
		case r < 0x20 || r == 0x7f:
			esc = fmt.Sprintf(`\x%02x`, r)
		case r >= 0x80 && r <= 0x9f:
			esc = fmt.Sprintf(`\u%04x`, r)
		}
		if esc != "" && out == nil {
			out = append(make([]byte, 0, len(p)+8), p[:i]...)
		}
		switch {
		case esc != "":
			out = append(out, esc...)
		case out != nil:
			out = append(out, p[i:i+size]...)
		}
		i += size
	}
	if out == nil {
		return p
	}
	return out
}
