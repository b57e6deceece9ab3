package team

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/binnacle-dev/bn/emit"
	"github.com/binnacle-dev/bn/files"
)

// Hashing every file of a source on every command would cost more than
// reading the layer. So a verified tree gets a stamp beside it: the hash
// and each file's size, inode and change time. A command re-hashes only
// when the stamp does not describe the tree as it is now; any write to a
// file, and any touch of its times, changes its change time.

func stampPath(dir string) string { return filepath.Clean(dir) + ".verified" }

// fingerprint describes every entry under dir by stat alone.
func fingerprint(dir string) (string, error) {
	var b strings.Builder
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		fmt.Fprintf(&b, "%s %o %d %s\n", filepath.ToSlash(rel), fi.Mode(), fi.Size(), files.ChangeStamp(fi))
		return nil
	})
	return b.String(), err
}

// stamped says whether dir was verified as hash and is unchanged since.
func stamped(dir, hash string) bool {
	want, err := os.ReadFile(stampPath(dir))
	if err != nil {
		return false
	}
	fp, err := fingerprint(dir)
	return err == nil && string(want) == hash+"\n"+fp
}

// stamp records that dir holds the files of hash; failing to write it
// only costs a re-hash next time.
func stamp(dir, hash string) {
	fp, err := fingerprint(dir)
	if err == nil {
		_, _ = emit.WriteFileAtomic(stampPath(dir), []byte(hash+"\n"+fp), 0o644)
	}
}
