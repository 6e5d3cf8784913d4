//go:build unix

package safefs

import "syscall"

// noFollowNoBlock makes the open refuse a symlink planted at the resolved
// path and return at once on a FIFO instead of waiting for a writer.
const noFollowNoBlock = syscall.O_NOFOLLOW | syscall.O_NONBLOCK
