package inputs

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

// imageSetSite is a ClusterInstance whose clusterImageSetNameRef is ref.
func imageSetSite(name, ref string) string {
	return `apiVersion: siteconfig.open-cluster-management.io/v1alpha1
kind: ClusterInstance
metadata:
  name: ` + name + `
  namespace: ` + name + `
spec:
  clusterName: ` + name + `
  clusterImageSetNameRef: ` + ref + `
`
}

// imageSet is a ClusterImageSet; its releaseImage is on line 6, column 17.
func imageSet(name, release string) string {
	return `apiVersion: hive.openshift.io/v1
kind: ClusterImageSet
metadata:
  name: ` + name + `
spec:
  releaseImage: ` + release + `
`
}

// releaseNotes are the release-unmodelled findings of res.
func releaseNotes(res *Result) []Finding {
	var out []Finding
	for _, f := range res.Findings {
		if f.Rule == RuleReleaseUnmodelled {
			out = append(out, f)
		}
	}
	return out
}

// onlySpoke is res's one cluster, failing the test otherwise.
func onlySpoke(t *testing.T, res *Result) *Cluster {
	t.Helper()
	if len(res.Clusters) != 1 {
		t.Fatalf("clusters %d, want 1", len(res.Clusters))
	}
	return res.Clusters[0]
}

// The spoke's release is its ClusterImageSet's release image tag, patch
// included, whatever the set's name says; the set is one of the spoke's
// inputs.
func TestImageSetReleaseImage(t *testing.T) {
	res := readTree(t, map[string]string{
		"site.yaml": imageSetSite("sno1", "img4.10-x86-64-appsub"),
		"cis.yaml":  imageSet("img4.10-x86-64-appsub", "quay.io/openshift-release-dev/ocp-release:4.13.30-x86_64"),
	}, render.Version{})
	c := onlySpoke(t, res)
	if c.Version != (render.Version{Minor: 13, Patch: 30}) {
		t.Errorf("version %v, want 4.13.30 from the release image", c.Version)
	}
	if n := releaseNotes(res); len(n) != 0 {
		t.Errorf("notes %v for a modelled release", n)
	}
	if !slices.ContainsFunc(c.Inputs, func(o *manifest.Object) bool { return o.Kind == KindClusterImageSet }) {
		t.Errorf("inputs %v lack the ClusterImageSet", c.Inputs)
	}
}

// An unmodelled release read from the release image is noted at the
// set's releaseImage, naming the site's reference and the set.
func TestImageSetOldRelease(t *testing.T) {
	res := readTree(t, map[string]string{
		"sites/site.yaml": imageSetSite("sno1", "openshift-v4.9.5"),
		"hub/cis.yaml":    imageSet("openshift-v4.9.5", "quay.io/openshift-release-dev/ocp-release:4.9.5-x86_64"),
	}, render.Version{})
	c := onlySpoke(t, res)
	if c.Version != (render.Version{Minor: 12, Patch: -1}) {
		t.Errorf("version %v, want 4.12, the oldest modelled", c.Version)
	}
	n := releaseNotes(res)
	if len(n) != 1 {
		t.Fatalf("notes %v, want one", n)
	}
	f := n[0]
	if filepath.Base(f.Pos.File) != "cis.yaml" || f.Pos.Line != 6 || f.Pos.Column != 17 {
		t.Errorf("note at %v, want cis.yaml:6:17", f.Pos)
	}
	for _, want := range []string{
		"ClusterImageSet openshift-v4.9.5 (clusterImageSetNameRef of ClusterInstance/sno1, ",
		"sites/site.yaml:8:27): spec.releaseImage quay.io/openshift-release-dev/ocp-release:4.9.5-x86_64 names OpenShift 4.9, ",
		"checked and rendered as 4.12",
	} {
		if !strings.Contains(f.Message, want) {
			t.Errorf("message %q lacks %q", f.Message, want)
		}
	}
}

