package cluster

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// TestKustomizationShapeError: kustomize reports a malformed entry with
// encoding/json's text, naming Go types and no entry; the problem words it
// for a person and points at the entry whose shape is wrong.
func TestKustomizationShapeError(t *testing.T) {
	root := copyTree(t, "testdata/gitops")
	testtree.WriteFile(t, filepath.Join(root, "overlays/shape/kustomization.yaml"), `apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - ../../base

patches:
  - path: a.yaml
    target:
      kind: ImageDigestMirrorSet
  - patch: '[]'
  - b.yaml
`)
	testtree.WriteFile(t, filepath.Join(root, "overlays/shape/a.yaml"), "[]\n")
	testtree.WriteFile(t, filepath.Join(root, "overlays/resources/kustomization.yaml"), `resources:
  - ../../base
  - {path: x.yaml}
`)
	testtree.WriteFile(t, filepath.Join(root, "overlays/labels/kustomization.yaml"), `resources:
  - ../../base
commonLabels: [a, b]
`)
	testtree.WriteFile(t, filepath.Join(root, "overlays/unknown/kustomization.yaml"), `resources:
  - ../../base
patches:
  - path: a.yaml
  - pth: a.yaml
`)
	testtree.WriteFile(t, filepath.Join(root, "overlays/unknown/a.yaml"), "[]\n")
	res := discover(t, root)
	cases := []struct{ name, at, msg string }{
		{"overlays/shape", "overlays/shape/kustomization.yaml:11:5", "invalid kustomization: patches[2]: expected a mapping (path:, patch:, target: or options:), found a string (\"b.yaml\")"},
		{"overlays/resources", "overlays/resources/kustomization.yaml:3:5", "invalid kustomization: resources[1]: expected a string, found a mapping"},
		{"overlays/unknown", "overlays/unknown/kustomization.yaml:5:5", "invalid kustomization: patches[1]: unknown field \"pth\" (expected path:, patch:, target: or options:)"},
		{"overlays/labels", "overlays/labels/kustomization.yaml:3:15", "invalid kustomization: commonLabels: expected a mapping (key: value), found a list"},
	}
	for _, c := range cases {
		cl := byName(t, res, c.name)
		if len(cl.Problems) != 1 {
			t.Errorf("%s: problems %v", c.name, cl.Problems)
			continue
		}
		p := cl.Problems[0]
		if !strings.HasSuffix(p.Pos.String(), c.at) || p.Message != c.msg || p.Code != "kustomize-error" {
			t.Errorf("%s:\n got  %s %s\n want %s %s", c.name, p.Pos, p.Message, c.at, c.msg)
		}
		if strings.Contains(p.Message, "Go struct") || strings.Contains(p.Message, "json:") {
			t.Errorf("%s: Go text in %q", c.name, p.Message)
		}
	}
}
