package emit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"slices"
)

// sealMark starts the digest Seal puts at the end of the marker line.
const sealMark = " bn:"

// SealLen is how many bytes Seal adds: a render that leaves that much
// spare capacity is sealed in place.
const SealLen = len(sealMark) + 12

// Seal ends a generated file's marker line with a digest of the rest of
// the file, so that bn can tell later whether someone edited the file
// since it wrote it. Content without a marker is returned as it is. It
// seals in place when content has SealLen bytes to spare, so content is
// not to be used after it.
func Seal(content []byte) []byte {
	start, end, ok := markerLine(content)
	if !ok {
		return content
	}
	return slices.Insert(content, end, []byte(sealMark+digest(content, start, end))...)
}

// Sealed says whether content carries bn's marker line with a digest.
func Sealed(content []byte) bool {
	_, _, _, ok := seal(content)
	return ok
}

// HandEdited says whether a generated file was changed after bn wrote
// it: its marker's digest no longer matches the rest of the file. A file
// bn wrote before it sealed its files has no digest, and is not.
func HandEdited(content []byte) bool {
	start, end, at, ok := seal(content)
	if !ok {
		return false
	}
	sealedEnd := start + at // the marker line as it was before the digest
	rest := append(append([]byte{}, content[:sealedEnd]...), content[end:]...)
	s, e, _ := markerLine(rest)
	return string(content[sealedEnd+len(sealMark):sealedEnd+len(sealMark)+12]) != digest(rest, s, e)
}

// seal finds the marker line (start, end) and where in it the digest's
// mark is (at), when the line ends with a digest.
func seal(content []byte) (start, end, at int, ok bool) {
	start, end, ok = markerLine(content)
	if !ok {
		return 0, 0, 0, false
	}
	line := bytes.TrimSuffix(content[start:end], []byte("\r"))
	at = bytes.LastIndex(line, []byte(sealMark))
	return start, end, at, at >= 0 && len(line)-at-len(sealMark) == 12
}

// digest is the first 12 hex digits of the SHA-256 of the content without
// its marker line (content[start:end]), line endings counted as \n, so a
// checkout that turns them into \r\n is no edit.
func digest(content []byte, start, end int) string {
	h := sha256.New()
	writeLF(h, content[:start])
	writeLF(h, content[end:])
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// writeLF writes b with each \r\n as \n, without copying it.
func writeLF(w io.Writer, b []byte) {
	for {
		i := bytes.Index(b, []byte("\r\n"))
		if i < 0 {
			w.Write(b)
			return
		}
		w.Write(b[:i])
		b = b[i+1:] // from the \n
	}
}

// markerLine finds bn's marker line where bn writes it (see IsGenerated):
// its start and the index of its end (before the new line). In a JSON
// file it is the text of the "$comment" string, without its quotes.
func markerLine(content []byte) (start, end int, ok bool) {
	first, rest, _ := bytes.Cut(content, []byte("\n"))
	json := false
	switch string(bytes.TrimSuffix(first, []byte("\r"))) {
	case "---":
		start = len(first) + 1
		content = rest
	case "{":
		json = true
		start = len(first) + 1 + len(jsonMarkerKey) + 1 // the opening quote
		if !bytes.HasPrefix(rest, []byte(jsonMarkerKey+`"`)) {
			return 0, 0, false
		}
		content = rest[len(jsonMarkerKey)+1:]
	}
	line, _, _ := bytes.Cut(content, []byte("\n"))
	if !bytes.HasPrefix(line, []byte(markerStart)) {
		return 0, 0, false
	}
	line = bytes.TrimSuffix(line, []byte("\r"))
	if json {
		// The string ends the line, before its comma.
		if !bytes.HasSuffix(line, []byte(`",`)) {
			return 0, 0, false
		}
		line = line[:len(line)-2]
	}
	return start, start + len(line), true
}
