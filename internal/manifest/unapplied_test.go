package manifest

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A chart whose templates hold no manifest file skips nothing worth a
// notice; a directory merely named templates (no Chart.yaml) is read.
func TestUnappliedNeedsChartAndTemplates(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, "empty/Chart.yaml"), "name: empty\n")
	testtree.WriteFile(t, filepath.Join(dir, "empty/templates/NOTES.txt"), "hello\n")
	testtree.WriteFile(t, filepath.Join(dir, "plain/templates/idms.yaml"), "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: a\nspec: {}\n")
	s := mustLoad(t, []string{dir}, Options{})
	if len(s.Problems) != 0 || len(s.Objects) != 1 {
		t.Fatalf("problems %v objects %v", s.Problems, refs(s))
	}
	testtree.WriteFile(t, filepath.Join(dir, "empty/templates/cm.yaml"), "kind: ConfigMap\n")
	s = mustLoad(t, []string{dir}, Options{})
	if ps := problemsWith(s, CodeNotApplied); len(ps) != 1 || !ps[0].Warning || ps[0].Pos.File != filepath.ToSlash(dir)+"/empty/Chart.yaml" {
		t.Fatalf("problems %v", s.Problems)
	}
}

// A kube-compare reference (metadata.yaml listing parts and components
// beside Go-templated CRs) is reported once, on its metadata.yaml, whether
// its directory is walked or one of its files is named; its templates give
// no parse errors. A metadata.yaml of another shape changes nothing.
func TestKubeCompareReferenceNotApplied(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	ref := filepath.Join(dir, "reference-crs-kube-compare")
	testtree.WriteFile(t, filepath.Join(ref, "metadata.yaml"), "apiVersion: v2\nparts:\n  - name: registry\n    components:\n      - name: idms\n        allOf:\n          - path: registry/idms.yaml\n")
	testtree.WriteFile(t, filepath.Join(ref, "registry/idms.yaml"), "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: {{ .metadata.name }}\nspec:\n  imageDigestMirrors:\n{{- range .spec.imageDigestMirrors }}\n  - source: {{ .source }}\n{{- end }}\n")
	testtree.WriteFile(t, filepath.Join(dir, "other/metadata.yaml"), "name: chart-metadata\n")
	testtree.WriteFile(t, filepath.Join(dir, "other/idms.yaml"), "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: a\nspec: {}\n")
	for _, arg := range []string{dir, filepath.Join(ref, "registry/idms.yaml")} {
		s := mustLoad(t, []string{arg}, Options{})
		ps := problemsWith(s, CodeNotApplied)
		if len(ps) != 1 || len(s.Problems) != 1 || !ps[0].Warning || filepath.Base(ps[0].Pos.File) != "metadata.yaml" ||
			!strings.Contains(ps[0].Message, "kube-compare reference") {
			t.Fatalf("%s: problems %v", arg, s.Problems)
		}
	}
	if s := mustLoad(t, []string{dir}, Options{}); len(s.Objects) != 1 || s.Objects[0].Name != "a" {
		t.Errorf("objects %v", refs(s))
	}
}
