package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// spokeReleaseTree is a hub with one mirror and two sites: old names a
// 4.9 release, mid a 4.13 one, by ClusterImageSets beside the hub.
func spokeReleaseTree(t *testing.T) string {
	t.Helper()
	site := func(name, set string) string {
		return "apiVersion: siteconfig.open-cluster-management.io/v1alpha1\nkind: ClusterInstance\nmetadata:\n  name: " + name +
			"\n  namespace: " + name + "\nspec:\n  clusterName: " + name + "\n  clusterImageSetNameRef: " + set + "\n"
	}
	set := func(name, tag string) string {
		return "apiVersion: hive.openshift.io/v1\nkind: ClusterImageSet\nmetadata:\n  name: " + name +
			"\nspec:\n  releaseImage: quay.io/openshift-release-dev/ocp-release:" + tag + "\n"
	}
	return testtree.Write(t, map[string]string{
		"sites/kustomization.yaml": "resources: [old.yaml, mid.yaml]\n",
		"sites/old.yaml":           site("old", "openshift-old"),
		"sites/mid.yaml":           site("mid", "openshift-mid"),
		"hub/kustomization.yaml":   "resources: [hub.yaml, sets.yaml]\n",
		"hub/sets.yaml":            set("openshift-old", "4.9.59-x86_64") + "---\n" + set("openshift-mid", "4.13.30-x86_64"),
		"hub/hub.yaml":             releaseHub,
	})
}

// spokeRuns lints dir and lists its clusters with the extra flags, and
// returns each spoke's release and mirror kinds, and the release notes.
func spokeRuns(t *testing.T, dir string, flags ...string) (versions, kinds map[string]string, notes []string) {
	t.Helper()
	r := mlRun(t, "", append(append([]string{"lint", "--config", "none", "--format", "json"}, flags...), dir)...)
	var lint struct {
		Findings []struct{ Rule, Message string } `json:"findings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &lint); err != nil {
		t.Fatalf("%v\n%s\n%s", err, r.stdout, r.stderr)
	}
	for _, f := range lint.Findings {
		if f.Rule == "release-unmodelled" {
			notes = append(notes, f.Message)
		}
	}
	r = mlRun(t, "", append(append([]string{"clusters", "--config", "none", "--format", "json"}, flags...), dir)...)
	var doc struct {
		Clusters []clusterInfo `json:"clusters"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	versions, kinds = map[string]string{}, map[string]string{}
	for _, c := range doc.Clusters {
		versions[c.Name] = c.OpenShiftVersion
		for _, k := range []string{"ImageContentSourcePolicy", "ImageDigestMirrorSet"} {
			if c.Kinds[k] > 0 {
				kinds[c.Name] = k
			}
		}
	}
	return versions, kinds, notes
}

// A spoke before 4.14 gets ImageContentSourcePolicies, which are the
// installer's, not the tree's; its release-unmodelled note says the
// release it is checked as. With --openshift-version that release is
// every spoke's, objects included, and the note says so rather than
// naming the nearest modelled release.
func TestSpokeReleaseFromSetOrFlag(t *testing.T) {
	t.Parallel()
	dir := spokeReleaseTree(t)
	versions, kinds, notes := spokeRuns(t, dir)
	if versions["ztp-spoke/old"] != "4.12" || versions["ztp-spoke/mid"] != "4.13.30" ||
		kinds["ztp-spoke/old"] != "ImageContentSourcePolicy" || kinds["ztp-spoke/mid"] != "ImageContentSourcePolicy" {
		t.Errorf("versions %v, kinds %v; want old 4.12 and mid 4.13.30, both with ICSPs", versions, kinds)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "names OpenShift 4.9, outside the releases mirrorlint models (4.12–4.21): the cluster is checked and rendered as 4.12, whose MCO and installer may differ from its own") {
		t.Errorf("notes %q", notes)
	}
	// The installer's ICSPs are no file to convert: icsp-deprecated says
	// nothing of the 4.13 spoke's.
	if r := mlRun(t, "", "lint", "--config", "none", "--fail-on", "info", dir); r.code != 1 || strings.Contains(r.stdout, "icsp-deprecated") {
		t.Errorf("lint: exit %d\n%s", r.code, r.stdout)
	}

	versions, kinds, notes = spokeRuns(t, dir, "--openshift-version", "4.16")
	if versions["ztp-spoke/old"] != "4.16" || versions["ztp-spoke/mid"] != "4.16" ||
		kinds["ztp-spoke/old"] != "ImageDigestMirrorSet" || kinds["ztp-spoke/mid"] != "ImageDigestMirrorSet" {
		t.Errorf("--openshift-version 4.16: versions %v, kinds %v; want 4.16 and an IDMS for both", versions, kinds)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "names OpenShift 4.9, outside the releases mirrorlint models (4.12–4.21): the cluster is checked and rendered as 4.16, the release the run is given (--openshift-version or openshiftVersion), not the nearest modelled one") {
		t.Errorf("--openshift-version 4.16: notes %q", notes)
	}
}

// A SiteConfig of two sites of two releases is an input of both spokes:
// each spoke's cluster reads the other site as that site's own cluster
// does (its ClusterImageSet included), so what is said of an override is
// said once, the same in both: the 4.13 site's imageDigestSources are
// dropped, the 4.16 site's replace the hub's.
func TestSpokeSiblingsOfOneSiteConfig(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"sets.yaml": `apiVersion: hive.openshift.io/v1
kind: ClusterImageSet
metadata:
  name: set-413
spec:
  releaseImage: quay.io/openshift-release-dev/ocp-release:4.13.30-x86_64
---
apiVersion: hive.openshift.io/v1
kind: ClusterImageSet
metadata:
  name: set-416
spec:
  releaseImage: quay.io/openshift-release-dev/ocp-release:4.16.3-x86_64
`,
		"siteconfig.yaml": `apiVersion: ran.openshift.io/v1
kind: SiteConfig
metadata:
  name: sites
  namespace: sites
spec:
  baseDomain: example.com
  clusterImageSetNameRef: set-416
  clusters:
  - clusterName: a
    clusterImageSetNameRef: set-413
    installConfigOverrides: '{"imageDigestSources":[{"source":"quay.io/a","mirrors":["m.example.com/a"]}]}'
  - clusterName: b
    installConfigOverrides: '{"imageDigestSources":[{"source":"quay.io/b","mirrors":["m.example.com/b"]}]}'
`,
		"hub.yaml": releaseHub,
	})
	want := []string{
		"install-config-overrides-replaces-hub-mirrors siteconfig.yaml:14:31 [ztp-spoke/a ztp-spoke/b]",
		"install-config-unknown-field siteconfig.yaml:12:31 [ztp-spoke/a ztp-spoke/b]",
	}
	var got []string
	for _, f := range lintJSON(t, dir) {
		got = append(got, strings.ReplaceAll(f, dir+"/", ""))
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings\n%q\nwant\n%q", got, want)
	}
}

// releaseHub is the hub both trees install their spokes from: the release
// mirrored.
var releaseHub = testtree.HubFile("mirrors", "[[registry]]\nlocation = \"quay.io/openshift-release-dev/ocp-release\"\n[[registry.mirror]]\nlocation = \"mirror.example.com/ocp/release\"\n")
