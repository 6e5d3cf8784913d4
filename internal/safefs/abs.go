package safefs

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
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
//
// While a run holds the working directory (HoldWorkingDir) Abs uses it
// without asking the kernel: a run makes tens of thousands of names
// absolute, and one getcwd each was 4% of a 10,000-file run's CPU.
func Abs(name string) (string, error) {
	if filepath.IsAbs(name) {
		return filepath.Clean(name), nil
	}
	if wd := held.dir.Load(); wd != nil {
		return filepath.Join(*wd, name), nil
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

// held is the working directory the runs in progress hold, nil when none
// does.
var held struct {
	sync.Mutex
	n   int
	dir atomic.Pointer[string]
}

// HoldWorkingDir makes Abs answer with the working directory of now until
// release is called (each hold released once; holds nest, the directory
// is the first's). A run holds it from start to end: it makes names
// absolute throughout, and one that changed the directory halfway would
// mix two trees anyway. A chdir while it is held is not seen by Abs.
func HoldWorkingDir() (release func()) {
	held.Lock()
	defer held.Unlock()
	if held.n == 0 {
		wd, err := workingDir()
		if err != nil {
			return func() {} // Abs asks each time, and fails as it would
		}
		held.dir.Store(&wd)
	}
	held.n++
	var once sync.Once
	return func() {
		once.Do(func() {
			held.Lock()
			defer held.Unlock()
			if held.n--; held.n == 0 {
				held.dir.Store(nil)
			}
		})
	}
}
