package sites

import (
	"fmt"
	"maps"
	"slices"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

const (
	KindSiteConfig      = "SiteConfig"
	KindClusterInstance = "ClusterInstance"

	APIVersionSiteConfig      = "ran.openshift.io/v1"
	APIVersionClusterInstance = "siteconfig.open-cluster-management.io/v1alpha1"
)

// Kinds are the kinds this package reads.
var Kinds = []string{KindSiteConfig, KindClusterInstance, KindAgentClusterInstall, KindManagedCluster}

// DefaultClusterTemplates is the ClusterInstance cluster-level template set
// the SiteConfig operator ships for the assisted installer flow.
const DefaultClusterTemplates = "ai-cluster-templates-v1"

// defaultTemplateLabels are the labels the default ManagedCluster template
// writes; ACM's import replaces the values with the detected ones.
var defaultTemplateLabels = map[string]string{"cloud": "auto-detect", "vendor": "auto-detect"}

// Site is one spoke cluster: a site's (SiteConfig cluster entry or
// ClusterInstance), or a hand-written AgentClusterInstall's.
type Site struct {
	Name      string
	Namespace string
	Kind      string
	Object    *manifest.Object
	// Path is the site's mapping inside Object: spec.clusters[i] for a
	// SiteConfig, spec for a ClusterInstance or an AgentClusterInstall.
	Path manifest.Path
	// Labels are the ManagedCluster's labels whose values the tree gives:
	// those the site writes and the template's, and those the hub sets to
	// values known here (name, the cluster set; see hubLabels);
	// labelPaths says where the user wrote each (template and hub labels
	// have none).
	Labels     map[string]string
	labelPaths map[string]manifest.Path
	// HubLabels are the labels the managed cluster has once imported whose
	// values only the hub knows (cloud and vendor written "auto-detect",
	// clusterID, the OpenShift version, the add-ons' AddonLabels), sorted;
	// none of them is in Labels.
	HubLabels []string
	// TemplateKnown is false for a ClusterInstance whose cluster templates
	// are not the default set: their own labels are unknown here.
	TemplateKnown bool
	// NetworkType is the site's networkType, defaulted to OVNKubernetes as
	// both the generator and the CRD do; CPUPartitioningAllNodes is true
	// with cpuPartitioningMode: AllNodes, which rewrites the overrides.
	NetworkType             string
	CPUPartitioningAllNodes bool
	// ImageSet is clusterImageSetNameRef (the cluster's, else the
	// SiteConfig's), "" when unset.
	ImageSet string
	// ImageSetPath is where ImageSet is written, nil when it is not.
	ImageSetPath manifest.Path
	// Overrides is nil when the site sets no installConfigOverrides (an
	// AgentClusterInstall no install-config-overrides annotation).
	Overrides *Overrides
	// MirrorRegistryRef is an AgentClusterInstall's spec.mirrorRegistryRef,
	// nil when it sets none and for a site.
	MirrorRegistryRef *ConfigMapRef
	// ManagedCluster is the ManagedCluster a hand-written
	// AgentClusterInstall's labels are read from, nil when the tree holds
	// none of its name and for a site. ManagedClusterRefused is set when
	// the API server refuses it (labels that are not strings): the spoke
	// is then never imported, and Labels is nil.
	ManagedCluster        *manifest.Object
	ManagedClusterRefused bool
}

// Problem is something wrong with a site's declaration that keeps part of
// it from being read (a label map that is not a map of strings).
type Problem struct {
	Pos     manifest.Position
	Message string
	// Overrides is set for a problem with the overrides document (one that
	// is no string), not with the labels.
	Overrides bool
	// Component is who refuses what the problem is in: "" for the site's
	// generator or operator (or its CRD), kube-apiserver for a
	// ManagedCluster.
	Component string
}

// LabelPos returns where label key is written, the labels' mapping (or the
// site) when it is not written by the user.
func (s *Site) LabelPos(key string) manifest.Position {
	o := s.labelsObject()
	if p, ok := s.labelPaths[key]; ok {
		return o.LocateKey(p)
	}
	return o.Locate(s.labelsPath())
}

// labelsObject is the object the labels are written in: the site's own,
// or a hand-written AgentClusterInstall's ManagedCluster.
func (s *Site) labelsObject() *manifest.Object {
	if s.ManagedCluster != nil {
		return s.ManagedCluster
	}
	return s.Object
}

func (s *Site) labelsPath() manifest.Path {
	switch {
	case s.ManagedCluster != nil:
		return manifest.Path{"metadata", "labels"}
	case s.Kind == KindSiteConfig:
		return s.Path.Child("clusterLabels")
	}
	return s.Path.Child("extraLabels", "ManagedCluster")
}

// labelsRef names the object the labels are written in, for messages.
func (s *Site) labelsRef() string {
	if s.ManagedCluster != nil {
		return KindManagedCluster + "/" + s.ManagedCluster.Name
	}
	return s.Ref()
}

// Ref names the site for messages: "SiteConfig/ns/name cluster ran-1".
func (s *Site) Ref() string {
	if s.Kind == KindSiteConfig {
		return fmt.Sprintf("SiteConfig/%s cluster %s", s.Object.Name, s.Name)
	}
	return s.Kind + "/" + s.Object.Name
}

// From returns the sites of objs in order (objects of other kinds are
// skipped), with the problems that kept part of a site unread.
func From(objs []*manifest.Object) ([]*Site, []Problem) {
	var out []*Site
	var probs []Problem
	for _, o := range objs {
		if o.Node == nil || o.Content == nil || o.Partial {
			continue
		}
		switch {
		case string(o.Kind) == KindSiteConfig && o.APIVersion == APIVersionSiteConfig:
			s, p := siteConfig(o)
			out, probs = append(out, s...), append(probs, p...)
		case string(o.Kind) == KindClusterInstance && o.APIVersion == APIVersionClusterInstance:
			s, p := clusterInstance(o)
			out, probs = append(out, s), append(probs, p...)
		}
	}
	return out, probs
}

func siteConfig(o *manifest.Object) ([]*Site, []Problem) {
	spec, _ := o.Content["spec"].(map[string]any)
	clusters, _ := spec["clusters"].([]any)
	ns, _ := manifest.NestedString(o.Content, "metadata", "namespace")
	siteImageSet, _ := spec["clusterImageSetNameRef"].(string)
	var out []*Site
	var probs []Problem
	for i, c := range clusters {
		cm, ok := c.(map[string]any)
		if !ok {
			continue
		}
		s := &Site{Kind: KindSiteConfig, Object: o, Namespace: ns, Path: manifest.Path{"spec", "clusters", i}, TemplateKnown: true}
		s.Name, _ = cm["clusterName"].(string)
		s.ImageSet = siteImageSet
		if siteImageSet != "" {
			s.ImageSetPath = manifest.Path{"spec", "clusterImageSetNameRef"}
		}
		if v, ok := cm["clusterImageSetNameRef"].(string); ok && v != "" {
			s.ImageSet, s.ImageSetPath = v, s.Path.Child("clusterImageSetNameRef")
		}
		s.common(cm)
		probs = append(probs, s.readLabels(cm["clusterLabels"], s.Path.Child("clusterLabels"))...)
		s.hubLabels()
		probs = append(probs, s.readOverrides(cm)...)
		out = append(out, s)
	}
	return out, probs
}

func clusterInstance(o *manifest.Object) (*Site, []Problem) {
	spec, _ := o.Content["spec"].(map[string]any)
	ns, _ := manifest.NestedString(o.Content, "metadata", "namespace")
	s := &Site{Kind: KindClusterInstance, Object: o, Namespace: ns, Path: manifest.Path{"spec"}}
	s.Name, _ = spec["clusterName"].(string)
	s.ImageSet, _ = spec["clusterImageSetNameRef"].(string)
	if s.ImageSet != "" {
		s.ImageSetPath = manifest.Path{"spec", "clusterImageSetNameRef"}
	}
	s.common(spec)
	s.TemplateKnown = usesDefaultTemplates(spec)
	s.Labels = map[string]string{}
	s.labelPaths = map[string]manifest.Path{}
	var probs []Problem
	extra, _ := spec["extraLabels"].(map[string]any)
	probs = append(probs, s.readLabels(extra["ManagedCluster"], s.Path.Child("extraLabels", "ManagedCluster"))...)
	if s.TemplateKnown {
		for k, v := range defaultTemplateLabels {
			// The operator does not overwrite the template's labels.
			s.Labels[k] = v
			delete(s.labelPaths, k)
		}
	}
	s.hubLabels()
	probs = append(probs, s.readOverrides(spec)...)
	return s, probs
}

// usesDefaultTemplates reports whether the cluster-level templateRefs are
// the default assisted-installer set (or unset, which the webhook refuses).
func usesDefaultTemplates(spec map[string]any) bool {
	refs, _ := spec["templateRefs"].([]any)
	for _, r := range refs {
		m, _ := r.(map[string]any)
		if name, _ := m["name"].(string); name != DefaultClusterTemplates {
			return false
		}
	}
	return true
}

func (s *Site) common(m map[string]any) {
	s.NetworkType, _ = m["networkType"].(string)
	if s.NetworkType == "" {
		s.NetworkType = "OVNKubernetes"
	}
	mode, _ := m["cpuPartitioningMode"].(string)
	s.CPUPartitioningAllNodes = mode == "AllNodes"
}

func (s *Site) readLabels(v any, at manifest.Path) []Problem {
	if s.Labels == nil {
		s.Labels, s.labelPaths = map[string]string{}, map[string]manifest.Path{}
	}
	if v == nil {
		return nil
	}
	o := s.labelsObject()
	m, ok := v.(map[string]any)
	if !ok {
		return []Problem{{Pos: o.Locate(at), Message: fmt.Sprintf("%s: %s must be a map of label names to values", s.labelsRef(), at)}}
	}
	var probs []Problem
	for _, k := range slices.Sorted(maps.Keys(m)) {
		val, ok := m[k].(string)
		if !ok && s.Kind == KindSiteConfig {
			// The SiteConfig generator decodes the labels with yaml.v3
			// into strings, which takes any scalar as the text it is
			// written with (common: true is "true"); only the
			// ClusterInstance CRD refuses a value that is no string.
			if n := o.ValueNode(at.Child(k)); n != nil && n.Kind == yaml.ScalarNode {
				val, ok = n.Value, true
			}
		}
		if !ok && m[k] != nil {
			probs = append(probs, Problem{Pos: o.Locate(at.Child(k)), Message: fmt.Sprintf("%s: label %q must have a string value (quote it)", s.labelsRef(), k)})
			continue
		}
		s.Labels[k], s.labelPaths[k] = val, at.Child(k)
	}
	return probs
}

func (s *Site) readOverrides(m map[string]any) []Problem {
	text, ok := m["installConfigOverrides"].(string)
	p := s.Path.Child("installConfigOverrides")
	if _, present := m["installConfigOverrides"]; present && !ok {
		return []Problem{{Pos: s.Object.Locate(p), Overrides: true, Message: fmt.Sprintf("%s: installConfigOverrides must be a string holding JSON", s.Ref())}}
	}
	if !ok || text == "" {
		return nil
	}
	s.Overrides = newOverrides(s, text, p)
	return nil
}
