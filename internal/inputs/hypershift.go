package inputs

import (
	"fmt"
	"path"
	"strings"

	configv1 "github.com/openshift/api/config/v1"
	operatorv1alpha1 "github.com/openshift/api/operator/v1alpha1"
	"sigs.k8s.io/kustomize/kyaml/yaml"
	sigsyaml "sigs.k8s.io/yaml"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/embedded"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

const hypershiftOperator = "hypershift-operator"

// Rule ids of the HyperShift checks.
const (
	RuleHostedDuplicate    = "hosted-cluster-duplicate-mirror"
	RuleNodePoolConfigType = "nodepool-config-type"
	RuleNodePoolConfigMap  = "nodepool-config-configmap"
	RuleGuestMirrorObject  = "hosted-cluster-guest-mirror-object"
)

// admissionSince is the first control-plane release whose
// hosted-cluster-config-operator installs the admission policies that
// deny mirror objects made in the guest cluster.
const admissionSince = 18

// Hosted is one HostedCluster with its NodePools.
type Hosted struct {
	Object    *manifest.Object
	Name      string
	Namespace string
	Sources   []DigestSource
	NodePools []*manifest.Object
	Version   render.Version // from spec.release.image's tag (the nearest modelled release), zero if unknown
	// BaseDomain is spec.dns.baseDomain: the API server is
	// api.<name>.<baseDomain>.
	BaseDomain string

	stopped []PoolStop
}

// PoolStop is a NodePool the NodePool controller stops because its config
// holds a kind it refuses: ValidMachineConfig turns false and no node of
// the pool gets any of the pool's config.
type PoolStop struct {
	NodePool string
	Kind     string
	Pos      manifest.Position // the refused document's kind
	Reason   string            // the controller's words
}

func readHosted(o *manifest.Object, pools []*manifest.Object) *Hosted {
	h := &Hosted{Object: o, Name: o.Name}
	h.Namespace, _ = manifest.NestedString(o.Content, "metadata", "namespace")
	h.BaseDomain, _ = manifest.NestedString(o.Content, "spec", "dns", "baseDomain")
	spec, _ := o.Content["spec"].(map[string]any)
	h.Sources = readSources(spec["imageContentSources"], manifest.Path{"spec", "imageContentSources"})
	locate(o, h.Sources)
	if img, ok := manifest.NestedString(o.Content, "spec", "release", "image"); ok {
		if v := releaseTagVersion(img); !v.IsZero() {
			h.Version, _ = modelled(v)
		}
	}
	for _, np := range pools {
		cluster, _ := manifest.NestedString(np.Content, "spec", "clusterName")
		ns, _ := manifest.NestedString(np.Content, "metadata", "namespace")
		if cluster == h.Name && ns == h.Namespace {
			h.NodePools = append(h.NodePools, np)
		}
	}
	return h
}

// Check reports what the management cluster's API server refuses, and a
// release image outside the modelled releases, checked as given (the
// run's release; zero: the nearest modelled one).
func (h *Hosted) Check(given render.Version) []Finding {
	var fs findings
	img, _ := manifest.NestedString(h.Object.Content, "spec", "release", "image")
	if v := releaseTagVersion(img); !v.IsZero() {
		if used, ok := checkedAs(v, given); !ok {
			releaseNote(&fs, v, used, h.Object.Locate(manifest.Path{"spec", "release", "image"}), "spec.release.image "+img)
		}
	}
	for _, ds := range h.Sources {
		seen := map[string]bool{}
		for j, m := range ds.Mirrors {
			if seen[m] {
				fs.add(h.Object.Locate(ds.Path.Child("mirrors", j)), check.Error, RuleHostedDuplicate, "kube-apiserver",
					"duplicate mirror: HostedCluster CRD refuses (mirrors is a set): HostedCluster.hypershift.openshift.io %q is invalid: %s: Duplicate value: %q; delete the repeated mirror",
					h.Name, ds.Path.Child("mirrors", j), m)
			}
			seen[m] = true
		}
	}
	return fs
}

func (h *Hosted) refused() bool {
	for _, ds := range h.Sources {
		seen := map[string]bool{}
		for _, m := range ds.Mirrors {
			if seen[m] {
				return true
			}
			seen[m] = true
		}
	}
	return false
}

// hypershiftIDMS is ReconcileImageDigestMirrors' object: IDMS "cluster",
// labelled for the worker pool, entries 1:1, no policy.
func hypershiftIDMS(list []DigestSource) *configv1.ImageDigestMirrorSet {
	idms := installerIDMS(list)
	idms.Name = "cluster"
	idms.Labels = map[string]string{"machineconfiguration.openshift.io/role": "worker"}
	for i := range idms.Spec.ImageDigestMirrors {
		idms.Spec.ImageDigestMirrors[i].MirrorSourcePolicy = ""
	}
	return idms
}

// nodePoolConfig reads the ConfigMaps a NodePool's spec.config names (key
// "config", YAML manifests) as the NodePool controller does: the mirror
// objects they hold join the hosted nodes' inputs; an ImageTagMirrorSet
// or a kind outside the supported ones stops the NodePool.
func (h *Hosted) nodePoolConfig(cms []*manifest.Object, fs *findings) (idms []*configv1.ImageDigestMirrorSet, icsp []*operatorv1alpha1.ImageContentSourcePolicy, objs []*manifest.Object) {
	for _, np := range h.NodePools {
		spec, _ := np.Content["spec"].(map[string]any)
		refs, _ := spec["config"].([]any)
		for i, r := range refs {
			m, _ := r.(map[string]any)
			name, _ := m["name"].(string)
			cm := pickConfigMap(cms, name, np.File, h.Namespace)
			if cm == nil {
				continue
			}
			if ns, _ := manifest.NestedString(cm.Content, "metadata", "namespace"); ns != "" && ns != h.Namespace {
				continue
			}
			text, ok := manifest.NestedString(cm.Content, "data", "config")
			if !ok {
				fs.add(cm.LocateKey(manifest.Path{"data"}), check.Error, RuleNodePoolConfigMap, hypershiftOperator,
					"ConfigMap %s named by NodePool %s spec.config[%d] has no key \"config\": the NodePool controller cannot read it (ValidMachineConfig false, the NodePool stops); put the manifest under data.config", name, np.Name, i)
				continue
			}
			d, c, o, stops := readPoolManifests(cm, text, np, fs)
			idms, icsp, objs = append(idms, d...), append(icsp, c...), append(objs, o...)
			h.stopped = append(h.stopped, stops...)
		}
	}
	return idms, icsp, objs
}

var supportedPoolKinds = map[string]bool{
	"MachineConfig": true, "KubeletConfig": true, "ContainerRuntimeConfig": true,
	"ImageContentSourcePolicy": true, "ImageDigestMirrorSet": true, "ClusterImagePolicy": true,
}

func readPoolManifests(cm *manifest.Object, text string, np *manifest.Object, fs *findings) (idms []*configv1.ImageDigestMirrorSet, icsp []*operatorv1alpha1.ImageContentSourcePolicy, objs []*manifest.Object, stops []PoolStop) {
	var et *embedded.Text
	if n := cm.ValueNode(manifest.Path{"data", "config"}); n != nil {
		et = embedded.Of(cm.Text(), n)
	}
	pos := func(n *yaml.Node) manifest.Position {
		if et == nil {
			return cm.Locate(manifest.Path{"data", "config"})
		}
		// Offset of the node's line and column in the decoded text.
		off, line := 0, 1
		for line < n.Line && off < len(text) {
			if text[off] == '\n' {
				line++
			}
			off++
		}
		l, c := et.Pos(off + n.Column - 1)
		return manifest.Position{File: cm.File, Line: l, Column: c}
	}
	dec := yaml.NewDecoder(strings.NewReader(text))
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			break
		}
		if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			continue
		}
		root := doc.Content[0]
		var kind, apiVersion string
		var kindNode *yaml.Node
		for i := 0; i+1 < len(root.Content); i += 2 {
			switch root.Content[i].Value {
			case "kind":
				kind, kindNode = root.Content[i+1].Value, root.Content[i+1]
			case "apiVersion":
				apiVersion = root.Content[i+1].Value
			}
		}
		if kindNode == nil {
			continue
		}
		if !supportedPoolKinds[kind] {
			typ := "*v1." + kind
			fs.add(pos(kindNode), check.Error, RuleNodePoolConfigType, hypershiftOperator,
				"NodePool %s config holds %s %s: the NodePool controller refuses it (unsupported config type: %s; ValidMachineConfig false) and the NodePool stops updating; move it out of the NodePool config (hosted nodes get digest mirrors from HostedCluster spec.imageContentSources, and no tag mirrors)", np.Name, article(kind), kind, typ)
			stops = append(stops, PoolStop{NodePool: np.Name, Kind: kind, Pos: pos(kindNode), Reason: "unsupported config type: " + typ})
			continue
		}
		var raw map[string]any
		if err := root.Decode(&raw); err != nil {
			continue
		}
		b, err := sigsyaml.Marshal(raw)
		if err != nil {
			continue
		}
		// The object as loaded, every value placed at the ConfigMap line
		// it is written on.
		nodeAt := func(p manifest.Path) manifest.Position {
			if n := nodeAtPath(root, p); n != nil {
				return pos(n)
			}
			return manifest.Position{}
		}
		switch {
		case kind == "ImageDigestMirrorSet" && apiVersion == "config.openshift.io/v1",
			kind == "ImageContentSourcePolicy" && apiVersion == "operator.openshift.io/v1alpha1":
			if o, err := manifest.Derived(b, cm.File, pos(root), nodeAt); err == nil {
				objs = append(objs, o)
			}
		}
		switch {
		case kind == "ImageDigestMirrorSet" && apiVersion == "config.openshift.io/v1":
			var o configv1.ImageDigestMirrorSet
			if sigsyaml.Unmarshal(b, &o) == nil {
				idms = append(idms, &o)
			}
		case kind == "ImageContentSourcePolicy" && apiVersion == "operator.openshift.io/v1alpha1":
			var o operatorv1alpha1.ImageContentSourcePolicy
			if sigsyaml.Unmarshal(b, &o) == nil {
				icsp = append(icsp, &o)
			}
		}
	}
	return idms, icsp, objs, stops
}

