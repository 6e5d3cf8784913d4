package impact

import (
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"os"
	"path/filepath"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A kustomization that fails to build is a problem of its cluster only;
// Problems must surface it so that diff refuses to compare the side.
func TestProblemsIncludeClusterProblems(t *testing.T) {
	dir := t.TempDir()
	testtree.WriteAt(t, dir, map[string]string{
		"kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: [idms.yaml, missing.yaml]\n",
		"idms.yaml":          testtree.AcmeIDMS,
	})
	p, _, cleanup, err := OpenSide(project.Options{Paths: []string{dir}, ConfigPath: "none"})
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	probs := p.Problems()
	if len(probs) == 0 || probs[0].Code != "kustomize-error" || probs[0].Pos.File == "" {
		t.Fatalf("want a positioned kustomize-error, got %+v (set: %+v)", probs, p.Set.Problems)
	}
}

// drain-on-change says nothing about a side that does not load whole: its
// objects would all look removed.
func TestDrainFindingsSkipUnreadableSides(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "idms.yaml"), []byte(testtree.AcmeIDMS), 0o644); err != nil {
		t.Fatal(err)
	}
	p, _, cleanup, err := OpenSide(project.Options{Paths: []string{dir}, ConfigPath: "none"})
	if err != nil {
		t.Fatal(err)
	}
	defer cleanup()
	full := p.Clusters[0]
	broken := &cluster.Cluster{Name: full.Name, Settings: full.Settings,
		Problems: []manifest.Problem{{Code: "kustomize-error", Message: "boom", Pos: manifest.Position{File: "kustomization.yaml", Line: 1}}}}
	if fs := drainAgainst(full, project.Render(broken), placer{}); len(fs) != 0 {
		t.Errorf("broken new side: %+v", fs)
	}
	if fs := drainAgainst(broken, project.Render(full), placer{}); len(fs) != 0 {
		t.Errorf("broken old side: %+v", fs)
	}
	empty := &cluster.Cluster{Name: full.Name, Settings: full.Settings}
	if fs := drainAgainst(full, project.Render(empty), placer{}); len(fs) == 0 {
		t.Error("removing every object must still drain when both sides load")
	}
}
