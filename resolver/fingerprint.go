package resolver

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/binnacle-dev/bn/files"
	"github.com/binnacle-dev/bn/team"
)

// Fingerprint identifies, cheaply, what the layers of a scope hold that
// decides agents' tools, without decoding them: the built-in config.kdl;
// each layer directory's place and identity, its config.kdl and lock file
// by content, and its markdown files by name, size, identity and change
// time (a layer read only for its policy: config.kdl and the lock alone).
// Two equal fingerprints mean the same definitions. Settled is false
// while a file changed less than settleTime ago: a second change within
// the same clock tick would leave the same fingerprint, so one that has
// not settled is not to be remembered.
func (p Paths) Fingerprint(scope Scope) (fingerprint string, settled bool) {
	h := sha256.New()
	settled = true
	now := time.Now()
	stat := func(fi fs.FileInfo) {
		if now.Sub(files.ChangeTime(fi)) < settleTime {
			settled = false
		}
	}
	for _, l := range p.Layers(scope) {
		h.Write([]byte(string(l.Name) + "\x00" + l.Dir + "\x00" + strconv.FormatBool(l.PolicyOnly) + "\x00"))
		if l.fsys != nil {
			b, _ := fs.ReadFile(l.fsys, configFile)
			h.Write(b)
			continue
		}
		fi, err := os.Stat(l.Dir)
		if err != nil {
			h.Write([]byte("absent\x00"))
			continue
		}
		stat(fi)
		h.Write([]byte(files.Identity(fi) + "\x00"))
		entries, err := os.ReadDir(l.Dir)
		if err != nil {
			h.Write([]byte("unreadable\x00"))
			continue
		}
		for _, e := range entries {
			name := e.Name()
			content := name == configFile || name == team.LockFile
			if !content && (l.PolicyOnly || !strings.HasSuffix(name, ".md")) {
				continue
			}
			h.Write([]byte(name + "\x00"))
			path := filepath.Join(l.Dir, name)
			fi, err := os.Stat(path)
			if err != nil {
				h.Write([]byte("unreadable\x00"))
				continue
			}
			stat(fi)
			if content {
				b, err := files.Read(path, files.MaxConfigFile)
				if err != nil {
					h.Write([]byte("unreadable\x00"))
				}
				h.Write(b)
				h.Write([]byte{0})
				continue
			}
			h.Write([]byte(strconv.FormatInt(fi.Size(), 10) + " " + files.Identity(fi) + " " + files.ChangeStamp(fi) + "\x00"))
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:16]), settled
}
