package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// managedClusterRepo commits a hub repository of hand-written spokes with
// common policies: sno1's ManagedCluster is written beside its
// AgentClusterInstall, sno2's has a label value the API server refuses,
// sno3 has none; one policy is bound to common=true, one to name=sno3.
func managedClusterRepo(t *testing.T) string {
	t.Helper()
	aci := func(name string) string {
		return fmt.Sprintf(`apiVersion: extensions.hive.openshift.io/v1beta1
kind: AgentClusterInstall
metadata:
  name: %[1]s
  namespace: %[1]s
spec:
  clusterDeploymentRef:
    name: %[1]s
  imageSetRef:
    name: img4.18.3-x86-64-appsub
`, name)
	}
	mc := func(name, labels string) string {
		return fmt.Sprintf(`apiVersion: cluster.open-cluster-management.io/v1
kind: ManagedCluster
metadata:
  name: %s
  labels:
%sspec:
  hubAcceptsClient: true
`, name, labels)
	}
	dir := testtree.Write(t, map[string]string{
		"clusters/kustomization.yaml":           "resources: [sno1, sno2, sno3]\n",
		"clusters/sno1/kustomization.yaml":      "resources: [aci.yaml, mc.yaml]\n",
		"clusters/sno1/aci.yaml":                aci("sno1"),
		"clusters/sno1/mc.yaml":                 mc("sno1", "    common: \"true\"\n    sites: sno1\n"),
		"clusters/sno2/kustomization.yaml":      "resources: [aci.yaml, mc.yaml]\n",
		"clusters/sno2/aci.yaml":                aci("sno2"),
		"clusters/sno2/mc.yaml":                 mc("sno2", "    common: true\n"),
		"clusters/sno3/kustomization.yaml":      "resources: [aci.yaml]\n",
		"clusters/sno3/aci.yaml":                aci("sno3"),
		"policygentemplates/kustomization.yaml": "generators:\n- common.yaml\n- sno3.yaml\n",
		"policygentemplates/common.yaml":        pgt("common", `    common: "true"`, "quay.io/common", "mirror-c.example.com/common"),
		"policygentemplates/sno3.yaml":          pgt("sno3", `    name: "sno3"`, "quay.io/sno3", "mirror-3.example.com/sno3"),
		"policygentemplates/source-crs/disconnected-registry/DisconnectedIDMS.yaml": `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: disconnected-internal-icsp-for-ocp
  annotations:
    ran.openshift.io/ztp-deploy-wave: "1"
spec:
  imageDigestMirrors: []
`,
	})
	git := gittest.Runner(t, dir)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "spokes")
	return dir
}

// A hand-written spoke gets the policies its ManagedCluster's labels bind
// it to, as a site does; one whose ManagedCluster the API server refuses
// is never imported and gets none; one without a ManagedCluster gets none
// either, and the policies that may reach it say that whether they do is
// not evaluated, as a note of the run does.
func TestHandWrittenManagedClusters(t *testing.T) {
	t.Chdir(managedClusterRepo(t))
	l := fleetClusters(t, ".")
	byName := map[string]int{}
	for i, c := range l.Clusters {
		byName[c.Name] = i
	}
	sno1 := l.Clusters[byName["ztp-spoke/sno1"]]
	var policies []string
	for _, g := range sno1.Policies {
		policies = append(policies, g.Policy+" "+strings.Join(g.Because, "; "))
	}
	if !slices.Equal(policies, []string{"Policy/ztp-site/common-config-policy common=true"}) ||
		sno1.Labels["name"] != "sno1" || sno1.Labels["sites"] != "sno1" || sno1.Kinds["ManagedCluster"] != 1 ||
		!strings.Contains(sno1.Reason, "; its labels from ManagedCluster sno1 (clusters/sno1/mc.yaml:1:1)") {
		t.Errorf("sno1: policies %q, labels %v, kinds %v, reason %q", policies, sno1.Labels, sno1.Kinds, sno1.Reason)
	}
	sno2 := l.Clusters[byName["ztp-spoke/sno2"]]
	if sno2.Policies != nil || !strings.Contains(sno2.Reason, "the API server refuses its ManagedCluster (clusters/sno2/mc.yaml:1:1), so it is never imported and no policy reaches it") {
		t.Errorf("sno2: policies %v, reason %q", sno2.Policies, sno2.Reason)
	}
	sno3 := l.Clusters[byName["ztp-spoke/sno3"]]
	if sno3.Policies != nil || !strings.Contains(sno3.Reason, "the tree applies no ManagedCluster sno3, so its labels are unknown") {
		t.Errorf("sno3: policies %v, reason %q", sno3.Policies, sno3.Reason)
	}
	alone := l.Clusters[byName["policygentemplates/Policy/ztp-site/sno3-config-policy"]]
	if !strings.HasSuffix(alone.Reason, "no site of the tree has those labels, so the policy is linted on its own; and the labels of sno3 are unknown (the tree applies no ManagedCluster of that name): whether it gets it is not evaluated") {
		t.Errorf("the policy bound to name=sno3: %q", alone.Reason)
	}

	r := mlRun(t, "", "lint", "--config", "none", ".")
	for _, want := range []string{
		`clusters/sno2/mc.yaml:6:13: error site-labels: ManagedCluster/sno2: label "common" must have a string value (quote it): the API server refuses the ManagedCluster`,
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("lint lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "mirrorlint: note: ztp-spoke/sno3: the tree applies no ManagedCluster sno3, so its labels are unknown and the policies that may reach it are not linted with its install's mirrors (Policy/ztp-site/common-config-policy, Policy/ztp-site/sno3-config-policy)") ||
		strings.Contains(r.stderr, "ztp-spoke/sno1:") || strings.Contains(r.stderr, "ztp-spoke/sno2:") {
		t.Errorf("lint's notes:\n%s", r.stderr)
	}
	// The pre-commit path: a committed ManagedCluster gives what the full
	// run gives of it, and its spoke is linted with its policies.
	full := lintJSON(t, ".")
	for _, file := range []string{"clusters/sno1/mc.yaml", "clusters/sno2/mc.yaml"} {
		var want []string
		for _, f := range full {
			if strings.Contains(f, " "+file+":") {
				want = append(want, f)
			}
		}
		if file == "clusters/sno2/mc.yaml" && len(want) == 0 {
			t.Errorf("the full run reports nothing in %s", file)
		}
		if only := lintJSON(t, file); !slices.Equal(only, want) {
			t.Errorf("lint %s:\n%s\nwant:\n%s", file, strings.Join(only, "\n"), strings.Join(want, "\n"))
		}
	}
	// The spoke's render holds the policy its labels bind it to.
	r = mlRun(t, "", "render", "--config", "none", "--cluster", "ztp-spoke/sno1", ".")
	if r.code != exitOK || !strings.Contains(r.stdout, "mirror-c.example.com/common") {
		t.Errorf("render sno1: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}
