//go:build unix

package manifest

import "syscall"

// mkfifo makes a FIFO at p, for the tests that a FIFO is never read.
func mkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }
