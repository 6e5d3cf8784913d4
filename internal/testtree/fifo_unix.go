//go:build unix

package testtree

import "syscall"

// Mkfifo makes a FIFO at p, for the tests that a FIFO is never read.
func Mkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }
