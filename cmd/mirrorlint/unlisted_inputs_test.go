package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// unlistedInputsRepo commits a repository whose kustomizations each list
// one ClusterInstance or HostedCluster and leave another beside it
// unlisted. Every one of them holds a mistake: a mirror given twice in the
// ClusterInstances' installConfigOverrides, an upper-case repository path
// in the listed HostedCluster, and a mirror given twice in the unlisted
// one, which the HostedCluster CRD refuses.
func unlistedInputsRepo(t *testing.T) string {
	t.Helper()
	ci := func(name string) string {
		return testtree.ClusterInstance(name, "openshift-4.20",
			`{"imageDigestSources": [{"source": "quay.io/openshift-release-dev/ocp-release", "mirrors": ["m.example.com/ocp", "m.example.com/ocp"]}]}`)
	}
	hc := func(name string, mirrors ...string) string {
		return fmt.Sprintf(`apiVersion: hypershift.openshift.io/v1beta1
kind: HostedCluster
metadata:
  name: %s
  namespace: clusters
spec:
  imageContentSources:
  - source: quay.io/openshift-release-dev/ocp-release
    mirrors:
    - %s
`, name, strings.Join(mirrors, "\n    - "))
	}
	dir := testtree.Write(t, map[string]string{
		"sites/kustomization.yaml":  "resources: [listed.yaml]\n",
		"sites/listed.yaml":         ci("listed"),
		"sites/unlisted.yaml":       ci("unlisted"),
		"hosted/kustomization.yaml": "resources: [listed.yaml]\n",
		"hosted/listed.yaml":        hc("hc-listed", "m.example.com/OCP"),
		"hosted/unlisted.yaml":      hc("hc-unlisted", "m.example.com/ocp", "m.example.com/ocp"),
	})
	git := gittest.Runner(t, dir)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "sites")
	return dir
}

// An unlisted ClusterInstance or HostedCluster is no cluster of `clusters`
// and none of its mistakes is linted: its kustomization's cluster warns
// once that kustomize does not apply it. The listed ones keep their
// clusters and findings. Committing an unlisted file reports the warning.
func TestUnlistedInputsThroughTheCommand(t *testing.T) {
	t.Chdir(unlistedInputsRepo(t))
	l := fleetClusters(t, ".")
	var names []string
	for _, c := range l.Clusters {
		names = append(names, c.Name)
	}
	if want := []string{"hosted", "sites", "ztp-spoke/listed", "hosted-cluster/hc-listed"}; !slices.Equal(names, want) {
		t.Errorf("clusters %q, want %q", names, want)
	}
	r := mlRun(t, "", "clusters", "--config", "none", ".")
	for _, want := range []string{
		"    sites/unlisted.yaml:1:1: sites/unlisted.yaml is not listed in sites/kustomization.yaml: kustomize does not apply it, so ClusterInstance unlisted creates no cluster\n",
		"    hosted/unlisted.yaml:1:1: hosted/unlisted.yaml is not listed in hosted/kustomization.yaml: kustomize does not apply it, so HostedCluster hc-unlisted creates no cluster\n",
	} {
		if strings.Count(r.stdout, want) != 1 {
			t.Errorf("clusters: not once %q in\n%s", want, r.stdout)
		}
	}

	full := lintJSON(t, ".")
	want := []string{
		"install-config-duplicate-mirror sites/listed.yaml:9:3 [sites ztp-spoke/listed]",
		"not-in-kustomization hosted/unlisted.yaml:1:1 [hosted]",
		"not-in-kustomization sites/unlisted.yaml:1:1 [sites]",
		"repository-lowercase hosted/listed.yaml:10:7 [hosted-cluster/hc-listed]",
	}
	var got []string
	for _, f := range full {
		if !strings.HasPrefix(f, "release-signatures-mirrored sites/listed.yaml:") { // the listed spoke's 4.20 note
			got = append(got, f)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("lint .:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	// The pre-commit path.
	for _, file := range []string{"sites/unlisted.yaml", "hosted/unlisted.yaml"} {
		got := lintJSON(t, file)
		want := []string{"not-in-kustomization " + file + ":1:1 [" + strings.Split(file, "/")[0] + "]"}
		if !slices.Equal(got, want) {
			t.Errorf("lint %s: %q, want %q", file, got, want)
		}
	}
}
