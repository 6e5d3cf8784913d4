package cluster_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/pipeline"
	"github.com/mirrorlint/mirrorlint/internal/policy"
)

// mixing lints every cluster of root and returns the icsp-mixed-with-sets
// findings as "file:line [clusters]".
func mixing(t *testing.T, root string) []string {
	t.Helper()
	res, err := cluster.Discover(cluster.Options{Paths: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := pipeline.LoadChecks(policy.Options{Builtin: true})
	if err != nil {
		t.Fatal(err)
	}
	e := &check.Engine{Rules: c.Rules, Policies: c.Policies}
	var all [][]check.Finding
	for _, c := range res.Clusters {
		fs, _, err := e.Lint(&cluster.Cluster{Name: c.Name, Objects: c.Objects, Problems: c.Problems, Settings: cluster.Defaults()})
		if err != nil {
			t.Fatal(err)
		}
		if r := c.Patches(); r != nil {
			check.Move(fs, r.Place)
		}
		all = append(all, fs)
	}
	var out []string
	for _, f := range check.Merge(all...) {
		if f.Rule == "icsp-mixed-with-sets" {
			out = append(out, fmt.Sprintf("%s:%d %v", f.File, f.Line, f.Clusters))
		}
	}
	return out
}

// TestMixingIsPerCluster: an ICSP in dev and an IDMS in prod are no mix;
// dev holding both (its own ICSP and the base's IDMS) is.
func TestMixingIsPerCluster(t *testing.T) {
	if got := mixing(t, "testdata/gitops-split"); len(got) != 0 {
		t.Errorf("gitops-split: dev has only an ICSP, prod only IDMSs, yet: %v", got)
	}
	got := mixing(t, "testdata/gitops")
	want := "testdata/gitops/base/idms-release.yaml:5 [overlays/dev]"
	if len(got) != 1 || got[0] != want {
		t.Errorf("gitops: %v, want [%s]", got, want)
	}
}

// TestLooseFileIsNoMix: an ICSP left in the prod overlay's directory but
// not listed in its kustomization is in no cluster, so it mixes with
// nothing (clusters/lab's IDMS in particular).
func TestLooseFileIsNoMix(t *testing.T) {
	root := t.TempDir()
	if err := os.CopyFS(root, os.DirFS("testdata/gitops")); err != nil {
		t.Fatal(err)
	}
	icsp, err := os.ReadFile(filepath.Join(root, "overlays/dev/icsp-legacy.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "overlays/prod/old-icsp.yaml"), icsp, 0o644); err != nil {
		t.Fatal(err)
	}
	got := mixing(t, root)
	want := root + "/base/idms-release.yaml:5 [overlays/dev]"
	if len(got) != 1 || got[0] != want {
		t.Errorf("%v, want [%s]", got, want)
	}
}
