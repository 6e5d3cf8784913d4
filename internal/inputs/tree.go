package inputs

import (
	"path"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/sites"
	"github.com/mirrorlint/mirrorlint/render"
)

// Kinds are the object kinds Read looks at, for a load that keeps only
// some unmodelled kinds.
var Kinds = []string{manifest.KindInstallConfig, "AgentConfig", "AgentServiceConfig", "ConfigMap",
	sites.KindSiteConfig, sites.KindClusterInstance, sites.KindAgentClusterInstall, sites.KindManagedCluster, "HostedCluster", "NodePool",
	string(manifest.KindIDMS), string(manifest.KindITMS), string(manifest.KindICSP), KindApplication, KindClusterImageSet}

// Result is what a tree's inputs give: the findings and the clusters they
// create, in file order; Sites are the spokes whose ManagedCluster labels
// the tree gives, which policies are placed by: the sites (SiteConfig
// clusters, ClusterInstances), then the hand-written AgentClusterInstalls
// whose ManagedCluster it holds.
type Result struct {
	Findings []Finding
	Clusters []*Cluster
	Sites    []*sites.Site
}

// Read reads the inputs of objs (a load with manifest.UnmodelledAll).
// v is the release the run is given (--openshift-version), which the
// inputs are read as, a ZTP spoke's own release included; zero when none
// is given: each input's own where it names one, else the newest
// behaviour.
func Read(objs []*manifest.Object, v render.Version) *Result { return ReadRelease(objs, v, "") }

// ReadRelease is Read for a cluster whose release image is release (""
// when none is given: the installer's own).
func ReadRelease(objs []*manifest.Object, v render.Version, release string) *Result {
	res := &Result{}
	var fs findings
	byKind := map[string][]*manifest.Object{}
	agentDirs := map[string]bool{}
	for _, o := range objs {
		if o.Content == nil || o.Partial {
			continue
		}
		byKind[string(o.Kind)] = append(byKind[string(o.Kind)], o)
		if isAgentConfig(o) {
			agentDirs[path.Dir(o.File)] = true
		}
	}
	for _, o := range byKind[manifest.KindInstallConfig] {
		ic := readInstallConfig(o, agentDirs, v)
		f := ic.Check(v)
		fs = append(fs, f...)
		ic.checkReleaseSource(&fs, release)
		c := ic.Cluster(v)
		c.Inputs = append([]*manifest.Object{o}, besideInstallConfig(o, objs)...)
		// openshift-install stops before writing any manifest.
		c.Refused = c.Refused || slices.ContainsFunc(f, func(f Finding) bool { return f.Severity == check.Error && f.Component == installer })
		res.Clusters = append(res.Clusters, c)
	}

	ss, probs := sites.From(objs)
	acis, aciProbs := sites.AgentClusterInstalls(objs)
	res.Sites = slices.Clip(ss)
	for _, a := range acis {
		if a.Labels != nil {
			res.Sites = append(res.Sites, a)
		}
	}
	for _, p := range append(probs, aciProbs...) {
		if p.Overrides {
			fs.add(p.Pos, check.Error, RuleOverridesJSON, "kube-apiserver", "%s", p.Message)
			continue
		}
		component := "siteconfig"
		if p.Component != "" {
			component = p.Component
		}
		fs.add(p.Pos, check.Error, RuleSiteLabels, component, "%s", p.Message)
	}
	var hubs []*HubMirrors
	for _, asc := range byKind["AgentServiceConfig"] {
		if h := readHub(asc, byKind["ConfigMap"]); h != nil {
			fs = append(fs, h.Check()...)
			hubs = append(hubs, h)
		}
	}
	cs, f := spokes(ss, acis, hubs, byKind["ConfigMap"], releases{sets: byKind[KindClusterImageSet], given: v})
	fs = append(fs, f...)
	res.Clusters = append(res.Clusters, cs...)

	var hosted []*Hosted
	for _, o := range byKind["HostedCluster"] {
		h := readHosted(o, ownPools(o, byKind["HostedCluster"], byKind["NodePool"]))
		hosted = append(hosted, h)
		fs = append(fs, h.Check(v)...)
		if !v.IsZero() {
			// The run's release is every cluster's (see spoke).
			h.Version = v
		}
		c := h.Cluster(byKind["ConfigMap"], &fs)
		c.Inputs = append([]*manifest.Object{o}, h.NodePools...)
		for _, np := range h.NodePools {
			c.Inputs = append(c.Inputs, poolConfigMaps(np, byKind["ConfigMap"], h.Namespace)...)
		}
		res.Clusters = append(res.Clusters, c)
	}
	fs = append(fs, guestObjects(hosted, objs, byKind[KindApplication], v)...)
	sortFindings(fs)
	res.Findings = fs
	return res
}

// besideInstallConfig returns the mirror objects an installer directory
// adds to the cluster: the manifests/ and openshift/ directories beside
// install-config.yaml, which openshift-install applies with its own.
func besideInstallConfig(ic *manifest.Object, objs []*manifest.Object) []*manifest.Object {
	dir := path.Dir(ic.File)
	var out []*manifest.Object
	for _, o := range objs {
		if !o.Unmodelled && installerDir(path.Dir(o.File)) == dir {
			out = append(out, o)
		}
	}
	return out
}

// isAgentConfig reports whether o is the agent-based installer's
// agent-config.yaml, which makes the install-config beside it the agent
// installer's.
func isAgentConfig(o *manifest.Object) bool {
	return o.Kind == "AgentConfig" || path.Base(o.File) == "agent-config.yaml"
}

// installerDir is the installer directory whose manifests/ or openshift/
// directory dir is ("" when it is neither): openshift-install applies
// what those hold with its own manifests.
func installerDir(dir string) string {
	switch path.Base(dir) {
	case "manifests", "openshift":
		return path.Dir(dir)
	}
	return ""
}

// poolConfigMaps are the ConfigMaps a NodePool's spec.config names.
func poolConfigMaps(np *manifest.Object, cms []*manifest.Object, ns string) []*manifest.Object {
	spec, _ := np.Content["spec"].(map[string]any)
	refs, _ := spec["config"].([]any)
	var out []*manifest.Object
	for _, r := range refs {
		m, _ := r.(map[string]any)
		name, _ := m["name"].(string)
		if cm := pickConfigMap(cms, name, np.File, ns); cm != nil {
			out = append(out, cm)
		}
	}
	return out
}
