package pipeline

import (
	"context"
	"slices"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/project"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// catalogPolicy is a team policy over a kind mirrorlint has no rules for:
// every CatalogSource image must come from a registry with a mirror set.
const catalogPolicy = `package acme.catalogs

deny contains {
	"rule": "catalog-unmirrored",
	"msg": sprintf("CatalogSource %s pulls %s, which no ImageDigestMirrorSet mirrors", [o.name, o.spec.image]),
	"object": o,
	"path": "spec.image",
} if {
	some o in input.objects
	o.kind == "CatalogSource"
	not o.known
	o.line > 0
	not mirrored(o.spec.image)
}

mirrored(image) if {
	some s in input.objects
	s.kind == "ImageDigestMirrorSet"
	some e in s.spec.imageDigestMirrors
	startswith(image, concat("", [e.source, "/"]))
}
`

// With a policy of the team's own, input.objects holds every object of the
// cluster, of any kind, with its position, and a finding on one of them is
// placed on the value its path names.
func TestPoliciesSeeEveryObject(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"policy/catalogs.rego": catalogPolicy,
		"tree/idms.yaml":       idmsDoc,
		"tree/catalogs.yaml": `apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata:
  name: mirrored
  namespace: openshift-marketplace
spec:
  image: quay.io/openshift-release-dev/ocp-release/catalog:v1
---
apiVersion: operators.coreos.com/v1alpha1
kind: CatalogSource
metadata:
  name: direct
  namespace: openshift-marketplace
spec:
  sourceType: grpc
  image: registry.redhat.io/redhat/redhat-operator-index:v4.16
`,
	})
	checks, err := LoadChecks(policy.Options{Builtin: true, Dirs: []string{dir + "/policy"}})
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), checks, Request{Options: project.Options{Paths: []string{dir + "/tree"}, Config: &config.Config{}}})
	if err != nil {
		t.Fatal(err)
	}
	got := shapes(only(res.Findings, "acme.catalogs/catalog-unmirrored"), dir)
	if want := []string{"error acme.catalogs/catalog-unmirrored tree/catalogs.yaml:16:10"}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}
