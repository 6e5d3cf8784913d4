package trace

import (
	"os"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// prodStream is `kustomize build overlays/prod` of the gitops fixture with
// buildMetadata: [originAnnotations]: the release IDMS carries the prod
// patch's mirrorSourcePolicy, which the base file does not hold.
const prodStream = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  annotations:
    config.kubernetes.io/origin: |
      path: idms-apps.yaml
  name: apps
spec:
  imageDigestMirrors:
  - mirrors:
    - mirror.corp.example/apps
    source: registry.example.com/apps
---
apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  annotations:
    config.kubernetes.io/origin: |
      path: ../../base/idms-release.yaml
  name: release
spec:
  imageDigestMirrors:
  - mirrorSourcePolicy: NeverContactSource
    mirrors:
    - mirror.corp.example/ocp/release
    source: quay.io/openshift-release-dev/ocp-release
  - mirrors:
    - mirror.corp.example/ocp/art-dev
    source: quay.io/openshift-release-dev/ocp-v4.0-art-dev
`

// TestRemapPatchedValue: a finding on a value an overlay's patch set is
// positioned on the patch (found through the kustomization the origin path
// is relative to), not on the base object's entry, which does not hold the
// value; values the base holds stay in the base. When no patch holds the
// value, the finding sits on the object and says where the value comes
// from.
func TestRemapPatchedValue(t *testing.T) {
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS("../cluster/testdata/gitops")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
	set, err := manifest.LoadReader("-", strings.NewReader(prodStream), manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	release := set.Objects[1]
	remap := func(path string) placed {
		t.Helper()
		r := &Remapper{Roots: []string{"."}, Discover: true}
		return place(r, set.Objects, finding(release, path))
	}
	if got := remap("spec.imageDigestMirrors[0].mirrorSourcePolicy"); got.Position.String() != "overlays/prod/never-contact-source.yaml:4:10" || got.elsewhere {
		t.Errorf("patched value at %v (set elsewhere: %v), want overlays/prod/never-contact-source.yaml:4:10", got.Position, got.elsewhere)
	}
	if got := remap("spec.imageDigestMirrors[0].mirrors[0]"); got.File != "base/idms-release.yaml" || got.Line != 10 {
		t.Errorf("base value at %v, want base/idms-release.yaml:10", got.Position)
	}
	if err := os.WriteFile("overlays/prod/never-contact-source.yaml", []byte("[]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got := remap("spec.imageDigestMirrors[0].mirrorSourcePolicy")
	if got.File != "base/idms-release.yaml" || got.Line != 2 || !got.elsewhere {
		t.Errorf("unfound patch: %v (set elsewhere: %v), want the object at base/idms-release.yaml:2 and a note", got.Position, got.elsewhere)
	}
}
