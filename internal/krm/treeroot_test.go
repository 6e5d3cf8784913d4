package krm

import (
	"path/filepath"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// TestTreeRoot: outside git the function may read the bases its overlay
// names, one or two levels up, and nothing above the kustomize tree.
func TestTreeRoot(t *testing.T) {
	top := t.TempDir()
	repo := filepath.Join(top, "repo")
	testtree.WriteAt(t, repo, map[string]string{
		"base/kustomization.yaml":          "resources: [../base]\n",
		"overlays/prod/kustomization.yaml": "resources: [../base]\n",
		"linted/kustomization.yaml":        "resources: [../base]\n",
	})
	for _, dir := range []string{"linted", "overlays/prod", "base"} {
		if got := TreeRoot(filepath.Join(repo, dir)); got != repo {
			t.Errorf("TreeRoot(%s) = %s, want %s", dir, got, repo)
		}
	}
}
