package sites

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const aciSno1 = `apiVersion: extensions.hive.openshift.io/v1beta1
kind: AgentClusterInstall
metadata:
  name: sno1
  namespace: sno1
spec:
  clusterDeploymentRef:
    name: sno1
`

// mcSno1 is a ManagedCluster sno1 with labels, the first at line 7.
func mcSno1(labels string) string {
	return `apiVersion: cluster.open-cluster-management.io/v1
kind: ManagedCluster
metadata:
  name: sno1
  namespace: ignored
  labels:
` + labels + `spec:
  hubAcceptsClient: true
`
}

func loadACIs(t *testing.T, dir string) ([]*Site, []Problem) {
	t.Helper()
	set, err := manifest.Load([]string{dir}, manifest.Options{Unmodelled: manifest.UnmodelledAll})
	if err != nil {
		t.Fatal(err)
	}
	return AgentClusterInstalls(set.Objects)
}

// A hand-written AgentClusterInstall's spoke has the labels of the
// ManagedCluster named after its cluster, each where it is written in that
// file, with those the hub adds; of two copies (one per hub) the one
// beside the AgentClusterInstall; none without one.
func TestManagedClusterLabels(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"hub-a/sno1/aci.yaml": aciSno1,
		"hub-a/sno1/mc.yaml": mcSno1(`    common: "true"
    vendor: OpenShift
    cloud: auto-detect
    sites: sno1
`),
		"hub-b/sno1/aci.yaml": aciSno1,
		"hub-b/sno1/mc.yaml":  mcSno1("    sites: other-hub\n"),
		"hub-b/sno2/aci.yaml": strings.ReplaceAll(aciSno1, "sno1", "sno2"),
	})
	got, probs := loadACIs(t, dir)
	if len(probs) != 0 || len(got) != 3 {
		t.Fatalf("sites %v, problems %v", got, probs)
	}
	a, b, none := got[0], got[1], got[2]
	if a.ManagedCluster == nil || a.ManagedCluster.File != filepath.Join(dir, "hub-a/sno1/mc.yaml") {
		t.Fatalf("hub-a's ManagedCluster %v", a.ManagedCluster)
	}
	want := map[string]string{"common": "true", "vendor": "OpenShift", "sites": "sno1", "name": "sno1", ClusterSetLabel: "default"}
	if !maps.Equal(a.Labels, want) {
		t.Errorf("labels %v, want %v", a.Labels, want)
	}
	if hub := slices.Sorted(slices.Values(append([]string{"cloud"}, fromHub...))); !slices.Equal(a.HubLabels, hub) {
		t.Errorf("hub labels %v, want %v", a.HubLabels, hub)
	}
	if p := a.LabelPos("sites"); p.File != a.ManagedCluster.File || p.Line != 10 || p.Column != 5 {
		t.Errorf("sites at %v, want %s:10:5", p, a.ManagedCluster.File)
	}
	if p := a.LabelPos("name"); p.File != a.ManagedCluster.File || p.Line != 7 {
		t.Errorf("name (the hub's) at %v, want the labels at line 7 of the ManagedCluster", p)
	}
	if b.Labels["sites"] != "other-hub" {
		t.Errorf("hub-b's spoke labels %v, want its own ManagedCluster's", b.Labels)
	}
	if none.ManagedCluster != nil || none.Labels != nil || none.HubLabels != nil {
		t.Errorf("sno2 has no ManagedCluster, but labels %v, hub labels %v", none.Labels, none.HubLabels)
	}
}

// A ManagedCluster whose labels are not strings is refused by the API
// server: a problem at the value, and the spoke has no labels.
func TestManagedClusterRefused(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"aci.yaml": aciSno1,
		"mc.yaml":  mcSno1("    common: true\n    sites: sno1\n"),
	})
	got, probs := loadACIs(t, dir)
	if len(got) != 1 || !got[0].ManagedClusterRefused || got[0].Labels != nil {
		t.Fatalf("sites %+v", got)
	}
	if len(probs) != 1 || probs[0].Pos.Line != 7 || probs[0].Pos.Column != 13 || probs[0].Component != "kube-apiserver" ||
		!strings.HasPrefix(probs[0].Message, `ManagedCluster/sno1: label "common" must have a string value (quote it): the API server refuses the ManagedCluster`) {
		t.Errorf("problems %+v", probs)
	}
}
