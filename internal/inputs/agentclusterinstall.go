package inputs

import (
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/sites"
)

// RuleACIDuplicatesSite reports a hand-written AgentClusterInstall for a
// spoke a site of the tree declares too.
const RuleACIDuplicatesSite = "agent-cluster-install-duplicates-site"

// A hand-written AgentClusterInstall creates its spoke as a site does:
// assisted-service's ClusterDeployment controller registers one cluster
// per ClusterDeployment (keyed by its namespace and name) and reads the
// AgentClusterInstall that spec.clusterInstallRef names in that
// namespace; its install-config takes the digest entries of the
// AgentClusterInstall's spec.mirrorRegistryRef ConfigMap when that holds
// a registries.conf (setImageDigestMirrorSet prefers the cluster's
// configuration), else the hub's, and the annotation is decoded over
// them.
//
// A site renders its ClusterDeployment, and the AgentClusterInstall it
// names, as <clusterName>/<clusterName>. A hand-written
// AgentClusterInstall whose ClusterDeployment is that one is the same
// spoke, not another: one cluster, the site's. For a ClusterInstance the
// SiteConfig operator server-side applies its render with forced
// ownership, so the site's values replace the hand-written ones whenever
// it reconciles; and when the hand-written AgentClusterInstall has
// another name, the ClusterDeployment never names it at all.

// aciSpokes are the clusters of the hand-written AgentClusterInstalls
// acis. One whose ClusterDeployment a site of ss renders is validated as
// any, reported, and joins that site's cluster (ofSite) as an input
// instead of making one. A hub whose mirrors an AgentClusterInstall's
// cluster gets is marked in used.
func aciSpokes(acis, ss []*sites.Site, ofSite map[*sites.Site]*Cluster, hubs []*HubMirrors, used map[*HubMirrors]bool, cms []*manifest.Object, rel releases) ([]*Cluster, []Finding) {
	var out []*Cluster
	var fs []Finding
	for _, a := range acis {
		c, hub, f := aciSpoke(a, hubs, cms, rel)
		fs = append(fs, f...)
		if s := siteOf(a, ss); s != nil {
			fs = append(fs, duplicatesSite(a, s))
			site := ofSite[s]
			for _, o := range c.Inputs {
				// The site's labels are its own: the ManagedCluster
				// written beside is another copy of the one it renders.
				if o != a.ManagedCluster && !slices.Contains(site.Inputs, o) {
					site.Inputs = append(site.Inputs, o)
				}
			}
			continue
		}
		if hub != nil {
			used[hub] = true
		}
		out = append(out, c)
	}
	return out, fs
}

// aciSpoke is the cluster of the hand-written AgentClusterInstall a, and
// the hub whose mirrors it gets (nil when it gets its own).
func aciSpoke(a *sites.Site, hubs []*HubMirrors, cms []*manifest.Object, rel releases) (*Cluster, *HubMirrors, []Finding) {
	var fs findings
	var hub *HubMirrors
	b, own, refused := ownMirrors(&fs, a, cms)
	if b == nil {
		hub = nearestHub(a.Object.File, hubs)
		hb := hubBase(hub)
		b = &hb
	}
	c, f := spoke(a, *b, rel)
	fs = append(fs, f...)
	c.ByHand, c.ManagedCluster = true, a.ManagedCluster
	c.Refused = c.Refused || refused
	c.Inputs = append(append(append([]*manifest.Object{a.Object}, own...), hub.objects()...), c.Inputs...)
	if a.ManagedCluster != nil {
		// Its labels decide which policies the spoke gets: a change to
		// it is a change to the spoke.
		c.Inputs = append(c.Inputs, a.ManagedCluster)
	}
	if a.Labels != nil {
		c.Site = a
	}
	return c, hub, fs
}

// siteOf is the site of ss that renders the ClusterDeployment of the
// hand-written AgentClusterInstall a (the nearest, when copies of one
// site lie in the tree), nil for none. An AgentClusterInstall written
// without a namespace (one kustomize or Argo CD gives it) is taken for
// the site's of its name.
func siteOf(a *sites.Site, ss []*sites.Site) *sites.Site {
	var best *sites.Site
	bestScore := -1
	for _, s := range ss {
		if s.Name == "" || s.Name != a.Name || (a.Namespace != "" && a.Namespace != s.Name) {
			continue
		}
		if c := manifest.Closeness(a.Object.File, s.Object.File); c > bestScore {
			best, bestScore = s, c
		}
	}
	return best
}

// duplicatesSite is the warning on a, whose ClusterDeployment the site s
// renders too.
func duplicatesSite(a *sites.Site, s *sites.Site) Finding {
	at := manifest.Path{"spec", "clusterDeploymentRef", "name"}
	if ref, _ := at.Lookup(a.Object.Content); ref == nil || ref == "" {
		at = manifest.Path{"metadata", "name"}
	}
	var why string
	switch {
	case a.Object.Name != s.Name:
		why = "assisted-service reads only that one, never this one"
	case s.Kind == sites.KindClusterInstance:
		why = "this file is a second copy of that object: the SiteConfig operator server-side applies its render with forced ownership, so the site's values (installConfigOverrides, clusterImageSetNameRef) replace these each time it reconciles the ClusterInstance, and each sync of this file writes these back"
	default:
		why = "this file is a second copy of that object, and whichever copy is applied last holds"
	}
	declared := s.Object.Locate(s.Path)
	var fs findings
	fs.add(a.Object.Locate(at), check.Warning, RuleACIDuplicatesSite, assisted,
		"%s declares the spoke %s that %s (%s:%d) declares too: the site renders ClusterDeployment %s/%s and the AgentClusterInstall %s/%s it names; %s; mirrorlint checks the spoke as the site declares it: delete this AgentClusterInstall (and what is written beside it for the spoke), or the site",
		a.Ref(), a.Name, s.Ref(), declared.File, declared.Line, s.Name, s.Name, s.Name, s.Name, why)
	return fs[0]
}
