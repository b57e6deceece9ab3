package emit

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"strings"

	"github.com/binnacle-dev/bn/files"
)

// companionMark starts the line, after an agent file's marker line, that
// records the digest of the agent's companion file: the companion carries
// no marker of its own, as its tool reads it whole, so the agent file bn
// wrote (and sealed, this line included) says the companion is bn's.
const companionMark = "# and its companion file, bn:"

// WithCompanion records companion's digest in content, an agent file whose
// marker is a comment line (Marker's), on the line after it, to be sealed
// with the rest. Content without such a marker is returned as it is.
func WithCompanion(content, companion []byte) []byte {
	_, end, ok := markerLine(content)
	if !ok || bytes.HasPrefix(content, []byte("{")) {
		return content
	}
	nl := bytes.IndexByte(content[end:], '\n')
	if nl < 0 {
		return content
	}
	at := end + nl + 1
	line := companionMark + companionDigest(companion) + "\n"
	return append(content[:at:at], append([]byte(line), content[at:]...)...)
}

// recordedCompanion is the companion digest content records, if any.
func recordedCompanion(content []byte) (string, bool) {
	_, end, ok := markerLine(content)
	if !ok {
		return "", false
	}
	_, rest, _ := bytes.Cut(content[end:], []byte("\n"))
	line, _, _ := bytes.Cut(rest, []byte("\n"))
	d, ok := bytes.CutPrefix(bytes.TrimSuffix(line, []byte("\r")), []byte(companionMark))
	return string(d), ok && len(d) == 12
}

// companionDigest is the first 12 hex digits of the SHA-256 of a
// companion file, line endings counted as \n.
func companionDigest(content []byte) string {
	h := sha256.New()
	writeLF(h, content)
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// CompanionRecords reads the agent files bn wrote under dir (names ending
// in ext, regular files) that record a companion's digest
// (WithCompanion): the companion's path, which companion gives for an
// agent file's, to the digest recorded. A file bn did not write, or
// edited by hand since, records nothing: its companion is not bn's to
// replace. deep and wants say where it looks, as for PlanFiles.
func CompanionRecords(dir, ext string, deep bool, wants []Want, companion func(agentFile string) string) (map[string]string, error) {
	out := map[string]string{}
	var buf []byte
	err := eachFile(dir, deep, wants, func(path string, d fs.DirEntry) {
		if !strings.HasSuffix(d.Name(), ext) || !d.Type().IsRegular() {
			return
		}
		data, err := files.ReadInto(path, buf, files.MaxAgentFile)
		buf = data
		if err != nil || HandEdited(data) {
			return
		}
		if digest, ok := recordedCompanion(data); ok {
			out[companion(path)] = digest
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
