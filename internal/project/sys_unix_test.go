//go:build unix

package project_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used so far, 0 when unknown.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// syncDisks flushes written files to disk (sync(2)).
func syncDisks() { syscall.Sync() }
