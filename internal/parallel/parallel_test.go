package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
)

// peakOf runs 200 calls through run and returns how many of them ran at
// once at most, failing t unless every index was called exactly once.
func peakOf(t *testing.T, what string, run func(n int, fn func(int))) int {
	t.Helper()
	const n = 200
	var calls [n]atomic.Int32
	var running, peak atomic.Int32
	var mu sync.Mutex
	run(n, func(i int) {
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
			t.Fatalf("%s: index %d called %d times", what, i, c)
		}
	}
	return int(peak.Load())
}

// Every index is called exactly once, on no more goroutines at a time than
// GOMAXPROCS, and on the caller's goroutine alone with one processor.
func TestEachCallsEveryIndexOnceWithinTheBound(t *testing.T) {
	for _, procs := range []int{1, 2, 4} {
		func() {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			if p := peakOf(t, "Each", Each); p > procs {
				t.Errorf("GOMAXPROCS %d: %d calls ran at once", procs, p)
			}
		}()
	}
	Each(0, func(int) { t.Fatal("called for n = 0") })
}

// Within bounds the calls by the workers it is given, by GOMAXPROCS when
// that is not positive, and runs one worker's calls on the caller's
// goroutine (nothing else may run at once).
func TestWithinBoundsByTheWorkersGiven(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, c := range []struct{ workers, bound int }{{1, 1}, {3, 3}, {0, 4}, {-1, 4}, {8, 8}} {
		p := peakOf(t, "Within", func(n int, fn func(int)) { Within(c.workers, n, fn) })
		if p > c.bound {
			t.Errorf("Within(%d): %d calls ran at once, want at most %d", c.workers, p, c.bound)
		}
	}
	Within(2, 0, func(int) { t.Fatal("called for n = 0") })
}
