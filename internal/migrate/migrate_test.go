package migrate

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const wantSeparate = `# The release mirrors.
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: release
  annotations:
    team: platform
  labels:
    app: mirrors
spec:
  imageDigestMirrors:
  # payload
  - source: quay.io/openshift-release-dev/ocp-release
    mirrors: # primary mirror
    - mirror.example.com/ocp/release
  - source: quay.io/openshift-release-dev/ocp-v4.0-art-dev
    mirrors:
    - mirror.example.com/ocp/release
---
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: operators
spec:
  imageDigestMirrors:
  - source: registry.redhat.io
    mirrors:
    - mirror.example.com/redhat
`

func copyFile(t *testing.T, src, dir string) string {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	dst := filepath.Join(dir, filepath.Base(src))
	if err := os.WriteFile(dst, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestSeparateFile(t *testing.T) {
	in := copyFile(t, "testdata/mixed.yaml", t.TempDir())
	cs, err := Plan([]string{in}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Path != strings.TrimSuffix(in, ".yaml")+".idms.yaml" || cs[0].Old != nil {
		t.Fatalf("changes %+v", cs)
	}
	if got := string(cs[0].New); got != wantSeparate {
		t.Fatalf("got:\n%s\nwant:\n%s\ndiff:\n%s", got, wantSeparate, Change{Path: "x", Old: []byte(wantSeparate), New: cs[0].New}.Diff())
	}
	if strings.Join(cs[0].Names, ",") != "release,operators" {
		t.Fatalf("names %q", cs[0].Names)
	}
	if d := cs[0].Diff(); !strings.HasPrefix(d, "--- /dev/null\n") {
		t.Fatalf("diff of a new file:\n%s", d)
	}
	if err := Apply(cs, false); err != nil {
		t.Fatal(err)
	}
	// Idempotent: a rerun finds the file and refuses to overwrite it.
	cs2, err := Plan([]string{in}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ee *ExistsError
	if err := Apply(cs2, false); !errors.As(err, &ee) {
		t.Fatalf("overwrite without force: %v", err)
	}
	if err := Apply(cs2, true); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(cs[0].Path)
	if string(got) != wantSeparate {
		t.Fatal("forced rewrite changed the output")
	}
}

func TestOutDir(t *testing.T) {
	in := copyFile(t, "testdata/mixed.yaml", t.TempDir())
	out := filepath.Join(t.TempDir(), "idms")
	cs, err := Plan([]string{in}, Options{OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	if err := Apply(cs, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(out, "mixed.idms.yaml")); err != nil {
		t.Fatal(err)
	}
	// Two inputs with the same base name cannot share -o DIR.
	other := filepath.Join(t.TempDir(), "mixed.yaml")
	copyFile(t, "testdata/mixed.yaml", filepath.Dir(other))
	if _, err := Plan([]string{in, other}, Options{OutDir: out}); err == nil {
		t.Fatal("colliding outputs accepted")
	}
}

func TestInPlaceKeepsOtherDocuments(t *testing.T) {
	in := copyFile(t, "testdata/mixed.yaml", t.TempDir())
	orig, _ := os.ReadFile(in)
	cs, err := Plan([]string{in}, Options{InPlace: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) != 1 || cs[0].Path != in || string(cs[0].Old) != string(orig) {
		t.Fatalf("changes %+v", cs)
	}
	got := string(cs[0].New)
	first := strings.SplitN(string(orig), "---\n", 2)[0]
	if !strings.HasPrefix(got, first+"---\n# The release mirrors.\napiVersion: config.openshift.io/v1\n") {
		t.Fatalf("first document not kept byte for byte:\n%s", got)
	}
	for _, want := range []string{"# primary mirror", "# payload", "kind: List", "  kind: ImageDigestMirrorSet\n", "name: operators"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in:\n%s", want, got)
		}
	}
	for _, gone := range []string{"ImageContentSourcePolicy", "uid:", "resourceVersion", "last-applied", "status"} {
		if strings.Contains(got, gone) {
			t.Errorf("%q left in:\n%s", gone, got)
		}
	}
	if err := Apply(cs, false); err != nil {
		t.Fatalf("in place needs no --force: %v", err)
	}
	again, err := Plan([]string{in}, Options{InPlace: true})
	if err != nil || len(again) != 0 {
		t.Fatalf("second run must find nothing: %+v %v", again, err)
	}
}

func TestNoICSP(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "idms.yaml")
	os.WriteFile(p, []byte("apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: x\n"), 0o644)
	cs, err := Plan([]string{p}, Options{})
	if err != nil || len(cs) != 0 {
		t.Fatalf("%+v %v", cs, err)
	}
}
