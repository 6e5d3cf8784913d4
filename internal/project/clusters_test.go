package project

import (
	"github.com/mirrorlint/mirrorlint/internal/cluster"

	"strings"
	"testing"
)

const gitops = "../cluster/testdata/gitops"

func names(cls []*cluster.Cluster) string {
	var out []string
	for _, c := range cls {
		out = append(out, c.Name)
	}
	return strings.Join(out, " ")
}

// TestOpenPerCluster: one cluster.Cluster per discovered cluster, each with
// its settings; ClustersIncluding maps changed files to clusters.
func TestOpenPerCluster(t *testing.T) {
	p, err := Open(Options{Paths: []string{gitops}, ConfigPath: "none", OpenShiftVersion: "4.14"})
	if err != nil {
		t.Fatal(err)
	}
	if got := names(p.Clusters); got != "overlays/dev overlays/prod clusters/lab" {
		t.Errorf("clusters: %s", got)
	}
	for _, c := range p.Clusters {
		if c.Settings.Version.String() != "4.14" {
			t.Errorf("%s: version %s", c.Name, c.Settings.Version)
		}
	}
	for files, want := range map[string]string{
		gitops + "/base/idms-release.yaml":                                              "overlays/dev overlays/prod",
		gitops + "/overlays/prod/kustomization.yaml":                                    "overlays/prod",
		gitops + "/clusters/lab/idms.yaml " + gitops + "/overlays/dev/icsp-legacy.yaml": "overlays/dev clusters/lab",
	} {
		if got := names(p.ClustersIncluding(strings.Fields(files))); got != want {
			t.Errorf("%s: %s, want %s", files, got, want)
		}
	}
	sel, err := Open(Options{Paths: []string{gitops}, ConfigPath: "none", Cluster: "overlays/prod"})
	if err != nil {
		t.Fatal(err)
	}
	if len(sel.Clusters) != 1 || len(sel.Set.Objects) != 2 {
		t.Errorf("--cluster: %d clusters, %d objects", len(sel.Clusters), len(sel.Set.Objects))
	}
}
