package cluster_test

import (
	"slices"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const eastPolicy = `apiVersion: policy.open-cluster-management.io/v1
kind: Policy
metadata:
  name: mirrors
  namespace: policies
spec:
  remediationAction: enforce
  policy-templates:
  - objectDefinition:
      apiVersion: policy.open-cluster-management.io/v1
      kind: ConfigurationPolicy
      metadata:
        name: mirrors-idms
      spec:
        remediationAction: enforce
        object-templates:
        - complianceType: musthave
          objectDefinition:
            apiVersion: config.openshift.io/v1
            kind: ImageDigestMirrorSet
            metadata:
              name: apps
            spec:
              imageDigestMirrors:
              - source: quay.io/acme/app
                mirrors:
                - registry.east.example/acme/app
`

const westIDMS = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: apps
spec:
  imageDigestMirrors:
  - source: quay.io/acme/app
    mirrors:
    - registry.west.example/acme/app
`

// A layout cluster holding only an ACM Policy gives the policy's objects a
// cluster of their own, listed once, and the layout's next cluster stays:
// the policy's cluster was inserted into Clusters and All, which shared
// their array with room to spare (a top-level file makes it grow past the
// clusters kept), so it came out twice and clusters/west was lost.
func TestPolicyClusterListedOnce(t *testing.T) {
	root := t.TempDir()
	testtree.WriteAt(t, root, map[string]string{
		"platform/clusters/east/policy.yaml": eastPolicy,
		"platform/clusters/west/idms.yaml":   westIDMS,
		".mirrorlint.yaml":                   "failOn: error\n",
	})
	t.Chdir(root)
	for _, arg := range []string{".", "platform"} {
		res, err := cluster.Discover(cluster.Options{Paths: []string{arg}, Root: root})
		if err != nil {
			t.Fatal(err)
		}
		res.Load(res.Clusters, cluster.LoadOptions{})
		res.DropEmpty(nil)
		var names, all []string
		for _, c := range res.Clusters {
			names = append(names, c.Name)
		}
		for _, c := range res.All() {
			all = append(all, c.Name)
		}
		want := []string{"platform/clusters/east/Policy/policies/mirrors", "platform/clusters/west"}
		if !slices.Equal(names, want) || !slices.Equal(all, want) {
			t.Errorf("%s: clusters %q, all %q; want %q", arg, names, all, want)
		}
	}
}
