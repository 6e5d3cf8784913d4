package main

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A spoke is checked as the release of the ClusterImageSet its site names,
// read from the set's release image, though the set lies in another
// cluster of the tree; the note about an old release is at the set's
// releaseImage, and the pre-commit path given the set's file reports it as
// the full run does.
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
  clusterImageSetNameRef: openshift-current
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
  name: openshift-current
spec:
  releaseImage: quay.io/openshift-release-dev/ocp-release:4.13.30-x86_64
`,
	})
	git := gittest.Runner(t, dir)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "hub")
	t.Chdir(dir)
	want := []string{"release-unmodelled hub/sets.yaml:6:17 [ztp-spoke/old]"}
	for _, paths := range [][]string{{"."}, {"hub/sets.yaml"}} {
		if got := lintJSON(t, paths...); !slices.Equal(got, want) {
			t.Errorf("lint %v: %q, want %q", paths, got, want)
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
