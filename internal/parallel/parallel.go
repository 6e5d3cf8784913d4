// Package parallel runs independent calls on a bounded number of goroutines
// (files parsed at once, builds run at once, clusters checked at once, the
// rules and policies of one cluster at once, files hashed at once, a level
// of directories listed at once, a long object list digested in chunks). Callers
// keep each result at its index, so what they report stays in input order
// whatever the scheduling.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls fn(i) for every i in [0, n) on at most GOMAXPROCS goroutines
// and returns when all calls have (Within with GOMAXPROCS workers).
func Each(n int, fn func(i int)) { Within(runtime.GOMAXPROCS(0), n, fn) }

// Within calls fn(i) for every i in [0, n) on at most workers goroutines
// (GOMAXPROCS when workers is not positive: a caller's unset option) and
// returns when all calls have. The calls start in index order, so a caller
// that puts its longest jobs first finishes soonest. fn must be safe to
// call concurrently. With one worker (or one call) everything runs on the
// caller's goroutine.
func Within(workers, n int, fn func(i int)) {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, n)
	if workers <= 1 {
		for i := range n {
			fn(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		})
	}
	wg.Wait()
}
