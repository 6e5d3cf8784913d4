package sites

import (
	"fmt"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// A hub tree may declare a spoke by hand, without a site: the
// AgentClusterInstall (with its ClusterDeployment, InfraEnv, ...) that the
// siteconfig-generator or the SiteConfig operator would otherwise render.
// assisted-service reads it as it reads a rendered one: the
// ClusterDeployment named by spec.clusterDeploymentRef (in the
// AgentClusterInstall's namespace) is the cluster, spec.imageSetRef its
// ClusterImageSet, spec.mirrorRegistryRef a ConfigMap of mirrors, and the
// annotation agent-install.openshift.io/install-config-overrides the
// document it decodes over the install-config, as written: nothing is
// spliced into it, unlike a site's installConfigOverrides.

const (
	KindAgentClusterInstall       = "AgentClusterInstall"
	APIVersionAgentClusterInstall = "extensions.hive.openshift.io/v1beta1"
	// OverridesAnnotation is the AgentClusterInstall annotation holding
	// the install-config overrides.
	OverridesAnnotation = "agent-install.openshift.io/install-config-overrides"
)

// ConfigMapRef is a reference to a ConfigMap, and where it is written.
type ConfigMapRef struct {
	Name, Namespace string
	Path            manifest.Path
}

// AgentClusterInstalls returns the AgentClusterInstalls of objs as sites
// of that kind, in order, with the problems that keep part of one unread.
// Such a site is named after its ClusterDeployment (clusterDeploymentRef,
// else its own name), which is what a site's clusterName names too (the
// generator and the operator name the ClusterDeployment, the
// AgentClusterInstall and their namespace after it). Its labels are those
// of the ManagedCluster of objs of that name (the nearest, when the tree
// holds copies), with the hub's; without one it has none (Labels nil).
//
// An annotation that is no string (unquoted JSON, which YAML reads as a
// mapping) is a problem, and the object no site: the API server refuses
// an object whose annotation is no string.
func AgentClusterInstalls(objs []*manifest.Object) ([]*Site, []Problem) {
	var out []*Site
	var probs []Problem
	var mcs map[string][]*manifest.Object
	for _, o := range objs {
		if o.Node == nil || o.Content == nil || o.Partial ||
			string(o.Kind) != KindAgentClusterInstall || o.APIVersion != APIVersionAgentClusterInstall {
			continue
		}
		s, p := agentClusterInstall(o)
		probs = append(probs, p...)
		if s == nil {
			continue
		}
		if mcs == nil {
			mcs = managedClusters(objs)
		}
		if mc := manifest.Nearest(o.File, mcs[s.Name]); mc != nil {
			probs = append(probs, s.readManagedCluster(mc)...)
		}
		out = append(out, s)
	}
	return out, probs
}

func agentClusterInstall(o *manifest.Object) (*Site, []Problem) {
	spec, _ := o.Content["spec"].(map[string]any)
	s := &Site{Kind: KindAgentClusterInstall, Object: o, Path: manifest.Path{"spec"}}
	s.Namespace, _ = manifest.NestedString(o.Content, "metadata", "namespace")
	s.Name, _ = manifest.NestedString(spec, "clusterDeploymentRef", "name")
	if s.Name == "" {
		s.Name = o.Name
	}
	if s.Name == "" {
		return nil, nil // no object the API server takes: a template's text
	}
	if s.ImageSet, _ = manifest.NestedString(spec, "imageSetRef", "name"); s.ImageSet != "" {
		s.ImageSetPath = manifest.Path{"spec", "imageSetRef", "name"}
	}
	if name, _ := manifest.NestedString(spec, "mirrorRegistryRef", "name"); name != "" {
		ns, _ := manifest.NestedString(spec, "mirrorRegistryRef", "namespace")
		s.MirrorRegistryRef = &ConfigMapRef{Name: name, Namespace: ns, Path: manifest.Path{"spec", "mirrorRegistryRef"}}
	}
	p := manifest.Path{"metadata", "annotations", OverridesAnnotation}
	v, present := p.Lookup(o.Content)
	text, ok := v.(string)
	if present && !ok && v != nil {
		return nil, []Problem{{Pos: o.Locate(p), Overrides: true, Message: fmt.Sprintf(
			"%s: annotation %s must be a string holding JSON, not a YAML %s: the API server refuses the object (annotations are strings), so it creates no cluster; single-quote the JSON",
			s.Ref(), OverridesAnnotation, yamlKind(v))}}
	}
	if text != "" {
		s.Overrides = newOverrides(s, text, p)
	}
	return s, nil
}

// yamlKind names what YAML made of a value that is no string.
func yamlKind(v any) string {
	switch v.(type) {
	case map[string]any:
		return "mapping"
	case []any:
		return "sequence"
	}
	return "scalar that is no string"
}
