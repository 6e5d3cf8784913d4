package kustomization

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// PatchFor finds the entry patching an object by the entry's target, by
// an inline patch's kind and name, or by a patch file's; it reads no file
// outside the kustomization's directory.
func TestPatchFor(t *testing.T) {
	t.Parallel()
	root := testtree.Write(t, map[string]string{
		"outside.yaml": "kind: Secret\nmetadata: {name: s}\n",
		"k/kustomization.yaml": `patches:
  - path: ../outside.yaml
  - target: {kind: Image, name: cluster}
    patch: '[{"op": "add", "path": "/spec/x", "value": 1}]'
  - patch: |
      kind: ConfigMap
      metadata: {name: inline}
  - path: cm.yaml
`,
		"k/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: from-file}\n---\nkind: Service\nmetadata: {name: svc}\n",
	})
	k := Parse(filepath.Join(root, "k", "kustomization.yaml"))
	for _, c := range []struct {
		kind, name string
		want       int
	}{
		{"Image", "cluster", 1},
		{"ConfigMap", "inline", 2},
		{"ConfigMap", "from-file", 3},
		{"Service", "svc", 3},
		{"Secret", "s", -1},
		{"ConfigMap", "other", -1},
	} {
		if got := k.PatchFor(c.kind, c.name, NewResolver(manifest.Options{}, nil).Text); got != c.want {
			t.Errorf("PatchFor(%s, %s) = %d, want %d", c.kind, c.name, got, c.want)
		}
	}
}

// A plugin field's entry written as the plugin's configuration is inline,
// not a path that names no file; a path stays a path.
func TestInlinePluginConfig(t *testing.T) {
	t.Parallel()
	root := testtree.Write(t, map[string]string{"kustomization.yaml": `transformers:
  - |-
    apiVersion: builtin
    kind: ReplacementTransformer
    metadata:
      name: names
    replacements: []
  - '{apiVersion: builtin, kind: LabelTransformer, metadata: {name: l}, labels: {a: b}}'
  - labels.yaml
generators:
  - gen.yaml
`})
	k := Parse(filepath.Join(root, "kustomization.yaml"))
	var got []string
	for _, e := range k.Entries {
		if e.Inline != "" {
			got = append(got, e.Field+" inline")
		} else {
			got = append(got, e.Field+" "+e.Value)
		}
	}
	want := []string{"transformers inline", "transformers inline", "transformers labels.yaml", "generators gen.yaml"}
	if !slices.Equal(got, want) {
		t.Errorf("entries %v, want %v", got, want)
	}
}
