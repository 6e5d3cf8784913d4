package heapwatch

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
)

// Room is how much more address space the process may map under
// its RLIMIT_AS (ulimit -v), or -1 when it has no such limit. A Go process
// reserves address space it never touches (a gigabyte and more at start),
// so under a limit of a few GiB the heap has far less room than the
// number suggests; mapping past the limit kills the process.
func Room() int64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil || lim.Cur == ^uint64(0) || lim.Cur > 1<<62 {
		return -1
	}
	statm, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return -1
	}
	field, _, _ := bytes.Cut(statm, []byte(" "))
	pages, err := strconv.ParseInt(string(field), 10, 64)
	if err != nil {
		return -1
	}
	return max(int64(lim.Cur)-pages*int64(os.Getpagesize()), 0)
}
