package manifest

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// deliveredPullers is a Policy delivering a mirror set and three objects
// that pull images: a CatalogSource with a template only in a label, a
// Deployment whose image is a template, and a Job removed (mustnothave).
const deliveredPullers = `apiVersion: policy.open-cluster-management.io/v1
kind: Policy
metadata:
  name: disconnected
  namespace: fleet
spec:
  policy-templates:
  - objectDefinition:
      apiVersion: policy.open-cluster-management.io/v1
      kind: ConfigurationPolicy
      metadata:
        name: disconnected
      spec:
        object-templates:
        - complianceType: musthave
          objectDefinition:
            apiVersion: config.openshift.io/v1
            kind: ImageDigestMirrorSet
            metadata:
              name: disconnected
            spec:
              imageDigestMirrors:
              - source: quay.io/acme
                mirrors:
                - mirror.example.com/acme
        - complianceType: musthave
          objectDefinition:
            apiVersion: operators.coreos.com/v1alpha1
            kind: CatalogSource
            metadata:
              name: acme-operators
              namespace: openshift-marketplace
              labels:
                team: '{{hub fromConfigMap "" "teams" "acme" hub}}'
            spec:
              sourceType: grpc
              image: quay.io/acme/operator-index:v4.21
        - complianceType: musthave
          objectDefinition:
            apiVersion: apps/v1
            kind: Deployment
            metadata:
              name: agent
            spec:
              template:
                spec:
                  containers:
                  - name: agent
                    image: '{{hub fromConfigMap "" "images" "agent" hub}}'
        - complianceType: mustnothave
          objectDefinition:
            apiVersion: batch/v1
            kind: Job
            metadata:
              name: old
            spec:
              template:
                spec:
                  containers:
                  - name: old
                    image: quay.io/acme/old:v1
`

// What a policy delivers that pulls images is kept, as a workload written
// out is, when the run keeps such objects, and belongs to the policy: its
// images are judged on the clusters the policy reaches. An image that is a
// template is reported, not judged; a template elsewhere in the object
// hides nothing. Runs that keep no unmodelled objects read none of this.
func TestDeliveredObjectsThatPullImages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "policy.yaml")
	if err := os.WriteFile(file, []byte(deliveredPullers), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		keep      Unmodelled
		objects   []string
		templates []string
	}{
		{UnmodelledNone, []string{"ImageDigestMirrorSet/disconnected Policy/fleet/disconnected"}, nil},
		{UnmodelledImages, []string{
			"ImageDigestMirrorSet/disconnected Policy/fleet/disconnected",
			"CatalogSource/acme-operators Policy/fleet/disconnected partial quay.io/acme/operator-index:v4.21@" + file + ":37:22",
		}, []string{file + ":49:28 Deployment/agent in Policy/fleet/disconnected holds a hub template"}},
		// Every object whole, the Policy itself too: a template anywhere
		// in a delivered one keeps it out.
		{UnmodelledAll, []string{
			"ImageDigestMirrorSet/disconnected Policy/fleet/disconnected",
			"Policy/disconnected ",
		}, []string{
			file + ":34:23 CatalogSource/acme-operators in Policy/fleet/disconnected holds a hub template",
			file + ":49:28 Deployment/agent in Policy/fleet/disconnected holds a hub template",
		}},
	} {
		set, err := Load([]string{file}, Options{Unmodelled: tc.keep})
		if err != nil {
			t.Fatal(err)
		}
		var objects, templates []string
		for _, o := range set.Objects {
			s := o.Ref() + " " + o.DeliveredBy
			if o.Partial {
				s += " partial"
			}
			for _, r := range o.Images() {
				s += " " + r.Image + "@" + o.Locate(r.Path).String()
			}
			objects = append(objects, s)
		}
		for _, p := range set.Problems {
			if p.Code != CodePolicyTemplate {
				t.Errorf("keep %d: problem %+v", tc.keep, p)
				continue
			}
			what, _, _ := strings.Cut(p.Message, " ({{")
			templates = append(templates, p.Pos.String()+" "+what)
		}
		if !slices.Equal(objects, tc.objects) {
			t.Errorf("keep %d: objects\n%s\nwant\n%s", tc.keep, strings.Join(objects, "\n"), strings.Join(tc.objects, "\n"))
		}
		if !slices.Equal(templates, tc.templates) {
			t.Errorf("keep %d: templates\n%s\nwant\n%s", tc.keep, strings.Join(templates, "\n"), strings.Join(tc.templates, "\n"))
		}
	}
}

// A PolicyGenerator's CatalogSources, made from source CRs: the image a
// patch writes is placed on the generator's line, the one inherited from
// the source CR on the source CR's; both belong to the generator's policy.
func TestGeneratedObjectsThatPullImages(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	files := map[string]string{
		"gen.yaml": `apiVersion: policy.open-cluster-management.io/v1
kind: PolicyGenerator
metadata:
  name: common
policyDefaults:
  namespace: ztp-common
policies:
  - name: catalogs
    manifests:
      - path: source-crs/Catsrc.yaml
        patches:
          - metadata:
              name: patched
            spec:
              image: mirror.example.com:5000/olm/index:v4.21
      - path: source-crs/Other.yaml
`,
		"source-crs/Catsrc.yaml": "apiVersion: operators.coreos.com/v1alpha1\nkind: CatalogSource\nmetadata:\n  name: default\n  namespace: openshift-marketplace\nspec:\n  sourceType: grpc\n  image: $imageUrl\n",
		"source-crs/Other.yaml":  "apiVersion: operators.coreos.com/v1alpha1\nkind: CatalogSource\nmetadata:\n  name: other\n  namespace: openshift-marketplace\nspec:\n  sourceType: grpc\n  image: quay.io/acme/index:v1\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gen := filepath.Join(dir, "gen.yaml")
	set, err := Load([]string{gen}, Options{Unmodelled: UnmodelledImages})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range set.Objects {
		s := o.Ref() + " " + o.DeliveredBy + " " + o.File
		for _, r := range o.Images() {
			s += " " + r.Image + "@" + o.Locate(r.Path).String()
		}
		s += " " + strings.Join(o.OtherFiles(), ",")
		got = append(got, s)
	}
	other := filepath.Join(dir, "source-crs/Other.yaml")
	want := []string{
		"CatalogSource/patched Policy/ztp-common/catalogs " + gen + " mirror.example.com:5000/olm/index:v4.21@" + gen + ":15:22 " + filepath.Join(dir, "source-crs/Catsrc.yaml"),
		"CatalogSource/other Policy/ztp-common/catalogs " + gen + " quay.io/acme/index:v1@" + other + ":8:10 " + other,
	}
	if !slices.Equal(got, want) {
		t.Errorf("objects\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, p := range set.Problems {
		t.Errorf("problem %+v", p)
	}
}
