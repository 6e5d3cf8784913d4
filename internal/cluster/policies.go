package cluster

import (
	"maps"
	"slices"
	"sort"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// FromPolicy marks a cluster of the objects one policy delivers.
const FromPolicy Source = "policy"

// splitPolicies takes the objects a policy delivers (ACM Policy,
// ConfigurationPolicy, ZTP PolicyGenTemplate or PolicyGenerator; see
// manifest.Object.DeliveredBy) out of a discovered cluster: the cluster
// holding the policy does not get them, the clusters the policy is placed
// on do, and which those are is decided on the hub. So the objects one
// policy delivers form a cluster of their own, named after the policy
// inside the cluster that holds it; cross-object rules and the render see
// them together. A declared cluster keeps whatever its paths hold: the
// config says which policies reach one cluster together.
func (d *discoverer) splitPolicies(c *Cluster) []*Cluster {
	if c.Source == FromConfig {
		return nil
	}
	byGroup := map[string][]*manifest.Object{}
	var kept []*manifest.Object
	for _, o := range c.Objects {
		if o.DeliveredBy == "" {
			kept = append(kept, o)
			continue
		}
		byGroup[o.DeliveredBy] = append(byGroup[o.DeliveredBy], o)
	}
	if len(byGroup) == 0 {
		return nil
	}
	c.Objects = kept
	groups := slices.Sorted(maps.Keys(byGroup))
	var out []*Cluster
	for _, g := range groups {
		name := g
		if c.Name != "" {
			name = c.Name + "/" + g
		}
		reason := "the objects " + g + " delivers, from " + c.displayName()
		if b := byGroup[g][0].BoundTo; b != "" {
			reason += "; " + b
		}
		pc := &Cluster{Name: name, Source: FromPolicy, Reason: reason,
			Objects: byGroup[g], ReleaseImage: c.ReleaseImage, OpenShiftVersion: c.OpenShiftVersion,
			origins: c.origins, patches: c.patches, res: c.res, d: d, loaded: true}
		for _, o := range pc.Objects {
			f := manifest.AbsName(o.File)
			if !pc.inputs[f] {
				pc.addInput(f, d.names)
				pc.Paths = append(pc.Paths, o.File)
			}
			// The source CRs a generator read are inputs too: a commit
			// of one lints the policies made from it.
			for _, other := range o.OtherFiles() {
				pc.addInput(manifest.AbsName(other), d.names)
			}
		}
		sort.Strings(pc.Inputs)
		out = append(out, pc)
	}
	return out
}

func (c *Cluster) displayName() string {
	if c.Name == "" {
		return "the whole input"
	}
	return c.Name
}

// insertAfter returns cls with extra right after c (or at the end when c
// is not there), in a new array: Clusters and All may share one, and an
// insertion in place into one would overwrite the other's elements (a
// policy's cluster listed twice, the next cluster lost).
func insertAfter(cls []*Cluster, c *Cluster, extra []*Cluster) []*Cluster {
	i := slices.Index(cls, c)
	if i < 0 {
		i = len(cls) - 1
	}
	return slices.Concat(cls[:i+1], extra, cls[i+1:])
}
