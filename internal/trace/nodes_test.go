package trace

import (
	"fmt"
	"path/filepath"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// TestPlacerPlacesEveryNode: each node of a built object sits where its
// value is written. The origin file holds the values it writes (a mirror a
// patch moved down among them), the kustomization's inline patch the value
// it replaced and the entry it inserted, a name prefix stays on the name
// it prefixed; a generated object (no origin) is left unplaced.
func TestPlacerPlacesEveryNode(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"kustomization.yaml": `namePrefix: pre-
resources: [idms.yaml]
patches:
  - target: {kind: ImageDigestMirrorSet}
    patch: |
      - op: replace
        path: /spec/imageDigestMirrors/0/source
        value: quay.io/patched
      - op: add
        path: /spec/imageDigestMirrors/0/mirrors/0
        value: m.example.com/first
`,
		"idms.yaml": `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: idms
spec:
  imageDigestMirrors:
    - source: quay.io/a
      mirrors:
        - m.example.com/a
`,
	})
	// What kustomize builds of it (keys sorted, as it prints them).
	const built = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: pre-idms
spec:
  imageDigestMirrors:
  - mirrors:
    - m.example.com/first
    - m.example.com/a
    source: quay.io/patched
`
	pl := &Placer{Dir: dir, Read: safefs.ReadRegular, Load: manifest.Options{Access: safefs.New(0, dir)}}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(built), &doc); err != nil {
		t.Fatal(err)
	}
	n := doc.Content[0]
	files := pl.Place(n, "idms.yaml")
	spec := nodeAtKeys(n, "spec", "imageDigestMirrors").Content[0]
	mirrors := nodeAtKeys(spec, "mirrors")
	kust, idms := filepath.Join(dir, "kustomization.yaml"), filepath.Join(dir, "idms.yaml")
	for _, tc := range []struct {
		what string
		n    *yaml.Node
		want string
	}{
		{"kind", nodeAtKeys(n, "kind"), idms + ":2:7"},
		{"the prefixed name", nodeAtKeys(n, "metadata", "name"), idms + ":4:9"},
		{"the inserted mirror", mirrors.Content[0], kust + ":11:16"},
		{"the mirror moved down", mirrors.Content[1], idms + ":9:11"},
		{"the replaced source", nodeAtKeys(spec, "source"), kust + ":8:16"},
	} {
		if got := fmt.Sprintf("%s:%d:%d", files[tc.n], tc.n.Line, tc.n.Column); got != tc.want {
			t.Errorf("%s at %s, want %s", tc.what, got, tc.want)
		}
	}
	var gen yaml.Node
	if err := yaml.Unmarshal([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: made\n"), &gen); err != nil {
		t.Fatal(err)
	}
	if files := pl.Place(gen.Content[0], ""); len(files) != 0 {
		t.Errorf("a generated object was placed: %v", files)
	}
}

// nodeAtKeys follows keys from a mapping node.
func nodeAtKeys(n *yaml.Node, keys ...string) *yaml.Node {
	for _, k := range keys {
		_, n = mapEntry(n, k)
		if n == nil {
			return nil
		}
	}
	return n
}
