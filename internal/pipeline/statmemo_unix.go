//go:build linux || darwin

package pipeline

import (
	"fmt"
	"os"
	"syscall"
	"time"
)

// statData is what a file's stat data say of its content: size, mode,
// modification and change times to the nanosecond, device and inode (a
// file replaced by another of the same size and times is another inode; a
// tar extraction that restores the modification time still sets the
// change time).
func statData(st os.FileInfo) (string, bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("%d %o %d %d %d %d", st.Size(), st.Mode(), st.ModTime().UnixNano(), changeTime(sys).UnixNano(), sys.Dev, sys.Ino), true
}

// changedSince reports whether the file was modified or changed at or
// after t.
func changedSince(st os.FileInfo, t time.Time) bool {
	sys, ok := st.Sys().(*syscall.Stat_t)
	return !ok || !st.ModTime().Before(t) || !changeTime(sys).Before(t)
}
