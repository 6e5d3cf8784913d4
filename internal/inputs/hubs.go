package inputs

import (
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/sites"
)

// spokes are the clusters hubs install: each site, with the mirrors of the
// hub nearest it in the tree (a repository holding several hubs keeps each
// hub's sites beside it; see near.go); each hand-written
// AgentClusterInstall that no site declares too, likewise, or with the
// mirrors of its own mirrorRegistryRef (see aciSpokes); and, for each hub
// no spoke of the tree is installed through, the spokes it installs, with
// its mirrors as they are. Every hub whose ConfigMap assisted-service
// reads is thus in some cluster, and its findings are reported there.
func spokes(ss, acis []*sites.Site, hubs []*HubMirrors, cms []*manifest.Object, rel releases) ([]*Cluster, []Finding) {
	var out []*Cluster
	var fs []Finding
	used := map[*HubMirrors]bool{}
	ofSite := map[*sites.Site]*Cluster{}
	for _, s := range ss {
		hub := nearestHub(s.Object.File, hubs)
		used[hub] = true
		c, f := spoke(s, hubBase(hub), rel)
		fs = append(fs, f...)
		c.Site = s
		c.Inputs = append(append([]*manifest.Object{s.Object}, hub.objects()...), c.Inputs...)
		out = append(out, c)
		ofSite[s] = c
	}
	siblingSets(ss, ofSite)
	cs, f := aciSpokes(acis, ss, ofSite, hubs, used, cms, rel)
	out, fs = append(out, cs...), append(fs, f...)
	for _, h := range hubs {
		if used[h] || h.ConfigMap == nil || h.Err != "" {
			continue
		}
		c, _ := spoke(&sites.Site{Name: "spokes-of-" + h.ASC.Name, Object: h.ASC, Path: manifest.Path{"spec", "mirrorRegistryRef"}}, hubBase(h), rel)
		c.Inputs = h.objects()
		out = append(out, c)
	}
	return out, fs
}

// nearestHub is the hub of hubs whose AgentServiceConfig lies nearest
// file, nil without hubs.
func nearestHub(file string, hubs []*HubMirrors) *HubMirrors {
	ascs := make([]*manifest.Object, len(hubs))
	for i, h := range hubs {
		ascs[i] = h.ASC
	}
	asc := manifest.Nearest(file, ascs)
	for _, h := range hubs {
		if h.ASC == asc {
			return h
		}
	}
	return nil
}

// objects are the hub's objects a spoke's cluster holds: the
// AgentServiceConfig and the ConfigMap when the tree has it; none for no
// hub.
func (h *HubMirrors) objects() []*manifest.Object {
	if h == nil {
		return nil
	}
	if h.ConfigMap == nil {
		return []*manifest.Object{h.ASC}
	}
	return []*manifest.Object{h.ASC, h.ConfigMap}
}

// siblingSets adds to each site's cluster the ClusterImageSets of the other
// sites of its object (a SiteConfig of several clusters): the cluster
// holds that object whole, and what its checks say of a sibling's
// overrides depends on the sibling's release, which must read as in the
// sibling's own cluster.
func siblingSets(ss []*sites.Site, ofSite map[*sites.Site]*Cluster) {
	for _, s := range ss {
		c := ofSite[s]
		for _, o := range ss {
			if o == s || o.Object != s.Object {
				continue
			}
			for _, in := range ofSite[o].Inputs {
				if in.Kind == KindClusterImageSet && !slices.Contains(c.Inputs, in) {
					c.Inputs = append(c.Inputs, in)
				}
			}
		}
	}
}
