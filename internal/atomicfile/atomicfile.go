// Package atomicfile writes files so that a reader never sees half of one:
// the data goes to a temporary file in the same directory, is synced, and is
// renamed over the target. An interrupted run leaves the old file intact.
package atomicfile

import (
	"os"
	"path/filepath"
)

// Write replaces path with data, with permissions mode.
func Write(path string, data []byte, mode os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(mode); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
