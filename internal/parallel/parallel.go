// Package parallel runs independent calls on at most GOMAXPROCS goroutines
// (clusters checked at once, the rules and policies of one cluster at once,
// files hashed at once, a level of directories listed at once). Callers
// keep each result at its index, so what they report stays in input order
// whatever the scheduling.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Each calls fn(i) for every i in [0, n) and returns when all calls have.
// The calls start in index order, so a caller that puts its longest jobs
// first finishes soonest. fn must be safe to call concurrently. With one
// processor (or one call) everything runs on the caller's goroutine.
func Each(n int, fn func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
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
