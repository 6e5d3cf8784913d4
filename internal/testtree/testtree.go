// Package testtree writes trees of files for tests, the same way in every
// package: slash-separated names relative to a root, parent directories
// created 0o755, files written 0o644. It is imported only by tests.
package testtree

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes files into a new temporary directory of t and returns the
// directory.
func Write(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	WriteAt(t, dir, files)
	return dir
}

// WriteAt writes files (slash-separated names relative to root) below
// root, creating the directories on the way.
func WriteAt(t testing.TB, root string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		WriteFile(t, filepath.Join(root, filepath.FromSlash(name)), content)
	}
}

// Writer returns a function that writes one file (a slash-separated name
// relative to root) as WriteAt does, for a test that writes, acts and
// writes again.
func Writer(t testing.TB, root string) func(name, content string) {
	return func(name, content string) {
		t.Helper()
		WriteAt(t, root, map[string]string{name: content})
	}
}

// WriteFile writes content to path, creating its parent directories.
func WriteFile(t testing.TB, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// Link makes path a symbolic link to target (written as given, so a
// relative target is relative to path's directory), creating path's
// parent directories.
func Link(t testing.TB, target, path string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
}
