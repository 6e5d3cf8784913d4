package manifest

import (
	"path/filepath"
	"testing"
)

// A chart whose templates hold no manifest file skips nothing worth a
// notice; a directory merely named templates (no Chart.yaml) is read.
func TestUnappliedNeedsChartAndTemplates(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "empty/Chart.yaml"), "name: empty\n")
	writeFile(t, filepath.Join(dir, "empty/templates/NOTES.txt"), "hello\n")
	writeFile(t, filepath.Join(dir, "plain/templates/idms.yaml"), "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: a\nspec: {}\n")
	s := mustLoad(t, []string{dir}, Options{})
	if len(s.Problems) != 0 || len(s.Objects) != 1 {
		t.Fatalf("problems %v objects %v", s.Problems, refs(s))
	}
	writeFile(t, filepath.Join(dir, "empty/templates/cm.yaml"), "kind: ConfigMap\n")
	s = mustLoad(t, []string{dir}, Options{})
	if ps := problemsWith(s, CodeNotApplied); len(ps) != 1 || !ps[0].Warning || ps[0].Pos.File != filepath.ToSlash(dir)+"/empty/Chart.yaml" {
		t.Fatalf("problems %v", s.Problems)
	}
}
