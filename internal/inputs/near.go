package inputs

import (
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// A reference by name (a ConfigMap an AgentServiceConfig or a NodePool
// names, the HostedCluster a NodePool belongs to) is resolved on one
// cluster, but a repository often holds several clusters' copies, all
// with the same names: every hub's AgentServiceConfig is "agent", and its
// ConfigMap is usually named after the documentation's example. What is
// applied together is written together, so of several equal candidates
// the one nearest the reference in the tree is taken, not the first one
// found, which would give one hub's mirrors to every hub
// (manifest.Nearest).

// ownPools are the NodePools of pools that may belong to hc: all of them,
// but when other HostedClusters of hcs have hc's name and namespace, only
// those hc is the nearest of them to. A NodePool names its cluster by name
// alone, and each copy of a hosted cluster has its own pools beside it.
func ownPools(hc *manifest.Object, hcs, pools []*manifest.Object) []*manifest.Object {
	key := func(o *manifest.Object) string {
		ns, _ := manifest.NestedString(o.Content, "metadata", "namespace")
		return ns + "/" + o.Name
	}
	var same []*manifest.Object
	for _, o := range hcs {
		if key(o) == key(hc) {
			same = append(same, o)
		}
	}
	if len(same) < 2 {
		return pools
	}
	var own []*manifest.Object
	for _, np := range pools {
		if manifest.Nearest(np.File, same) == hc {
			own = append(own, np)
		}
	}
	return own
}
