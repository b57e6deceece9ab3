// Package resolvertest helps tests of what reads layers: a config.kdl
// rewritten under them, as an editor or a script rewrites it.
package resolvertest

import (
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Ways a rewrite goes: the file removed and made again (Remove), or
// truncated and written again in place (Truncate).
const (
	Remove   = "remove"
	Truncate = "truncate"
)

// Rewriter rewrites one file over and over until stopped.
type Rewriter struct {
	done    atomic.Bool
	wg      sync.WaitGroup
	longest time.Duration // the longest the file was gone, Remove only
	written time.Time     // when the file was last written, Remove only
}

// Rewrite writes content to path over and over, the way how says, until
// Stop is called: for a fifth of a second at a time, then not for longer
// than a reader waits for a layer to settle, so that readers meet both.
// Pace spaces the reads of a test to meet both.
func Rewrite(path string, content []byte, how string) *Rewriter {
	r := &Rewriter{}
	r.wg.Go(func() {
		for start := time.Now(); !r.done.Load(); {
			if time.Since(start) > 200*time.Millisecond {
				if how == Remove {
					r.keep(path, content, 600*time.Millisecond)
				} else {
					time.Sleep(600 * time.Millisecond)
				}
				start = time.Now()
			}
			if how == Remove {
				gone := time.Now()
				os.Remove(path)
				time.Sleep(100 * time.Microsecond) // as an editor takes its time
				r.write(path, content, gone)
				continue
			}
			if f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0o644); err == nil {
				f.Write(content)
				f.Close()
			}
		}
	})
	return r
}

// write writes the new copy of a file removed at gone until it lands. On
// Windows a file a reader holds open is only marked for deletion: writing
// it fails until the reader closes it, and then it is gone.
func (r *Rewriter) write(path string, content []byte, gone time.Time) {
	for os.WriteFile(path, content, 0o644) != nil && !r.done.Load() {
		time.Sleep(100 * time.Microsecond)
	}
	r.longest = max(r.longest, time.Since(gone))
	r.written = time.Now()
}

// keep pauses the rewrites for d, writing the file again if it goes: under
// Wine, a file removed while a reader held it open is deleted when the
// reader closes it, new copy and all, so a pause would leave it gone for
// longer than a reader waits. It counts as gone since it was last written.
func (r *Rewriter) keep(path string, content []byte, d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end) && !r.done.Load(); time.Sleep(2 * time.Millisecond) {
		if _, err := os.Lstat(path); err != nil {
			r.write(path, content, r.written)
		}
	}
}

// Stop ends the rewrites and says the longest a removed file stayed gone
// before its new copy was written. On a machine so loaded that the
// rewriter stalls between the two for as long as a reader waits for a
// layer to settle, the file was removed, as far as any reader can tell:
// a test then has nothing to judge, and tries again.
func (r *Rewriter) Stop() (longestGone time.Duration) {
	r.done.Store(true)
	r.wg.Wait()
	return r.longest
}

// Pace is the time between two reads of a test under Rewrite.
const Pace = 25 * time.Millisecond

// Judge runs attempt, which reads under a Rewriter, stops it and says how
// many reads answered wider than the file allows and the longest the file
// stayed gone, until an attempt has no stall of quiet or longer to excuse
// a wider answer, and returns that attempt's count. When every attempt
// stalls, the machine is too loaded to judge and the test is skipped.
func Judge(t testing.TB, quiet time.Duration, attempt func() (widened int, longestGone time.Duration)) int {
	t.Helper()
	const attempts = 4
	for range attempts {
		widened, gone := attempt()
		if widened == 0 || gone < quiet {
			return widened
		}
		t.Logf("the rewriter stalled %v between a removal and the new copy, which any reader takes for a removal (%d reads answered without the file); trying again", gone, widened)
	}
	t.Skipf("the rewriter stalled for %v or longer in each of %d attempts: too loaded a machine to judge", quiet, attempts)
	return 0
}
