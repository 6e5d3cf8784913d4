package safefs

import (
	"os"
	"path/filepath"
	"sync"
	"syscall"
)

// Abs is filepath.Abs without its cost on every call. filepath.Abs asks
// os.Getwd each time, and os.Getwd stats both "." and $PWD to decide
// whether $PWD may be trusted: two path lookups per name, which on a
// 10,000-file tree cost more than reading the files' cache entries. Abs
// asks the kernel for the working directory (one getcwd, no lookup) and
// reuses os.Getwd's answer while that stays the same, so a chdir between
// calls is still seen and names keep the form os.Getwd gives them (the
// logical $PWD, symlinks not resolved).
func Abs(name string) (string, error) {
	if filepath.IsAbs(name) {
		return filepath.Clean(name), nil
	}
	wd, err := workingDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(wd, name), nil
}

var wdCache struct {
	sync.Mutex
	real, dir string
}

func workingDir() (string, error) {
	real, err := syscall.Getwd()
	if err != nil {
		return os.Getwd()
	}
	wdCache.Lock()
	defer wdCache.Unlock()
	if real == wdCache.real && wdCache.dir != "" {
		return wdCache.dir, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	wdCache.real, wdCache.dir = real, dir
	return dir, nil
}
