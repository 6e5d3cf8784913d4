package cluster_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

func renderObjects(t *testing.T, objs []*manifest.Object) *render.Output {
	t.Helper()
	out, err := render.Render(check.BuildInput(objs, cluster.Defaults()).Input)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// plainTree writes what `kustomize build dir` prints into a fresh
// directory, so it can be read as an ordinary manifests tree.
func plainTree(t *testing.T, dir string) string {
	t.Helper()
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), dir)
	if err != nil {
		t.Fatal(err)
	}
	y, err := m.AsYaml()
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "build.yaml"), y, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOneRenderPerCluster renders every discovered cluster and compares it
// byte for byte with rendering the same cluster as a plain tree: the
// overlay's `kustomize build` output, or the plain directory itself.
func TestOneRenderPerCluster(t *testing.T) {
	root := "testdata/gitops"
	res, err := cluster.Discover(cluster.Options{Paths: []string{root}})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, c := range res.Clusters {
		dir := filepath.Join(root, filepath.FromSlash(c.Name))
		if c.Source == cluster.FromKustomization {
			dir = plainTree(t, dir)
		}
		plain, err := manifest.Load([]string{dir}, manifest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(plain.Objects) != len(c.Objects) {
			t.Errorf("%s: %d objects, the plain tree has %d", c.Name, len(c.Objects), len(plain.Objects))
		}
		got, want := renderObjects(t, c.Objects), renderObjects(t, plain.Objects)
		if !bytes.Equal(got.RegistriesConf, want.RegistriesConf) || !bytes.Equal(got.SearchRegistriesConf, want.SearchRegistriesConf) {
			t.Errorf("%s: render differs from the plain tree's\n--- cluster\n%s\n--- plain\n%s", c.Name, got.RegistriesConf, want.RegistriesConf)
		}
		seen[string(got.RegistriesConf)] = true
	}
	if len(res.Clusters) != 3 || len(seen) != 3 {
		t.Errorf("want 3 clusters with 3 different registries.conf, got %d clusters, %d renders", len(res.Clusters), len(seen))
	}
}
