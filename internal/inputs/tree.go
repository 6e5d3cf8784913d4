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
	sites.KindSiteConfig, sites.KindClusterInstance, "HostedCluster", "NodePool",
	string(manifest.KindIDMS), string(manifest.KindITMS), string(manifest.KindICSP)}

// Result is what a tree's inputs give: the findings and the clusters they
// create, in file order.
type Result struct {
	Findings []Finding
	Clusters []*Cluster
	Sites    []*sites.Site
}

// Read reads the inputs of objs (a load with manifest.UnmodelledAll).
// v is the release assumed where the input does not name one (zero: the
// newest behaviour).
func Read(objs []*manifest.Object, v render.Version) *Result {
	res := &Result{}
	var fs findings
	byKind := map[string][]*manifest.Object{}
	agentDirs := map[string]bool{}
	for _, o := range objs {
		if o.Content == nil || o.Partial {
			continue
		}
		byKind[string(o.Kind)] = append(byKind[string(o.Kind)], o)
		if o.Kind == "AgentConfig" || path.Base(o.File) == "agent-config.yaml" {
			agentDirs[path.Dir(o.File)] = true
		}
	}
	for _, o := range byKind[manifest.KindInstallConfig] {
		ic := readInstallConfig(o, agentDirs)
		f := ic.Check(v)
		fs = append(fs, f...)
		c := ic.Cluster(v)
		// openshift-install stops before writing any manifest.
		c.Refused = c.Refused || slices.ContainsFunc(f, func(f Finding) bool { return f.Severity == check.Error && f.Component == installer })
		res.Clusters = append(res.Clusters, c)
	}

	var hub *HubMirrors
	for _, asc := range byKind["AgentServiceConfig"] {
		if h := readHub(asc, byKind["ConfigMap"]); h != nil {
			fs = append(fs, h.Check()...)
			if hub == nil {
				hub = h
			}
		}
	}
	ss, probs := sites.From(objs)
	res.Sites = ss
	for _, p := range probs {
		fs.add(p.Pos, check.Error, RuleSiteLabels, "siteconfig", "%s", p.Message)
	}
	for _, s := range ss {
		c, f := spoke(s, hub, v)
		fs = append(fs, f...)
		res.Clusters = append(res.Clusters, c)
	}
	if len(ss) == 0 && hub != nil && hub.ConfigMap != nil && hub.Err == "" {
		// No site in the tree: the spokes this hub installs get its
		// mirrors as they are.
		c, _ := spoke(&sites.Site{Name: "spokes of AgentServiceConfig/" + hub.ASC.Name, Object: hub.ASC, Path: manifest.Path{"spec", "mirrorRegistryRef"}}, hub, v)
		res.Clusters = append(res.Clusters, c)
	}

	var hosted []*Hosted
	for _, o := range byKind["HostedCluster"] {
		h := readHosted(o, byKind["NodePool"])
		hosted = append(hosted, h)
		fs = append(fs, h.Check()...)
		res.Clusters = append(res.Clusters, h.Cluster(byKind["ConfigMap"], &fs))
	}
	fs = append(fs, guestObjects(hosted, objs, v)...)
	sortFindings(fs)
	res.Findings = fs
	return res
}
