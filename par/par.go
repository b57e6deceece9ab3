package par

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Do calls work(0..n-1) on up to one goroutine per core, giving each at
// least perWorker items so small jobs stay on the calling goroutine. work
// must be safe to call concurrently for different indexes.
func Do(n, perWorker int, work func(int)) {
	workers := min(runtime.GOMAXPROCS(0), (n+perWorker-1)/max(perWorker, 1))
	if workers <= 1 {
		for i := 0; i < n; i++ {
			work(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				work(i)
			}
		})
	}
	wg.Wait()
}
