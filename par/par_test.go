package par

import (
	"sync/atomic"
	"testing"
)

// TestDoCallsEachIndexOnce, for job sizes around the split points.
func TestDoCallsEachIndexOnce(t *testing.T) {
	for _, tt := range []struct{ n, perWorker int }{{0, 1}, {1, 1}, {5, 1}, {5, 64}, {1000, 64}, {1000, 0}} {
		calls := make([]atomic.Int32, tt.n)
		Do(tt.n, tt.perWorker, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if got := calls[i].Load(); got != 1 {
				t.Fatalf("n=%d perWorker=%d: index %d called %d times", tt.n, tt.perWorker, i, got)
			}
		}
	}
}
