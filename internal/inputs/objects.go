package inputs

import (
	"bytes"
	"fmt"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/sites"
	"github.com/mirrorlint/mirrorlint/render"
)

// Cluster is a cluster an input creates: an installed cluster, a ZTP
// spoke, a hosted cluster. Its mirror objects are what the component
// writes; Version is the release when the input names it.
type Cluster struct {
	Name string
	// Kind says what creates it: "install-config", "agent-installer",
	// "ztp-spoke", "hosted-cluster".
	Kind string
	// From is where the cluster is declared (its install-config, site,
	// HostedCluster).
	From    manifest.Position
	IDMSs   []*configv1.ImageDigestMirrorSet
	ICSPs   []*operatorv1alpha1.ImageContentSourcePolicy
	Version render.Version
	// Refused is set when a component refuses the input before any object
	// exists: the cluster then has no objects and is not rendered.
	Refused bool
	// Bootstrap is the installer's bootstrap-node registries.conf; nil for
	// clusters without a bootstrap node of the installer's (spokes install
	// through assisted-service, which runs the installer too: they have
	// one; hosted clusters have none).
	Bootstrap []byte
	// Stopped are the hosted cluster's NodePools that HyperShift stops for
	// their config (see NotRendered).
	Stopped []PoolStop
	// Objects are the IDMSs and ICSPs as loaded objects placed at the
	// input values they come from, for the rules and the renderer; Inputs are the objects
	// the cluster is declared by (its install-config, the site and the
	// hub's objects, the HostedCluster and its NodePools).
	Objects []*manifest.Object
	Inputs  []*manifest.Object
	// Site is the ZTP site a spoke is installed for, or the hand-written
	// AgentClusterInstall (ByHand) whose ManagedCluster the tree holds:
	// its labels place policies on the spoke. nil for other clusters, for
	// the spokes of a hub without sites, and for a hand-written spoke
	// without a ManagedCluster (or with one the API server refuses),
	// whose labels are not known.
	Site *sites.Site
	// ByHand is set for a ZTP spoke declared by a hand-written
	// AgentClusterInstall rather than a site; ManagedCluster is then the
	// ManagedCluster read for it, nil when the tree holds none.
	ByHand         bool
	ManagedCluster *manifest.Object
}

// ObjectsYAML serializes the cluster's mirror objects as the installer and
// HyperShift write them (sigs.k8s.io/yaml over the openshift/api types,
// documents separated by "---").
func (c *Cluster) ObjectsYAML() ([]byte, error) {
	var docs [][]byte
	for _, o := range c.IDMSs {
		b, err := yaml.Marshal(o)
		if err != nil {
			return nil, err
		}
		docs = append(docs, b)
	}
	for _, o := range c.ICSPs {
		b, err := yaml.Marshal(o)
		if err != nil {
			return nil, err
		}
		docs = append(docs, b)
	}
	return bytes.Join(docs, []byte("---\n")), nil
}

// RenderInput is what MCO renders the cluster's nodes from: its mirror
// objects and an Image/cluster with an empty spec.
func (c *Cluster) RenderInput(v render.Version) render.Input {
	if v.IsZero() {
		v = c.Version
	}
	return render.Input{IDMSs: c.IDMSs, ICSPs: c.ICSPs, Version: v}
}

// installerIDMS is the installer's manifests/image-digest-mirror-set.yaml:
// one IDMS "image-digest-mirror", entries copied in order, sourcePolicy
// becoming mirrorSourcePolicy.
func installerIDMS(list []DigestSource) *configv1.ImageDigestMirrorSet {
	idms := &configv1.ImageDigestMirrorSet{
		TypeMeta:   metav1.TypeMeta{APIVersion: "config.openshift.io/v1", Kind: "ImageDigestMirrorSet"},
		ObjectMeta: metav1.ObjectMeta{Name: "image-digest-mirror"},
	}
	for _, ds := range list {
		e := configv1.ImageDigestMirrors{Source: ds.Source, MirrorSourcePolicy: configv1.MirrorSourcePolicy(ds.SourcePolicy)}
		for _, m := range ds.Mirrors {
			e.Mirrors = append(e.Mirrors, configv1.ImageMirror(m))
		}
		idms.Spec.ImageDigestMirrors = append(idms.Spec.ImageDigestMirrors, e)
	}
	return idms
}