// nodeAtPath follows p (keys and indexes) from n.
func nodeAtPath(n *yaml.Node, p manifest.Path) *yaml.Node {
	for _, e := range p {
		switch e := e.(type) {
		case string:
			if n.Kind != yaml.MappingNode {
				return nil
			}
			var next *yaml.Node
			for i := 0; i+1 < len(n.Content); i += 2 {
				if n.Content[i].Value == e {
					next = n.Content[i+1]
				}
			}
			if next == nil {
				return nil
			}
			n = next
		case int:
			if n.Kind != yaml.SequenceNode || e >= len(n.Content) {
				return nil
			}
			n = n.Content[e]
		}
	}
	return n
}

// Cluster returns the hosted cluster: the IDMS HyperShift writes from
// spec.imageContentSources and the mirror objects of its NodePools'
// configs, which the ignition server renders with MCO's bootstrap.
func (h *Hosted) Cluster(cms []*manifest.Object, fs *findings) *Cluster {
	c := &Cluster{Name: h.Name, Kind: "hosted-cluster", From: h.Object.Position(), Version: h.Version}
	if h.refused() {
		c.Refused = true
		return c
	}
	if len(h.Sources) > 0 {
		c.IDMSs = append(c.IDMSs, hypershiftIDMS(h.Sources))
	}
	c.derive([][]DigestSource{h.Sources})
	idms, icsp, objs := h.nodePoolConfig(cms, fs)
	c.IDMSs, c.ICSPs, c.Objects = append(c.IDMSs, idms...), append(c.ICSPs, icsp...), append(c.Objects, objs...)
	// The rules still read a stopped pool's objects; the render does not
	// pretend its nodes got them (Cluster.NotRendered).
	c.Stopped = h.stopped
	return c
}

