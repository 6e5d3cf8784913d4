package trace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
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

// value is a value of a stream object as a finding points at it.
type value struct {
	manifest.Position
	kind, name, path string
}

func finding(o *manifest.Object, path string) value {
	return value{Position: o.Locate(manifest.ParsePath(path)), kind: string(o.Kind), name: o.Name, path: path}
}

// placed is where Place moved a value, and whether a patch set it
// elsewhere.
type placed struct {
	manifest.Position
	elsewhere bool
}

func place(r *Remapper, objs []*manifest.Object, v value) placed {
	pos, elsewhere := r.Place(objs, v.Position, v.kind, v.name, v.path)
	return placed{pos, elsewhere}
}

func TestRemapToOriginFile(t *testing.T) {
	dir, objs := setup(t)
	r := &Remapper{Roots: []string{filepath.Join(dir, "overlay")}, Load: manifest.Options{Access: safefs.New(0, dir)}}
	got := place(r, objs, finding(objs[0], "spec.imageDigestMirrors[0].source"))
	want := filepath.Join(dir, "overlay", "..", "base", "idms.yaml")
	if got.File != want || got.Line != 14 || got.Column != 13 {
		t.Errorf("remapped to %v, want %s:14:13", got.Position, want)
	}
	if got.EndColumn == 0 {
		t.Errorf("end position lost: %+v", got.Position)
	}
	if rel := place(r, objs, finding(objs[0], "spec.imageDigestMirrors[0].mirrors[0]")); rel.File != want || rel.Line != 16 || rel.Column != 7 {
		t.Errorf("related remapped to %v, want line 16 col 7", rel.Position)
	}
}

func TestRemapMissingFileKeepsOriginName(t *testing.T) {
	dir, objs := setup(t)
	r := &Remapper{Roots: []string{filepath.Join(dir, "overlay")}}
	got := place(r, objs, finding(objs[1], "spec"))
	if got.File != "../base/gone.yaml" || got.Line != 0 {
		t.Errorf("got %v, want the origin path without a line", got.Position)
	}
}

func TestRemapPathMissingInSource(t *testing.T) {
	dir, objs := setup(t)
	r := &Remapper{Roots: []string{"/nonexistent", filepath.Join(dir, "overlay")}, Load: manifest.Options{Access: safefs.New(0, dir)}}
	// A field an overlay patched in: the deepest part that exists in the
	// source (the first entry of imageDigestMirrors) is reported.
	got := place(r, objs, finding(objs[0], "spec.imageDigestMirrors[0].mirrorSourcePolicy"))
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
	got := place((&Remapper{}), set.Objects, f)
	if got.Position != f.Position {
		t.Errorf("changed without an origin: %v", got.Position)
	}
}

// AnyOrigin says whether Place can change anything: an object whose
// origin is the file it sits in (built in-process) is placed where it is,
// so a set of only such objects needs no lookups; one stream object with
// an origin elsewhere does.
func TestAnyOriginIsWhatPlaceMoves(t *testing.T) {
	dir, objs := setup(t)
	r := &Remapper{Roots: []string{filepath.Join(dir, "overlay")}}
	home := make([]*manifest.Object, len(objs))
	for i, o := range objs {
		c := *o
		c.Origin = c.File
		home[i] = &c
	}
	if AnyOrigin(home) {
		t.Error("objects sitting in their origin files count as having an origin elsewhere")
	}
	f := finding(home[0], "spec.imageDigestMirrors[0].mirrors[0]")
	if got := place(r, home, f); got.Position != f.Position || got.elsewhere {
		t.Errorf("an object in its origin file was placed at %v", got)
	}
	if !AnyOrigin(objs) {
		t.Fatal("a stream object with an origin elsewhere is not seen")
	}
	if got := place(r, objs, finding(objs[0], "spec.imageDigestMirrors[0].mirrors[0]")); got.File == objs[0].File {
		t.Errorf("a stream object's value was not moved to its origin: %v", got)
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
	got := place(r, objs, finding(objs[0], "spec.imageDigestMirrors[0].source"))
	if want := filepath.Join(dir, "base", "idms.yaml"); got.File != want || got.Line != 14 {
		t.Errorf("got %v, want %s:14", got.Position, want)
	}
	if got := place(&Remapper{Roots: []string{dir}}, objs, finding(objs[0], "spec")); got.Line != 0 {
		t.Errorf("without Discover the file should not be found: %v", got.Position)
	}
}

// A stream names its origin files, so a hostile one can name a device or
// a file outside the tree: neither is read, and the finding keeps the
// origin's name without a line from it.
func TestRemapNeverReadsOutsideTheRoot(t *testing.T) {
	dir, _ := setup(t)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "idms.yaml"), []byte(sourceFileText), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/dev/zero", filepath.Join(dir, "base", "zero.yaml")); err != nil {
		t.Fatal(err)
	}
	up := strings.Repeat("../", strings.Count(dir, string(filepath.Separator))+2)
	for _, origin := range []string{up + "dev/zero", "../base/zero.yaml", filepath.Join(outside, "idms.yaml"), up + strings.TrimPrefix(filepath.ToSlash(outside), "/") + "/idms.yaml"} {
		text := strings.Replace(stream, "../base/idms.yaml", origin, 1)
		set, err := manifest.LoadReader("-", strings.NewReader(text), manifest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range []*Remapper{
			{Roots: []string{filepath.Join(dir, "overlay")}, Discover: true},
			{Roots: []string{filepath.Join(dir, "overlay")}, Load: manifest.Options{Access: safefs.New(0, dir)}},
		} {
			got := place(r, set.Objects, finding(set.Objects[0], "spec.imageDigestMirrors[0].source"))
			if got.Line != 0 || got.File == "-" && got.Line > 0 {
				t.Errorf("origin %s was read: placed at %v", origin, got.Position)
			}
		}
	}
}
