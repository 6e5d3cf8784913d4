package pipeline

import (
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// kustomizedPolicyTree is a PolicyGenerator whose manifest paths are
// directories holding kustomizations, as ACM policy repositories write
// them: one builds (a base above it, a resource beside it, inline JSON
// 6902 patches: one replacing a value, one inserting a mirror before the
// base's), one does not (a resource that is not there).
var kustomizedPolicyTree = map[string]string{
	"policies/kustomization.yaml": "generators:\n  - generator.yaml\n",
	"policies/generator.yaml": `apiVersion: policy.open-cluster-management.io/v1
kind: PolicyGenerator
metadata:
  name: mirrors
policyDefaults:
  namespace: fleet
policies:
  - name: mirrors
    manifests:
      - path: idms
  - name: broken
    manifests:
      - path: broken
`,
	"policies/idms/kustomization.yaml": `resources:
  - ../../base
  - idms.yaml
patches:
  - target:
      kind: ImageDigestMirrorSet
      name: base
    patch: |
      - op: replace
        path: /spec/imageDigestMirrors/0/source
        value: quay.io/Patched/app
      - op: add
        path: /spec/imageDigestMirrors/0/mirrors/0
        value: mirror.example.com/first/app
`,
	"policies/idms/idms.yaml": `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: team
spec:
  imageDigestMirrors:
    - source: quay.io/TeamA/app
      mirrors:
        - mirror.example.com/teama/app
`,
	"base/kustomization.yaml": "resources:\n  - idms.yaml\n",
	"base/idms.yaml": `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: base
spec:
  imageDigestMirrors:
    - source: quay.io/base/app
      mirrors:
        - mirror.example.com/Base/app
`,
	"policies/broken/kustomization.yaml": "resources:\n  - absent.yaml\n",
}

// A PolicyGenerator manifest path that is a kustomization delivers what
// kustomize builds from it, as the policy generator does: its objects are
// the policy's, linted, each value reported in the file and at the line
// that wrote it (the base, the resource beside the kustomization, the
// inline patch; a base's value a patch moved down stays on the base's
// line). A kustomization that does not build fails the generator: a
// generator-invalid error at the path entry, with kustomize's reason.
func TestKustomizedPolicyManifests(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, kustomizedPolicyTree)
	fs := lintTree(t, nil, dir)
	// What the policy delivers (the kustomization is a cluster of its
	// own too, linted as its own build).
	var delivered []check.Finding
	for _, f := range only(fs, "repository-lowercase") {
		if slices.Contains(f.Clusters, "policies/Policy/fleet/mirrors") {
			delivered = append(delivered, f)
		}
	}
	lower := shapes(delivered, dir)
	want := []string{
		"error repository-lowercase base/idms.yaml:9:11",                    // the base's mirror, moved down by the inserted one
		"error repository-lowercase policies/idms/idms.yaml:7:15",           // the resource's source
		"error repository-lowercase policies/idms/kustomization.yaml:11:16", // the source the patch replaced
	}
	if !slices.Equal(lower, want) {
		t.Errorf("repository-lowercase at\n  %s\nwant\n  %s", strings.Join(lower, "\n  "), strings.Join(want, "\n  "))
	}
	invalid := only(fs, "generator-invalid")
	if got := shapes(invalid, dir); !slices.Equal(got, []string{"error generator-invalid policies/generator.yaml:13:15"}) {
		t.Fatalf("generator-invalid: %v", got)
	}
	if msg := invalid[0].Message; !strings.Contains(msg, "policies/broken is a kustomization that kustomize cannot build, so the policy generator fails") || !strings.Contains(msg, "absent.yaml") {
		t.Errorf("message %q does not give kustomize's reason", msg)
	}

	// A commit of the base alone (the hook passes the file, reads
	// confined to the repository) checks the policy it reaches.
	checks, err := LoadChecks(policy.Options{Builtin: true})
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, f := range given(t, checks, dir, "base/idms.yaml", true).Findings {
		found = found || f.Rule == "repository-lowercase" && f.Line == 9 && f.Column == 11 && slices.Contains(f.Clusters, "policies/Policy/fleet/mirrors")
	}
	if !found {
		t.Errorf("a commit of base/idms.yaml does not report the policy's mirror")
	}
}
