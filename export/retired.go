package export

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"

	"github.com/binnacle-dev/bn/files"
)

// retiredBinnacleAgents are the Copilot agents binnacle's session init
// wrote before its PRD retired them (plan and tasks; do, prd, buddy and
// ask replace them), with the SHA-256 of each text binnacle wrote. Copilot
// still offers a retired file in chat, and its prompt runs commands
// binnacle no longer has, so session init removes one it can tell is
// binnacle's, byte for byte, and names any other.
var retiredBinnacleAgents = []struct {
	rel  string
	sums []string
}{
	{".github/agents/binnacle-plan.agent.md", []string{"e02136add491c0a4e3aba87e663317a41664fc6bbff345fd8d50ce4633bfe3ea"}},
	{".github/agents/binnacle-tasks.agent.md", []string{
		"f62e1101db2571f69bfb0498d5903d549d859aa65d8326f36c432b3bede6ef41",
		// binnacle's own repository committed this later text of it.
		"b78df65f8af32ddf6a23a9b6f0cd45d540f4a3db21b273a9cb305925fb480220",
	}},
}

// RetiredFile is a retired binnacle agent file found in a repository.
type RetiredFile struct {
	Path string
	// Own: the file is byte for byte one binnacle wrote,
	// so removing it loses nothing.
	Own bool
}

// RetiredBinnacleFiles finds the retired binnacle agent files in the
// repository at root.
func RetiredBinnacleFiles(root string) ([]RetiredFile, error) {
	var out []RetiredFile
	for _, r := range retiredBinnacleAgents {
		path := filepath.Join(root, filepath.FromSlash(r.rel))
		data, err := files.Read(path, files.MaxAgentFile)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case err != nil:
			return nil, fmt.Errorf("%s %w", path, err)
		}
		sum := sha256.Sum256(data)
		out = append(out, RetiredFile{Path: path, Own: slices.Contains(r.sums, hex.EncodeToString(sum[:]))})
	}
	return out, nil
}
