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
// the returned stop is called. Every twentieth time it pauses long enough
// for a reader to find the file whole and settled.
func Rewrite(path string, content []byte, how string) (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := 0; !done.Load(); i++ {
			if i%20 == 19 {
				time.Sleep(60 * time.Millisecond)
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
