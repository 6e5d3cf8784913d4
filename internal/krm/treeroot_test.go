package krm

import (
	"os"
	"path/filepath"
	"testing"
)

// TestTreeRoot: outside git the function may read the bases its overlay
// names, one or two levels up, and nothing above the kustomize tree.
func TestTreeRoot(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	for _, f := range []string{"base/kustomization.yaml", "overlays/prod/kustomization.yaml", "linted/kustomization.yaml"} {
		p := filepath.Join(repo, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("resources: [../base]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, dir := range []string{"linted", "overlays/prod", "base"} {
		if got := TreeRoot(filepath.Join(repo, dir)); got != repo {
			t.Errorf("TreeRoot(%s) = %s, want %s", dir, got, repo)
		}
	}
}
