package main

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A spoke is checked as the release of the ClusterImageSet its site names,
// read from the set's release image, though the set lies in another
// cluster of the tree; the note about an old release is at the set's
// releaseImage, and the pre-commit path given the set's file reports it as
// the full run does. The cluster of the tree holding the sites without the
// sets leaves the spokes' releases to them: it says nothing of the name
// img4.10-x86-64-appsub, whose set says 4.13.30.
func TestImageSetInAnotherDirectory(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"ztp/kustomization.yaml": "resources: [old.yaml, new.yaml]\n",
		"ztp/old.yaml": `apiVersion: siteconfig.open-cluster-management.io/v1alpha1
kind: ClusterInstance
metadata:
  name: old
  namespace: old
spec:
  clusterName: old
  clusterImageSetNameRef: openshift-stable
`,
		"ztp/new.yaml": `apiVersion: siteconfig.open-cluster-management.io/v1alpha1
kind: ClusterInstance
metadata:
  name: new
  namespace: new
spec:
  clusterName: new
  clusterImageSetNameRef: img4.10-x86-64-appsub
`,
		"hub/kustomization.yaml": "resources: [sets.yaml]\n",
		"hub/sets.yaml": `apiVersion: hive.openshift.io/v1
kind: ClusterImageSet
metadata:
  name: openshift-stable
spec:
  releaseImage: quay.io/openshift-release-dev/ocp-release:4.9.59-x86_64
---
apiVersion: hive.openshift.io/v1
kind: ClusterImageSet
metadata:
  name: img4.10-x86-64-appsub
spec:
  releaseImage: quay.io/openshift-release-dev/ocp-release:4.13.30-x86_64
`,
	})
	git := gittest.Runner(t, dir)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "hub")
	t.Chdir(dir)
	note := []string{"release-unmodelled hub/sets.yaml:6:17 [ztp-spoke/old]"}
	for path, want := range map[string][]string{".": note, "hub/sets.yaml": note, "ztp/new.yaml": nil} {
		if got := lintJSON(t, path); !slices.Equal(got, want) {
			t.Errorf("lint %s: %q, want %q", path, got, want)
		}
	}
	r := mlRun(t, "", "clusters", "--config", "none", "--format", "json", ".")
	var doc struct {
		Clusters []clusterInfo `json:"clusters"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	got := map[string]string{}
	for _, c := range doc.Clusters {
		got[c.Name] = c.OpenShiftVersion
	}
	if got["ztp-spoke/old"] != "4.12" || got["ztp-spoke/new"] != "4.13.30" {
		t.Errorf("versions %v, want ztp-spoke/old 4.12 (4.9 is not modelled), ztp-spoke/new 4.13.30", got)
	}
}

// A stream creates no spoke clusters: its one cluster, which holds all
// there is, tells the spoke's release, from the set it holds.
func TestImageSetInAStream(t *testing.T) {
	stream := `apiVersion: siteconfig.open-cluster-management.io/v1alpha1
kind: ClusterInstance
metadata:
  name: old
  namespace: old
spec:
  clusterName: old
  clusterImageSetNameRef: openshift-stable
---
apiVersion: hive.openshift.io/v1
kind: ClusterImageSet
metadata:
  name: openshift-stable
spec:
  releaseImage: quay.io/openshift-release-dev/ocp-release:4.9.59-x86_64
`
	r := mlRun(t, stream, "lint", "--config", "none", "--format", "json", "-")
	var doc struct {
		Findings []fleetFinding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	var got []string
	for _, f := range doc.Findings {
		got = append(got, fmt.Sprintf("%s %s:%d:%d", f.Rule, f.File, f.Line, f.Column))
	}
	if want := []string{"release-unmodelled -:15:17"}; !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
}
