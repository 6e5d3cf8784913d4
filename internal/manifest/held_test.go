package manifest

import (
	"path/filepath"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/embedded"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// The manifests a ConfigMap value holds are read as a file's, every
// document, and each value is placed on its line of the ConfigMap file; a
// value that does not parse is a problem at its place there.
func TestHeld(t *testing.T) {
	dir := testtree.Write(t, map[string]string{"cm.yaml": `apiVersion: v1
kind: ConfigMap
metadata:
  name: extra
  namespace: sno1
data:
  idms.yaml: |
    apiVersion: config.openshift.io/v1
    kind: ImageDigestMirrorSet
    metadata:
      name: extra
    spec:
      imageDigestMirrors:
      - source: quay.io/a
        mirrors:
        - m.example.com/a
    ---
    apiVersion: config.openshift.io/v1
    kind: ImageTagMirrorSet
    metadata:
      name: tags
  broken.yaml: "kind: [\n"
`})
	set := mustLoad(t, []string{filepath.Join(dir, "cm.yaml")}, Options{Unmodelled: UnmodelledAll})
	cm := findObject(t, set, "ConfigMap/extra")
	held := func(key string) ([]*Object, []Problem) {
		n := cm.ValueNode(Path{"data", key})
		tx := embedded.Of(cm.Text(), n)
		return Held(cm.File, n.Value, UnmodelledNone, func(line, col int) Position {
			l, c := tx.At(line, col)
			return Position{File: cm.File, Line: l, Column: c}
		})
	}
	objs, probs := held("idms.yaml")
	if len(objs) != 2 || len(probs) != 0 {
		t.Fatalf("got %d objects, problems %v; want 2, none", len(objs), probs)
	}
	if objs[0].Ref() != "ImageDigestMirrorSet/extra" || objs[1].Ref() != "ImageTagMirrorSet/tags" || objs[1].Doc != 1 || objs[0].IDMS == nil {
		t.Errorf("objects %s (doc %d), %s (doc %d); want the IDMS typed, then the ITMS of document 2", objs[0].Ref(), objs[0].Doc, objs[1].Ref(), objs[1].Doc)
	}
	if got := objs[0].Locate(ParsePath("spec.imageDigestMirrors[0].mirrors[0]")); got.File != cm.File || got.Line != 16 || got.Column != 11 {
		t.Errorf("mirror at %s, want %s:16:11", got, cm.File)
	}
	if got := objs[1].Position(); got.Line != 18 || got.Column != 5 {
		t.Errorf("second document at %s, want line 18 column 5", got)
	}
	_, probs = held("broken.yaml")
	if len(probs) != 1 || probs[0].Code != CodeParseError || probs[0].Pos.File != cm.File || probs[0].Pos.Line != 22 {
		t.Errorf("problems %v; want one parse error on line 22 of %s", probs, cm.File)
	}
}
