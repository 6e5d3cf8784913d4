package sites

import (
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// A spoke is managed, and placed by policies, through its ManagedCluster
// (cluster.open-cluster-management.io/v1, cluster-scoped): a site's
// generator or template writes it, but beside a hand-written
// AgentClusterInstall it is written by hand too, named after the cluster
// (ACM's import controller pairs the ClusterDeployment <name>/<name> with
// the ManagedCluster <name>), its metadata.labels the labels placements
// and policy bindings select on, to which the hub adds its own
// (hubLabels).

const (
	KindManagedCluster       = "ManagedCluster"
	APIVersionManagedCluster = "cluster.open-cluster-management.io/v1"
)

// refusedLabels is what a ManagedCluster whose labels are not strings
// comes to.
const refusedLabels = ": the API server refuses the ManagedCluster (label values are strings), so the spoke is never imported and no policy reaches it"

// managedClusters are the ManagedClusters of objs by name.
func managedClusters(objs []*manifest.Object) map[string][]*manifest.Object {
	out := map[string][]*manifest.Object{}
	for _, o := range objs {
		if o.Node != nil && o.Content != nil && !o.Partial && o.Name != "" &&
			string(o.Kind) == KindManagedCluster && o.APIVersion == APIVersionManagedCluster {
			out[o.Name] = append(out[o.Name], o)
		}
	}
	return out
}

// readManagedCluster gives the AgentClusterInstall site s the labels of
// its ManagedCluster mc, each at its place in mc's file, with those the
// hub adds. Labels that are not a map of strings are a problem, and the
// ManagedCluster refused: the site then has no labels.
func (s *Site) readManagedCluster(mc *manifest.Object) []Problem {
	s.ManagedCluster = mc
	at := manifest.Path{"metadata", "labels"}
	v, _ := at.Lookup(mc.Content)
	probs := s.readLabels(v, at)
	if len(probs) > 0 {
		for i := range probs {
			probs[i].Message += refusedLabels
			probs[i].Component = "kube-apiserver"
		}
		s.ManagedClusterRefused = true
		s.Labels, s.labelPaths = nil, nil
		return probs
	}
	s.hubLabels()
	return nil
}
