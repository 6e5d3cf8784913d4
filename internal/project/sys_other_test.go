//go:build !unix

package project_test

import "time"

// cpuTime is unknown here: the benchmarks report no CPU time.
func cpuTime() time.Duration { return 0 }

// syncDisks does nothing here: the benchmarks measure without the flush.
func syncDisks() {}
