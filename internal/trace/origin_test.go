package trace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

const sourceFileText = `# a comment that shifts every line
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: unrelated
---
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: mirrors
spec:
  imageDigestMirrors:
  - source: quay.io/openshift-release-dev/ocp-release
    mirrors:
    - mirror.example.com/ocp
`

// stream is what `kustomize build` prints for an overlay with
// namePrefix: prod- and buildMetadata: [originAnnotations].
const stream = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  annotations:
    config.kubernetes.io/origin: |
      path: ../base/idms.yaml
  name: prod-mirrors
spec:
  imageDigestMirrors:
  - mirrors:
    - mirror.example.com/ocp
    source: quay.io/openshift-release-dev/ocp-release
---
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  annotations:
    config.kubernetes.io/origin: |
      path: ../base/gone.yaml
  name: elsewhere
spec: {}
`

func setup(t *testing.T) (dir string, objs []*manifest.Object) {
	t.Helper()
	dir = t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "base"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "overlay"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "base", "idms.yaml"), []byte(sourceFileText), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := manifest.LoadReader("-", strings.NewReader(stream), manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Objects) != 2 || set.Objects[0].Origin != "../base/idms.yaml" {
		t.Fatalf("stream objects: %+v", set.Objects)
	}
	return dir, set.Objects
}

func finding(o *manifest.Object, path string) check.Finding {
	return check.Finding{Rule: "r", Severity: check.Error, Message: "m",
		Position: o.Locate(manifest.ParsePath(path)),
		Object:   check.ObjectRef{Kind: string(o.Kind), Name: o.Name}, Path: path}
}

func TestRemapToOriginFile(t *testing.T) {
	dir, objs := setup(t)
	r := &Remapper{Roots: []string{filepath.Join(dir, "overlay")}}
	f := finding(objs[0], "spec.imageDigestMirrors[0].source")
	f.Related = []check.Location{{Position: objs[0].Locate(manifest.ParsePath("spec.imageDigestMirrors[0].mirrors[0]")),
		Object: f.Object, Path: "spec.imageDigestMirrors[0].mirrors[0]"}}
	got := r.Remap(objs, []check.Finding{f})[0]
	want := filepath.Join(dir, "overlay", "..", "base", "idms.yaml")
	if got.File != want || got.Line != 14 || got.Column != 13 {
		t.Errorf("remapped to %v, want %s:14:13", got.Position, want)
	}
	if got.EndColumn == 0 {
		t.Errorf("end position lost: %+v", got.Position)
	}
	if rel := got.Related[0].Position; rel.File != want || rel.Line != 16 || rel.Column != 7 {
		t.Errorf("related remapped to %v, want line 16 col 7", rel)
	}
	// The stream position is untouched in the input.
	if f.File != "-" {
		t.Errorf("input finding modified")
	}
}

func TestRemapMissingFileKeepsOriginName(t *testing.T) {
	dir, objs := setup(t)
	r := &Remapper{Roots: []string{filepath.Join(dir, "overlay")}}
	got := r.Remap(objs, []check.Finding{finding(objs[1], "spec")})[0]
	if got.File != "../base/gone.yaml" || got.Line != 0 {
		t.Errorf("got %v, want the origin path without a line", got.Position)
	}
}

func TestRemapPathMissingInSource(t *testing.T) {
	dir, objs := setup(t)
	r := &Remapper{Roots: []string{"/nonexistent", filepath.Join(dir, "overlay")}}
	// A field an overlay patched in: the deepest part that exists in the
	// source (the first entry of imageDigestMirrors) is reported.
	got := r.Remap(objs, []check.Finding{finding(objs[0], "spec.imageDigestMirrors[0].mirrorSourcePolicy")})[0]
	if !strings.HasSuffix(got.File, filepath.Join("base", "idms.yaml")) || got.Line < 13 {
		t.Errorf("got %v", got.Position)
	}
}

func TestNoOriginNoChange(t *testing.T) {
	set, err := manifest.LoadReader("-", strings.NewReader("apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: x\n"), manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := finding(set.Objects[0], "metadata.name")
	got := (&Remapper{}).Remap(set.Objects, []check.Finding{f})[0]
	if got.Position != f.Position {
		t.Errorf("changed without an origin: %v", got.Position)
	}
}

func TestRemapDiscoversBuiltKustomization(t *testing.T) {
	dir, objs := setup(t)
	if err := os.WriteFile(filepath.Join(dir, "overlay", "kustomization.yaml"), []byte("resources: [../base]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// `kustomize build overlay | mirrorlint lint -` run from dir: the origin
	// is relative to overlay, which only discovery can find.
	r := &Remapper{Roots: []string{dir}, Discover: true}
	got := r.Remap(objs, []check.Finding{finding(objs[0], "spec.imageDigestMirrors[0].source")})[0]
	if want := filepath.Join(dir, "base", "idms.yaml"); got.File != want || got.Line != 14 {
		t.Errorf("got %v, want %s:14", got.Position, want)
	}
	if got := (&Remapper{Roots: []string{dir}}).Remap(objs, []check.Finding{finding(objs[0], "spec")})[0]; got.Line != 0 {
		t.Errorf("without Discover the file should not be found: %v", got.Position)
	}
}
