package trace

import (
	"os"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// jsonPathStream is `kustomize build overlays/json-path` of the cluster
// package's patchforms fixture with buildMetadata: [originAnnotations]:
// the second entry was appended by a JSON 6902 add at "-".
const jsonPathStream = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  annotations:
    config.kubernetes.io/origin: |
      path: ../../base/idms.yaml
  name: release
spec:
  imageDigestMirrors:
  - mirrors:
    - mirror.example/base/a
    source: quay.io/base/a
  - mirrors:
    - mirror.example/jsonpath/b
    source: quay.io/jsonpath/b
`

// TestRemapAppendedEntry: a finding on an entry a JSON 6902 add appended
// ("-") to a base object, in a stream, sits in the patch that added it.
func TestRemapAppendedEntry(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../cluster/testdata/patchforms")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	set, err := manifest.LoadReader("-", strings.NewReader(jsonPathStream), manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := &Remapper{Roots: []string{"."}, Discover: true}
	for path, want := range map[string]string{
		"spec.imageDigestMirrors[1].source":     "overlays/json-path/add.yaml:4:13",
		"spec.imageDigestMirrors[1].mirrors[0]": "overlays/json-path/add.yaml:6:7",
		"spec.imageDigestMirrors[0].source":     "base/idms.yaml:7:13",
	} {
		got := place(r, set.Objects, finding(set.Objects[0], path))
		if got.Position.String() != want || got.elsewhere {
			t.Errorf("%s at %v (set elsewhere: %v), want %s", path, got.Position, got.elsewhere, want)
		}
	}
}