// A release image by digest names no release without a pull: the name
// is read instead, and a note goes where the name is written. The set
// is still an input of the spoke.
func TestImageSetDigestFallsBackToName(t *testing.T) {
	res := readTree(t, map[string]string{
		"site.yaml": imageSetSite("sno1", "img4.9.x-x86-64-appsub"),
		"cis.yaml":  imageSet("img4.9.x-x86-64-appsub", "quay.io/openshift-release-dev/ocp-release@sha256:"+sha),
	}, render.Version{})
	c := onlySpoke(t, res)
	if c.Version != (render.Version{Minor: 12, Patch: -1}) || len(c.Inputs) != 2 {
		t.Errorf("version %v, inputs %d: want 4.12 and the site and set", c.Version, len(c.Inputs))
	}
	n := releaseNotes(res)
	if len(n) != 1 || filepath.Base(n[0].Pos.File) != "site.yaml" || n[0].Pos.Line != 8 ||
		!strings.HasPrefix(n[0].Message, "clusterImageSetNameRef img4.9.x-x86-64-appsub names OpenShift 4.9, ") {
		t.Errorf("notes %v, want one at site.yaml:8 from the name", n)
	}
}

// Without the set in the tree the name is all there is; a name before
// 4.10 is an old release, not no release.
func TestImageSetNameOnly(t *testing.T) {
	for ref, want := range map[string]render.Version{
		"img4.9.x-x86-64-appsub":  {Minor: 12, Patch: -1},
		"openshift-4.9":           {Minor: 12, Patch: -1},
		"img4.14.5-x86-64-appsub": {Minor: 14, Patch: 5},
		"active-ocp-version":      {},
	} {
		res := readTree(t, map[string]string{"site.yaml": imageSetSite("sno1", ref)}, render.Version{})
		if got := onlySpoke(t, res).Version; got != want {
			t.Errorf("%s: version %v, want %v", ref, got, want)
		}
		if old := want.Minor == 12; old != (len(releaseNotes(res)) == 1) {
			t.Errorf("%s: notes %v", ref, releaseNotes(res))
		}
	}
}

// Several hubs' ClusterImageSets of one name: each site reads the one
// nearest it, as it is installed through the hub nearest it.
func TestImageSetNearest(t *testing.T) {
	res := readTree(t, map[string]string{
		"hub-a/cis.yaml":        imageSet("openshift-stable", "quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64"),
		"hub-a/sites/site.yaml": imageSetSite("a1", "openshift-stable"),
		"hub-b/cis.yaml":        imageSet("openshift-stable", "quay.io/openshift-release-dev/ocp-release:4.18.1-x86_64"),
		"hub-b/sites/site.yaml": imageSetSite("b1", "openshift-stable"),
	}, render.Version{})
	got := map[string]string{}
	for _, c := range res.Clusters {
		got[c.Name] = c.Version.String()
	}
	if got["a1"] != "4.16.3" || got["b1"] != "4.18.1" {
		t.Errorf("versions %v, want a1 4.16.3 and b1 4.18.1", got)
	}
}

// A hand-written AgentClusterInstall's spec.imageSetRef is resolved the
// same way; a ClusterImageSet of another API group is not hive's.
func TestImageSetAgentClusterInstall(t *testing.T) {
	aci := `apiVersion: extensions.hive.openshift.io/v1beta1
kind: AgentClusterInstall
metadata:
  name: sno1
  namespace: sno1
spec:
  clusterDeploymentRef:
    name: sno1
  imageSetRef:
    name: openshift-v4100-rc1
`
	res := readTree(t, map[string]string{
		"aci.yaml": aci,
		"cis.yaml": imageSet("openshift-v4100-rc1", "quay.io/openshift-release-dev/ocp-release:4.10.0-rc.1-x86_64"),
	}, render.Version{})
	n := releaseNotes(res)
	if len(n) != 1 || !strings.HasPrefix(n[0].Message, "ClusterImageSet openshift-v4100-rc1 (imageSetRef of AgentClusterInstall/sno1, ") ||
		!strings.Contains(n[0].Message, "names OpenShift 4.10, ") {
		t.Errorf("notes %v", n)
	}
	other := strings.Replace(imageSet("openshift-v4100-rc1", "quay.io/x/release:4.10.0-x86_64"), "hive.openshift.io/v1", "example.com/v1", 1)
	res = readTree(t, map[string]string{"aci.yaml": aci, "cis.yaml": other}, render.Version{})
	if c := onlySpoke(t, res); !c.Version.IsZero() || len(c.Inputs) != 1 || len(releaseNotes(res)) != 0 {
		t.Errorf("version %v, inputs %d, notes %v: another group's object was read", c.Version, len(c.Inputs), releaseNotes(res))
	}
}
