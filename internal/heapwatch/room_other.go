//go:build !linux

package heapwatch

// Room is -1 (no limit known) where the process's mapped size is
// not read: a budget is then lowered for GOMEMLIMIT only.
func Room() int64 { return -1 }
