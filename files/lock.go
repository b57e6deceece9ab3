package files

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// LockWait is how long a bn command waits for another one writing the same
// place before it gives up.
const LockWait = 30 * time.Second

// Lock serialises bn's writes to one place (a repository, a layer
// directory): it holds an operating-system lock on a file in lockDir
// named after place, waiting at most wait for another bn to finish. The
// lock lives outside place so that locking leaves nothing in a
// repository, and the system drops it when a process dies, so a killed
// bn never leaves a stale lock. Call the returned function to unlock.
func Lock(lockDir, place string, wait time.Duration) (func(), error) {
	abs, err := filepath.Abs(place)
	if err != nil {
		return nil, err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		abs = real // one place reached by two paths takes one lock
	}
	if lockDir == "" {
		if lockDir, err = os.UserCacheDir(); err != nil {
			return nil, fmt.Errorf("no directory for bn's locks: set XDG_CACHE_HOME or BN_CACHE_DIR (%w)", err)
		}
		lockDir = filepath.Join(lockDir, "bn")
	}
	dir := filepath.Join(lockDir, "locks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("cannot create bn's lock directory: %w", err)
	}
	sum := sha256.Sum256([]byte(abs))
	path := filepath.Join(dir, hex.EncodeToString(sum[:12])+".lock")
	l := flock.New(path)
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	ok, err := l.TryLockContext(ctx, 10*time.Millisecond)
	switch {
	case ok:
		return func() { _ = l.Unlock() }, nil
	case err == nil || errors.Is(err, context.DeadlineExceeded):
		return nil, fmt.Errorf("another bn is writing to %s and did not finish within %s (lock %s); try again when it is done", place, wait, path)
	}
	return nil, fmt.Errorf("cannot lock %s (lock %s): %w", place, path, err)
}
