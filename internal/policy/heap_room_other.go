//go:build !linux

package policy

// addressRoom is -1 (no limit known) where the process's mapped size is
// not read: the budget is then Options.Memory or GOMEMLIMIT's room.
func addressRoom() int64 { return -1 }
