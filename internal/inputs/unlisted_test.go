package inputs

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
	"github.com/mirrorlint/mirrorlint/render"
)

// Applied drops what kustomize does not apply and keeps what
// openshift-install reads from its directory: of a tree whose every file
// is unlisted, the install-config, the agent-config and the manifests
// beside the install-config stay; the ClusterInstance, a hand-written
// AgentClusterInstall, the HostedCluster,
// its NodePool, the hub's objects and a guest's mirror object go, and each
// file that held an object creating or shaping a cluster is given once, at
// its first such object.
func TestAppliedKeepsWhatTheInstallerReads(t *testing.T) {
	dir := t.TempDir()
	testtree.WriteAt(t, dir, map[string]string{
		"install/install-config.yaml": "apiVersion: v1\nmetadata:\n  name: ocp4\n",
		"install/agent-config.yaml":   "apiVersion: v1beta1\nkind: AgentConfig\nmetadata:\n  name: ocp4\n",
		"install/openshift/idms.yaml": "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: day1}\nspec: {imageDigestMirrors: [{source: quay.io/a, mirrors: [m.example.com/a]}]}\n",
		"sites/ci.yaml":               "apiVersion: siteconfig.open-cluster-management.io/v1alpha1\nkind: ClusterInstance\nmetadata: {name: sno1, namespace: sno1}\nspec: {clusterName: sno1}\n",
		"sno2/aci.yaml":               "apiVersion: extensions.hive.openshift.io/v1beta1\nkind: AgentClusterInstall\nmetadata: {name: sno2, namespace: sno2}\nspec: {clusterDeploymentRef: {name: sno2}}\n",
		"hosted/hc.yaml": "apiVersion: hypershift.openshift.io/v1beta1\nkind: NodePool\nmetadata: {name: np, namespace: clusters}\nspec: {clusterName: hc}\n---\n" +
			"apiVersion: hypershift.openshift.io/v1beta1\nkind: HostedCluster\nmetadata: {name: hc, namespace: clusters}\nspec: {}\n",
		"hub/asc.yaml": "apiVersion: agent-install.openshift.io/v1beta1\nkind: AgentServiceConfig\nmetadata: {name: agent}\nspec: {mirrorRegistryRef: {name: mirrors}}\n",
		"hub/cm.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: mirrors, namespace: multicluster-engine}\ndata: {registries.conf: \"\"}\n",
		"hc/idms.yaml": "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: guest}\nspec: {imageDigestMirrors: [{source: quay.io/b, mirrors: [m.example.com/b]}]}\n",
	})
	set, err := manifest.Load([]string{dir}, manifest.Options{Unmodelled: manifest.UnmodelledAll})
	if err != nil {
		t.Fatal(err)
	}
	rel := func(o *manifest.Object) string {
		r, _ := filepath.Rel(dir, o.File)
		return filepath.ToSlash(r) + " " + string(o.Kind)
	}
	kept, unapplied := Applied(set.Objects, func(string) bool { return true })
	var got []string
	for _, o := range kept {
		got = append(got, rel(o))
	}
	slices.Sort(got)
	want := []string{"install/agent-config.yaml AgentConfig", "install/install-config.yaml InstallConfig", "install/openshift/idms.yaml ImageDigestMirrorSet"}
	if !slices.Equal(got, want) {
		t.Errorf("kept %q, want %q", got, want)
	}
	got = nil
	for _, o := range unapplied {
		got = append(got, rel(o)+": "+Unapplied(o))
	}
	slices.Sort(got)
	want = []string{
		"hosted/hc.yaml NodePool: so NodePool np joins no hosted cluster",
		"hub/asc.yaml AgentServiceConfig: so AgentServiceConfig agent is no hub of the tree's spokes",
		"sites/ci.yaml ClusterInstance: so ClusterInstance sno1 creates no cluster",
		"sno2/aci.yaml AgentClusterInstall: so AgentClusterInstall sno2 creates no cluster",
	}
	if !slices.Equal(got, want) {
		t.Errorf("unapplied %q, want %q", got, want)
	}

	// Nothing unlisted: everything is kept, nothing reported.
	kept, unapplied = Applied(set.Objects, func(string) bool { return false })
	if len(kept) != len(set.Objects) || len(unapplied) != 0 {
		t.Errorf("with every file applied: kept %d of %d, unapplied %d", len(kept), len(set.Objects), len(unapplied))
	}
	// Only the site's file unlisted: the others still create their clusters.
	kept, _ = Applied(set.Objects, func(f string) bool { return strings.HasSuffix(f, "sites/ci.yaml") })
	if res := Read(kept, render.Version{}); slices.ContainsFunc(res.Clusters, func(c *Cluster) bool { return c.Kind == "ztp-spoke" && c.Name == "sno1" }) ||
		!slices.ContainsFunc(res.Clusters, func(c *Cluster) bool { return c.Kind == "hosted-cluster" }) {
		t.Errorf("clusters of what is applied: %v", clusterNames(res))
	}
}

func clusterNames(res *Result) []string {
	var out []string
	for _, c := range res.Clusters {
		out = append(out, c.Kind+"/"+c.Name)
	}
	return out
}

// Every kind Read looks at is kept whole by a load that keeps the image
// kinds only (what a tree's clusters are loaded with), so that the rules
// reading the inputs see them in the tree's clusters as in the clusters
// the inputs create.
func TestKindsKeptByTheTreeLoad(t *testing.T) {
	for _, k := range Kinds {
		if !manifest.KeepsAs(k, manifest.UnmodelledImages) {
			t.Errorf("%s is not kept by a load with UnmodelledImages", k)
		}
	}
}
