package ztp

import (
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// SourceCRFiles names the source CRs a generator reads from the
// source-crs directory of the directory it runs in: a PolicyGenTemplate's
// fileNames, a PolicyGenerator's paths into source-crs/; what is not there
// is left out.
func TestSourceCRFiles(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"source-crs/IDMS.yaml":       "kind: ImageDigestMirrorSet\n",
		"source-crs/sub/Catsrc.yaml": "kind: CatalogSource\n",
		"beside.yaml":                "kind: ConfigMap\n",
		"gen/source-crs/IDMS.yaml":   "kind: ImageDigestMirrorSet\n",
	})
	pgt, err := yaml.Parse(`apiVersion: ran.openshift.io/v1
kind: PolicyGenTemplate
spec:
  sourceFiles:
    - fileName: IDMS.yaml
    - fileName: sub/Catsrc.yaml
    - fileName: FromTheContainer.yaml
`)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Join(dir, "source-crs/IDMS.yaml"), filepath.Join(dir, "source-crs/sub/Catsrc.yaml")}
	if got := SourceCRFiles(dir, pgt.YNode()); !slices.Equal(got, want) {
		t.Errorf("PolicyGenTemplate: %v, want %v", got, want)
	}
	// Run from gen/, the template reads gen/source-crs only.
	if got := SourceCRFiles(filepath.Join(dir, "gen"), pgt.YNode()); !slices.Equal(got, []string{filepath.Join(dir, "gen/source-crs/IDMS.yaml")}) {
		t.Errorf("PolicyGenTemplate run in gen: %v", got)
	}
	pg, err := yaml.Parse(`apiVersion: policy.open-cluster-management.io/v1
kind: PolicyGenerator
policies:
  - name: p
    manifests:
      - path: source-crs/IDMS.yaml
      - path: source-crs/sub
      - path: beside.yaml
      - path: source-crs/Absent.yaml
`)
	if err != nil {
		t.Fatal(err)
	}
	if got := SourceCRFiles(dir, pg.YNode()); !slices.Equal(got, want) {
		t.Errorf("PolicyGenerator: %v, want %v", got, want)
	}
}

// A generator run from the directory of a kustomization above it reads
// source-crs/ there; a source CR found only beside the generator file is
// named as the place that holds it, and a PolicyGenerator path that names
// no file is said to be refused, not taken from the ZTP container (which
// only a PolicyGenTemplate falls back on).
func TestMissingSourceCRFromKustomizationDir(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"source-crs/Top.yaml":         "kind: ConfigMap\nmetadata:\n  name: top\n",
		"global/source-crs/Only.yaml": "kind: ConfigMap\nmetadata:\n  name: only\n",
	})
	d := &Dirs{Dir: dir, Shown: "pgt", File: filepath.Join(dir, "global")}
	if f, err := d.SourceCR("Top.yaml"); err != nil || f.Name != "pgt/source-crs/Top.yaml" {
		t.Fatalf("SourceCR(Top.yaml) = %q, %v", f.Name, err)
	}
	_, err := d.SourceCR("Only.yaml")
	var m *missing
	if !errors.As(err, &m) {
		t.Fatalf("SourceCR(Only.yaml) = %v, want a missing source CR", err)
	}
	for _, want := range []string{"is not in pgt/source-crs,", "(the ZTP container would use its own copy)", "; pgt/global/source-crs holds one"} {
		if !strings.Contains(m.msg, want) {
			t.Errorf("message %q does not say %q", m.msg, want)
		}
	}
	_, err = d.Manifests("source-crs/Only.yaml")
	if !errors.As(err, &m) {
		t.Fatalf("Manifests(source-crs/Only.yaml) = %v, want a missing source CR", err)
	}
	for _, want := range []string{"is not in pgt/source-crs,", "(the policy generator refuses a path that names no file): put the ZTP container's source CRs there", "; pgt/global/source-crs holds one"} {
		if !strings.Contains(m.msg, want) {
			t.Errorf("message %q does not say %q", m.msg, want)
		}
	}
	if strings.Contains(m.msg, "would use its own") {
		t.Errorf("a PolicyGenerator path: %q", m.msg)
	}
	many := SourceCRsMissing([]*MissingSourceCR{m.sourceCR, {Name: "Other.yaml", Dir: m.sourceCR.Dir, Path: true}})
	if !strings.Contains(many, "(the policy generator refuses paths that name no file)") || strings.Contains(many, "would use its own") {
		t.Errorf("grouped PolicyGenerator paths: %q", many)
	}
}
