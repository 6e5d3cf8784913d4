package krm

import (
	"os"
	"path/filepath"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
)

// TreeRoot is the directory origin files may be read from when the
// function runs outside a git repository: kustomize runs it in the
// kustomization's own directory, while the bases that directory names
// (../base, ../../base) sit beside or above it. It is the highest
// directory above dir that holds a kustomization itself or in one of its
// direct subdirectories; the directories above the kustomize tree stay
// out of reach.
func TreeRoot(dir string) string {
	root := filepath.Clean(dir)
	for p := filepath.Dir(root); p != root && holdsKustomization(p); p = filepath.Dir(p) {
		root = p
	}
	return root
}

// holdsKustomization says whether dir or one of its direct subdirectories
// holds a kustomization file.
func holdsKustomization(dir string) bool {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range entries {
		if !e.IsDir() && kustomization.IsFileName(e.Name()) {
			return true
		}
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		sub, err := os.ReadDir(filepath.Join(dir, e.Name()))
		if err != nil {
			continue
		}
		for _, s := range sub {
			if !s.IsDir() && kustomization.IsFileName(s.Name()) {
				return true
			}
		}
	}
	return false
}
