package team

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"github.com/binnacle-dev/bn/files"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestFetchWaitsForAnother: while another bn holds the cache's lock, a
// fetch waits for it, then stops naming the place and the lock, writing
// nothing; once it is released, the fetch runs.
func TestFetchWaitsForAnother(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("fetch needs git:", err)
	}
	cache := t.TempDir()
	sources := filepath.Join(cache, "sources")
	unlock, err := lockCache(cache, files.LockWait) // the other bn
	require.NoError(t, err)
	_, err = Fetch(FetchOptions{CacheDir: cache, LockWait: 10 * time.Millisecond})
	require.Error(t, err)
	assert.Regexp(t, `^another bn is writing to `+regexp.QuoteMeta(sources)+` and did not finish within 10ms \(lock .*\.lock\); try again when it is done$`, err.Error())
	unlock()
	_, err = Fetch(FetchOptions{CacheDir: cache})
	require.NoError(t, err)
}
