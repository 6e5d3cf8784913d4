package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// Every index is called exactly once, on no more goroutines at a time than
// GOMAXPROCS, and on the caller's goroutine alone with one processor.
func TestEachCallsEveryIndexOnceWithinTheBound(t *testing.T) {
	for _, procs := range []int{1, 2, 4} {
		func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			const n = 200
			var calls [n]atomic.Int32
			var running, peak atomic.Int32
			var mu sync.Mutex
			Each(n, func(i int) {
				now := running.Add(1)
				mu.Lock()
				if now > peak.Load() {
					peak.Store(now)
				}
				mu.Unlock()
				calls[i].Add(1)
				runtime.Gosched()
				running.Add(-1)
			})
			for i := range calls {
				if c := calls[i].Load(); c != 1 {
					t.Fatalf("GOMAXPROCS %d: index %d called %d times", procs, i, c)
				}
			}
			if p := int(peak.Load()); p > procs {
				t.Errorf("GOMAXPROCS %d: %d calls ran at once", procs, p)
			}
		}()
	}
	Each(0, func(int) { t.Fatal("called for n = 0") })
}
