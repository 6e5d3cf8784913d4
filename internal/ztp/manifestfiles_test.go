package ztp

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// ManifestFiles names what Manifests would read, without reading it: a
// path's file, the YAML files of a directory (not its subdirectories'),
// and nothing for a path that names no file or a kustomization
// (ManifestKustomizations names those).
func TestManifestFiles(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"one.yaml":                 "kind: ConfigMap\n",
		"input/a.yaml":             "kind: ConfigMap\n",
		"input/b.yml":              "kind: ConfigMap\n",
		"input/notes.txt":          "not a manifest\n",
		"input/deeper/c.yaml":      "kind: ConfigMap\n",
		"built/kustomization.yaml": "resources: [d.yaml]\n",
		"built/d.yaml":             "kind: ConfigMap\n",
	})
	gen, err := yaml.Parse(`apiVersion: policy.open-cluster-management.io/v1
kind: PolicyGenerator
policies:
  - name: p
    manifests:
      - path: one.yaml
      - path: input
      - path: built
  - name: q
    manifests:
      - path: missing.yaml
      - path: ""
`)
	if err != nil {
		t.Fatal(err)
	}
	got := ManifestFiles(dir, gen.YNode())
	want := []string{filepath.Join(dir, "one.yaml"), filepath.Join(dir, "input/a.yaml"), filepath.Join(dir, "input/b.yml")}
	if !slices.Equal(got, want) {
		t.Errorf("ManifestFiles = %v, want %v", got, want)
	}
	// A directory holding a kustomization is built, not read file by
	// file: its files are what the build reads.
	if got := ManifestKustomizations(dir, gen.YNode()); !slices.Equal(got, []string{filepath.Join(dir, "built")}) {
		t.Errorf("ManifestKustomizations = %v", got)
	}
	var names []string
	files, err := (&Dirs{Dir: dir}).Manifests("input")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		names = append(names, filepath.Join(dir, "input", filepath.Base(f.Name)))
	}
	if !slices.Equal(names, want[1:]) {
		t.Errorf("Manifests read %v, ManifestFiles names %v", names, want[1:])
	}
	// A missing path says how to supply it: a source CR from the
	// container, through sourceCRs, when the path goes into source-crs/.
	for rel, want := range map[string]string{
		"absent.yaml":            "the manifest path " + filepath.ToSlash(filepath.Join("shown", "absent.yaml")) + " names no file",
		"source-crs/Absent.yaml": "the source CR Absent.yaml is not in shown/source-crs",
	} {
		_, err := (&Dirs{Dir: dir, Shown: "shown"}).Manifests(rel)
		if err == nil || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), want) {
			t.Errorf("Manifests(%q) = %v, want a not-exist error saying %q", rel, err, want)
		}
	}
}
