package manifest

import "sync"

// parallel calls fn(i) for every i in [0, n) on up to workers goroutines and
// returns when all calls are done. This is the only place the package starts
// goroutines: callers write results into slots indexed by i, which keeps the
// output in input order without locks.
func parallel(workers, n int, fn func(i int)) {
	if workers > n {
		workers = n
	}
	if workers <= 1 {
		for i := 0; i < n; i++ {
			fn(i)
		}
		return
	}
	next := make(chan int, workers)
	var wg sync.WaitGroup
	wg.Add(workers)
	for w := 0; w < workers; w++ {
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
