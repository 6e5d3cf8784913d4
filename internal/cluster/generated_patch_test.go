package cluster_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// generatedPatchKustomization lists a PolicyGenTemplate under
// generators: and patches two of the Policies it makes (inline, and in a
// file), as ZTP repositories do to annotate a policy, besides a patch of
// its own resource.
const generatedPatchKustomization = `generators:
  - group-du-ranGen.yaml
resources:
  - hub-idms.yaml
patches:
  - patch: |-
      apiVersion: policy.open-cluster-management.io/v1
      kind: Policy
      metadata:
        name: group-du-config-policy
        namespace: ztp-group
        annotations:
          ran.openshift.io/soak-seconds: "30"
  - path: sub-policy-patch.yaml
  - target:
      kind: ImageDigestMirrorSet
      name: hub
    patch: |-
      - op: replace
        path: /spec/imageDigestMirrors/0/mirrors/0
        value: registry.example.com:5000/Hub
`

// TestPatchOfGeneratedPolicy: a patch of what the in-process generators
// make cannot be applied by the build that runs without them (kustomize
// finds no such object, as the real kustomize says when it has no
// generators to run); it is left out with one info at its entry, and the
// rest is built and linted: the other patch applies, the generated policy
// is its own cluster.
func TestPatchOfGeneratedPolicy(t *testing.T) {
	root := t.TempDir()
	testtree.WriteAt(t, root, map[string]string{
		"site-policies/kustomization.yaml": generatedPatchKustomization,
		"site-policies/group-du-ranGen.yaml": `apiVersion: ran.openshift.io/v1
kind: PolicyGenTemplate
metadata:
  name: group-du
  namespace: ztp-group
spec:
  bindingRules:
    group-du: ""
  sourceFiles:
    - fileName: DisconnectedIDMS.yaml
      policyName: config-policy
      spec:
        imageDigestMirrors:
          - mirrors:
              - registry.example.com:5000/OCP
    - fileName: DisconnectedIDMS.yaml
      policyName: sub-policy
`,
		"site-policies/source-crs/DisconnectedIDMS.yaml": `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: disconnected-idms
spec:
  imageDigestMirrors:
    - source: registry.redhat.io/rhel9
      mirrors:
        - registry.example.com:5000/rhel9
`,
		"site-policies/sub-policy-patch.yaml": `apiVersion: policy.open-cluster-management.io/v1
kind: Policy
metadata:
  name: group-du-sub-policy
  namespace: ztp-group
spec:
  disabled: true
`,
		"site-policies/hub-idms.yaml": `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: hub
spec:
  imageDigestMirrors:
    - source: registry.redhat.io/acm
      mirrors:
        - registry.example.com:5000/acm
`,
	})

	// The real kustomize, given the same kustomization without the
	// generator it cannot run, gives the error the build leaves the patch
	// out on.
	bin, err := filepath.Abs("../../bin/tools/kustomize")
	if err != nil {
		t.Fatal(err)
	}
	bare := t.TempDir()
	if err := os.CopyFS(bare, os.DirFS(filepath.Join(root, "site-policies"))); err != nil {
		t.Fatal(err)
	}
	testtree.WriteAt(t, bare, map[string]string{"kustomization.yaml": strings.Replace(generatedPatchKustomization, "generators:\n  - group-du-ranGen.yaml\n", "", 1)})
	out, err := exec.Command(bin, "build", bare).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "failed to find unique target for patch Policy.v1.policy.open-cluster-management.io/group-du-config-policy.ztp-group") {
		t.Fatalf("kustomize build without the generator: %v %s", err, out)
	}

	findings, clusters := lintTree(t, root)
	at := func(file, after, text string) string { return textAt(t, root, file, after, text) }
	for _, want := range []string{
		"plugin-not-run " + at("site-policies/kustomization.yaml", "", "patch: |-") + " [site-policies]",
		"plugin-not-run " + at("site-policies/kustomization.yaml", "", "path: sub-policy-patch.yaml") + " [site-policies]",
		"repository-lowercase " + at("site-policies/kustomization.yaml", "", "registry.example.com:5000/Hub") + " [site-policies]",
		"repository-lowercase " + at("site-policies/group-du-ranGen.yaml", "", "registry.example.com:5000/OCP") + " [site-policies/Policy/ztp-group/group-du-config-policy]",
		"not-applied site-policies/source-crs/DisconnectedIDMS.yaml:1:1 [site-policies/source-crs]",
	} {
		if !slices.Contains(findings, want) {
			t.Errorf("missing finding %s\nfindings:\n%s", want, strings.Join(findings, "\n"))
		}
	}
	if len(findings) != 5 {
		t.Errorf("findings:\n%s", strings.Join(findings, "\n"))
	}
	for _, name := range []string{"group-du-config-policy", "group-du-sub-policy"} {
		if !slices.ContainsFunc(clusters, func(c string) bool {
			return strings.HasPrefix(c, "site-policies/Policy/ztp-group/"+name+": ImageDigestMirrorSet/disconnected-idms@")
		}) {
			t.Errorf("no cluster of %s:\n%s", name, strings.Join(clusters, "\n"))
		}
	}

	res, err := cluster.Discover(cluster.Options{Paths: []string{root}, Root: root})
	if err != nil {
		t.Fatal(err)
	}
	res.Load(res.Clusters, cluster.LoadOptions{})
	var cl *cluster.Cluster
	for _, c := range res.Clusters {
		if c.Name == "site-policies" {
			cl = c
		}
	}
	if cl == nil {
		t.Fatal("no cluster site-policies")
	}
	const msg = "patches entry targets Policy group-du-config-policy, which only the PolicyGenTemplate/PolicyGenerator generators make: mirrorlint expands them itself, without kustomize's patches, so this patch is not applied to what they make; the rest of the kustomization is built and linted"
	if len(cl.Problems) != 2 || cl.Problems[0].Message != msg || cl.Problems[0].Code != "plugin-not-run" || !cl.Problems[0].Warning {
		t.Errorf("problems: %v", cl.Problems)
	}
}
