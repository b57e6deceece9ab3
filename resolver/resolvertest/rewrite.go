// Package resolvertest helps tests of what reads layers: a config.kdl
// rewritten under them, as an editor or a script rewrites it.
package resolvertest

import (
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// Ways a rewrite goes: the file removed and made again (Remove), or
// truncated and written again in place (Truncate).
const (
	Remove   = "remove"
	Truncate = "truncate"
)

// Rewrite writes content to path over and over, the way how says, until
// the returned stop is called: for a fifth of a second at a time, then
// not for longer than a reader waits for a layer to settle, so that
// readers meet both. Pace spaces the reads of a test to meet both.
func Rewrite(path string, content []byte, how string) (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for start := time.Now(); !done.Load(); {
			if time.Since(start) > 200*time.Millisecond {
				time.Sleep(600 * time.Millisecond)
				start = time.Now()
			}
			if how == Remove {
				os.Remove(path)
				time.Sleep(100 * time.Microsecond) // as an editor takes its time
				os.WriteFile(path, content, 0o644)
				continue
			}
			if f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0o644); err == nil {
				f.Write(content)
				f.Close()
			}
		}
	})
	return func() { done.Store(true); wg.Wait() }
}

// Pace is the time between two reads of a test under Rewrite.
const Pace = 25 * time.Millisecond