// NotRendered says why no registries.conf is rendered for the cluster
// although it exists: a NodePool the NodePool controller stopped, whose
// nodes never get the config; "" when it renders. pos is the refused
// value.
func (c *Cluster) NotRendered() (why string, pos manifest.Position) {
	if len(c.Stopped) == 0 {
		return "", manifest.Position{}
	}
	s := c.Stopped[0]
	return fmt.Sprintf("%s refuses the config of NodePool %s (%s; ValidMachineConfig false): the NodePool stops, so its nodes never get a registries.conf from this config; move the %s out of the NodePool config, hosted nodes get digest mirrors from HostedCluster spec.imageContentSources",
		hypershiftOperator, s.NodePool, s.Reason, s.Kind), s.Pos
}

// guestObjects reports mirror objects committed for the guest cluster of
// a hosted cluster: a mirror object in a directory named after the
// HostedCluster (guest/<name>/…) outside the HostedCluster's own
// directory, or in a directory an Argo CD Application of the tree syncs
// into the hosted cluster (see argoSyncsTo). No MCO runs in the guest, so
// they never reach its nodes; from 4.18 the admission policies deny them.
func guestObjects(hosted []*Hosted, objs, apps []*manifest.Object, v render.Version) []Finding {
	var fs findings
	for _, h := range hosted {
		own := path.Dir(h.Object.File)
		syncs := argoSyncsTo(h, apps)
		for _, o := range objs {
			switch o.Kind {
			case manifest.KindIDMS, manifest.KindITMS, manifest.KindICSP:
			default:
				continue
			}
			how := "is committed for"
			dir := path.Dir(o.File)
			if dir == own || strings.HasPrefix(dir, own+"/") || !hasSegment(dir, h.Name) {
				how = ""
			}
			for _, s := range syncs {
				if how == "" && s.synced(o.File) {
					how = fmt.Sprintf("is synced by Argo CD Application %s (%s, path %s) into", s.App.Name, s.App.Position(), s.Dir)
				}
			}
			if how == "" {
				continue
			}
			ver := h.Version
			if ver.IsZero() {
				ver = v
			}
			sev, denied := check.Warning, ""
			if ver.IsZero() || ver.Minor >= admissionSince {
				sev = check.Error
				denied = fmt.Sprintf(" and the hosted cluster's admission policy denies it from 4.%d (This resource cannot be created, updated, or deleted. Please ask your administrator to modify the resource in the HostedCluster object.)", admissionSince)
			}
			fs.add(o.Position(), sev, RuleGuestMirrorObject, "hosted-cluster-config-operator",
				"%s %q %s hosted cluster %s, whose nodes never get it (no MCO runs in the guest cluster)%s; put the mirrors in HostedCluster %s spec.imageContentSources (%s)",
				o.Kind, o.Name, how, h.Name, denied, h.Name, h.Object.Position())
		}
	}
	return fs
}

func hasSegment(dir, name string) bool {
	for _, s := range strings.Split(dir, "/") {
		if s == name {
			return true
		}
	}
	return false
}

func article(word string) string {
	if word != "" && strings.ContainsRune("AEIOU", rune(word[0])) {
		return "an"
	}
	return "a"
}
