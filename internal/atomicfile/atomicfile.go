// Package atomicfile writes files so that a reader never sees half of one:
// the data goes to a temporary file in the same directory, is synced (unless
// the file is only a cache, WriteUnsynced), and is renamed over the target.
// An interrupted run leaves the old file intact.
package atomicfile

import (
	"bufio"
	"io"
	"os"
	"path/filepath"
)

// Write replaces path with data, with permissions mode.
func Write(path string, data []byte, mode os.FileMode) error {
	return WriteWith(path, mode, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteWith replaces path with what write writes to the writer it is
// given, with permissions mode: a file of tens of megabytes is written as
// it is produced instead of assembled in memory first. An error from
// write leaves path as it was.
func WriteWith(path string, mode os.FileMode, write func(w io.Writer) error) error {
	return replace(path, mode, true, write)
}

// WriteUnsynced is WriteWith without waiting for the data to reach the
// disk before the rename, for a file whose loss or damage in a crash of
// the machine costs only the time to make it again: a cache whose reader
// checks what it reads. While the machine runs a reader still sees the old
// file or the new one, whole. The sync is a large file's slowest step
// (19 MB: 10-30 ms of 40).
func WriteUnsynced(path string, mode os.FileMode, write func(w io.Writer) error) error {
	return replace(path, mode, false, write)
}

func replace(path string, mode os.FileMode, sync bool, write func(w io.Writer) error) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	bw := bufio.NewWriterSize(tmp, 64<<10)
	if err := write(bw); err != nil {
		tmp.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if sync {
		if err := tmp.Sync(); err != nil {
			tmp.Close()
			return err
		}
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
