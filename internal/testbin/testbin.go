// Package testbin is test support: it gives tests the mirrorlint command as
// a program to run, the same program in every package that needs one (lint,
// which holds the library equal to the command, and the integration
// recipes in examples).
//
// The program is linked by `go run`, which keeps what it links in the Go
// build cache: on a machine that linked this source once, any test package
// gets the program in about a second instead of the several seconds a link
// of the whole command takes. `go build -o` keeps nothing and links anew
// for every package and every run.
package testbin

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// command is the package the program is linked from.
const command = "github.com/mirrorlint/mirrorlint/cmd/mirrorlint"

var (
	once sync.Once
	dir  string
	path string
	err  error
)

// Mirrorlint returns the path of the mirrorlint program, linked at most
// once per test binary, and fails the test if it cannot be. Call Cleanup
// from TestMain to remove it.
func Mirrorlint(t testing.TB) string {
	t.Helper()
	once.Do(func() { path, err = link() })
	if err != nil {
		t.Fatalf("linking %s: %v", command, err)
	}
	return path
}

// link runs `go run -exec cp`, which hands the linked program to cp
// instead of running it: the copy lives in a directory of this process's,
// whatever the build cache later trims.
func link() (string, error) {
	var err error
	if dir, err = os.MkdirTemp("", "mirrorlint-bin-"); err != nil {
		return "", err
	}
	dst := filepath.Join(dir, "mirrorlint")
	out, err := exec.Command("go", "run", "-exec", "cp", command, dst).CombinedOutput()
	if err != nil {
		return "", errors.New(err.Error() + "\n" + string(out))
	}
	if st, err := os.Stat(dst); err != nil || st.Mode()&0o111 == 0 {
		return "", errors.New("go run -exec cp left no executable at " + dst)
	}
	return dst, nil
}

// Cleanup removes the program Mirrorlint linked, if it did.
func Cleanup() {
	if dir != "" {
		os.RemoveAll(dir)
	}
}
