package sites

import (
	"maps"
	"slices"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// fromHub are the hub labels of every spoke: those ACM sets from what the
// cluster reports, and the add-ons'.
var fromHub = []string{"clusterID", AddonLabels, "openshiftVersion", "openshiftVersion-major", "openshiftVersion-major-minor"}

// What the hub does to the labels a site writes: name is set to the
// cluster's name, and a different written value is the hub's to know (the
// import controller and whatever applies the ManagedCluster take turns);
// an empty cluster set becomes "default", a written one is kept; cloud
// and vendor are detected only when written "auto-detect"; the cluster's
// ID and version, and the add-on labels, are the hub's whatever is written.
func TestHubLabels(t *testing.T) {
	dir := testtree.Write(t, map[string]string{"sites.yaml": `apiVersion: ran.openshift.io/v1
kind: SiteConfig
metadata: {name: site, namespace: ztp}
spec:
  clusters:
  - clusterName: sno-a
    clusterLabels:
      name: sno-a
      cluster.open-cluster-management.io/clusterset: ""
      vendor: auto-detect
      cloud: Other
      clusterID: written
      openshiftVersion-major-minor: "4.20"
      feature.open-cluster-management.io/addon-search-collector: available
  - clusterName: sno-b
    clusterLabels:
      name: other
      cluster.open-cluster-management.io/clusterset: ran
`})
	got := load(t, dir+"/sites.yaml")
	a, b := got[0], got[1]
	if want := map[string]string{"name": "sno-a", ClusterSetLabel: "default", "cloud": "Other"}; !maps.Equal(a.Labels, want) {
		t.Errorf("sno-a labels %v, want %v", a.Labels, want)
	}
	if want := slices.Sorted(slices.Values(append([]string{"vendor"}, fromHub...))); !slices.Equal(a.HubLabels, want) {
		t.Errorf("sno-a hub labels %v, want %v", a.HubLabels, want)
	}
	// The written name keeps its place; the cluster set the webhook
	// replaces has none.
	if p := a.LabelPos("name"); p.Line != 8 {
		t.Errorf("name at %v, want line 8", p)
	}
	if p := a.LabelPos(ClusterSetLabel); p.Line != 8 || p.Column != 7 {
		t.Errorf("cluster set at %v, want the labels' mapping (8:7)", p)
	}
	if want := map[string]string{ClusterSetLabel: "ran"}; !maps.Equal(b.Labels, want) {
		t.Errorf("sno-b labels %v, want %v", b.Labels, want)
	}
	if !slices.Contains(b.HubLabels, "name") {
		t.Errorf("sno-b hub labels %v lack name, written other than the cluster's name", b.HubLabels)
	}
}