// bootstrapConf is the bootstrap node's registries.conf that
// openshift-install of release v (zero: the newest) writes, from its
// registries.conf.template over MergedMirrorSets: groups keyed by (source,
// sourcePolicy) in first-seen order, each mirror once (first kept), groups
// without mirrors skipped; every table insecure = false,
// mirror-by-digest-only = true. No groups give an empty file. The table's
// "blocked" line (true only for NeverContactSource) came with the
// installer's sourcePolicy (PR #10073, Nov 2025): the template of 4.12,
// 4.13, 4.14 and of main in Sept 2025 (as vendored by
// openshift/installer-aro-wrapper) has none, so before 4.21 there is
// none, and no policy either (the installer drops it, see dropPolicies).
func bootstrapConf(list []DigestSource, v render.Version) []byte {
	blockedLine := v.IsZero() || v.Minor >= sourcePolicySince
	type group struct {
		source  string
		blocked bool
		mirrors []string
		seen    map[string]bool
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, ds := range list {
		key := ds.Source + "\x00" + ds.SourcePolicy
		g, ok := byKey[key]
		if !ok {
			g = &group{source: ds.Source, blocked: never(ds.SourcePolicy), seen: map[string]bool{}}
			byKey[key] = g
			groups = append(groups, g)
		}
		for _, m := range ds.Mirrors {
			if !g.seen[m] {
				g.seen[m] = true
				g.mirrors = append(g.mirrors, m)
			}
		}
	}
	var b bytes.Buffer
	for _, g := range groups {
		if len(g.mirrors) == 0 {
			continue
		}
		fmt.Fprintf(&b, "[[registry]]\nlocation = %q\ninsecure = false\nmirror-by-digest-only = true\n", g.source)
		if blockedLine {
			fmt.Fprintf(&b, "blocked = %t\n", g.blocked)
		}
		b.WriteString("\n")
		for _, m := range g.mirrors {
			fmt.Fprintf(&b, "[[registry.mirror]]\nlocation = %q\ninsecure = false\n", m)
		}
		b.WriteString("\n\n")
	}
	return b.Bytes()
}

// Cluster returns the cluster the install-config creates. A
// configuration the installer refuses (both lists) creates none.
func (ic *InstallConfig) Cluster(v render.Version) *Cluster {
	kind := "install-config"
	if ic.Agent {
		kind = "agent-installer"
	}
	c := &Cluster{Name: ic.Name, Kind: kind, From: ic.Object.Position(), Version: v}
	if len(ic.Digest) > 0 && len(ic.Content) > 0 {
		c.Refused = true
		return c
	}
	list := ic.Digest
	if !v.IsZero() && v.Minor < sourcePolicySince {
		// Older installers drop the field before writing anything.
		list = dropPolicies(list)
	}
	var icspEntries [][]DigestSource
	if len(list) > 0 {
		c.IDMSs = []*configv1.ImageDigestMirrorSet{installerIDMS(list)}
	} else if len(ic.Content) > 0 {
		list = ic.Content
		c.ICSPs, icspEntries = installerICSPs(list, v)
	}
	c.Bootstrap = bootstrapConf(list, v)
	// The objects' own fields sit at the list they come from, so a rule
	// about the object as a whole points at that key.
	if len(c.IDMSs) > 0 {
		c.deriveAt([][]DigestSource{list}, ic.Object.LocateKey(manifest.Path{keyDigest}))
	}
	c.deriveICSPs(c.ICSPs, icspEntries, ic.Object.LocateKey(manifest.Path{keyContent}))
	return c
}

func dropPolicies(list []DigestSource) []DigestSource {
	out := make([]DigestSource, len(list))
	for i, ds := range list {
		ds.SourcePolicy = ""
		out[i] = ds
	}
	return out
}

// Refusal says, for a refused input (Refused), why its cluster never
// comes to be: nothing is installed, so no node gets its mirrors.
func (c *Cluster) Refusal() string {
	switch c.Kind {
	case "install-config":
		return "openshift-install refuses this install-config, so no cluster is installed from it and no node gets its mirrors: fix the errors reported in it"
	case "agent-installer":
		return "openshift-install refuses this install-config, so the agent installer makes no image and no node gets its mirrors: fix the errors reported in it"
	case "ztp-spoke":
		if c.ByHand {
			return "assisted-service refuses this AgentClusterInstall (its install-config-overrides annotation or its mirror ConfigMap), so the spoke never installs and no node gets its mirrors: fix the errors reported at them"
		}
		return "assisted-service refuses the site's install-config overrides, so the spoke never installs and no node gets its mirrors: fix the errors reported at them"
	case "hosted-cluster":
		return "HyperShift refuses this HostedCluster, so its nodes never get its mirrors: fix the errors reported in it"
	}
	return ""
}

// Reason says in a line what creates the cluster, for `mirrorlint clusters`.
func (c *Cluster) Reason() string {
	switch c.Kind {
	case "install-config":
		switch {
		case c.Refused:
			return "openshift-install: install-config.yaml, which it refuses"
		case len(c.ICSPs) > 0:
			return "openshift-install: " + icspNames(c.Version) + " from install-config.yaml imageContentSources"
		case len(c.IDMSs) > 0:
			return "openshift-install: the IDMS image-digest-mirror from install-config.yaml imageDigestSources"
		}
		return "openshift-install: install-config.yaml, which sets no mirrors (the cluster pulls from the sources)"
	case "agent-installer":
		return "agent-based installer: install-config.yaml beside agent-config.yaml"
	case "ztp-spoke":
		list := "assisted-service's " + spokeKey(c.Version)
		if !readsDigestSources(c.Version) {
			list += " (OpenShift " + c.Version.String() + ": " + icspNames(c.Version) + ")"
		}
		if c.ByHand {
			return "ZTP spoke of a hand-written AgentClusterInstall: " + list + " from its mirrorRegistryRef's registries.conf, else the hub's, and its install-config-overrides annotation" + c.managedClusterNote()
		}
		return "ZTP spoke: " + list + " from the hub's mirror registries.conf and the site's installConfigOverrides"
	case "hosted-cluster":
		return "HyperShift: the IDMS cluster from HostedCluster spec.imageContentSources, and the NodePool configs"
	}
	return c.Kind
}

// managedClusterNote says, for a hand-written spoke, where its labels come
// from, or why it has none.
func (c *Cluster) managedClusterNote() string {
	mc := c.ManagedCluster
	switch {
	case mc == nil:
		return "; the tree applies no ManagedCluster " + c.Name + ", so its labels are unknown: the tree's policies are not evaluated against it, and none is linted with it"
	case c.Site == nil:
		return "; the API server refuses its ManagedCluster (" + mc.Position().String() + "), so it is never imported and no policy reaches it"
	}
	return "; its labels from ManagedCluster " + mc.Name + " (" + mc.Position().String() + ")"
}
