package pipeline

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// each calls fn(i) for every i in [0, n) on at most GOMAXPROCS goroutines
// and returns when all calls have: the one place a lint run starts
// goroutines of its own. fn must be safe to call concurrently; callers keep
// each result at its index, so what they report stays in input order.
func each(n int, fn func(i int)) {
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
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				fn(i)
			}
		}()
	}
	wg.Wait()
}
