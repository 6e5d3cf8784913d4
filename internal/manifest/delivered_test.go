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
