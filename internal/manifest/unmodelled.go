package manifest

import (
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Unmodelled says which objects of the kinds mirrorlint has no type for (a
// Deployment, a CatalogSource, a ConfigMap) a load keeps. They come with
// Known false and Unmodelled true, and no typed pointer.
type Unmodelled int

const (
	// UnmodelledNone keeps none: the loader only reads their apiVersion
	// and kind, the cheapest load (render, diff, migrate).
	UnmodelledNone Unmodelled = iota
	// UnmodelledImages keeps the objects that pull images (workloads,
	// CatalogSource, ClusterCatalog) with only their identity and image
	// fields (Object.Partial): what the rules about pulls read, at a small
	// fraction of the memory of whole objects.
	UnmodelledImages
	// UnmodelledAll keeps every object whole, for policies that look at
	// any kind.
	UnmodelledAll
)

// imageFields says where an image-pulling kind holds its image references:
// paths from the object root, "*" standing for every item of a list.
type imageFields struct {
	group string // the apiVersion's group ("" for the core group)
	paths [][]string
	// keep is what partialNode keeps of such an object, made once per
	// kind: every workload of a large tree is pruned with it.
	keep fieldTrie
}

// podImages are the image fields of a pod spec at prefix.
func podImages(prefix ...string) [][]string {
	var out [][]string
	for _, list := range []string{"initContainers", "containers", "ephemeralContainers"} {
		p := append(append([]string(nil), prefix...), list, "*", "image")
		out = append(out, p)
	}
	return out
}

// imageKinds are the kinds whose image references a node pulls.
var imageKinds = withKeep(map[string]imageFields{
	"Pod":                   {group: "", paths: podImages("spec")},
	"PodTemplate":           {group: "", paths: podImages("template", "spec")},
	"ReplicationController": {group: "", paths: podImages("spec", "template", "spec")},
	"Deployment":            {group: "apps", paths: podImages("spec", "template", "spec")},
	"StatefulSet":           {group: "apps", paths: podImages("spec", "template", "spec")},
	"DaemonSet":             {group: "apps", paths: podImages("spec", "template", "spec")},
	"ReplicaSet":            {group: "apps", paths: podImages("spec", "template", "spec")},
	"Job":                   {group: "batch", paths: podImages("spec", "template", "spec")},
	"CronJob":               {group: "batch", paths: podImages("spec", "jobTemplate", "spec", "template", "spec")},
	"DeploymentConfig":      {group: "apps.openshift.io", paths: podImages("spec", "template", "spec")},
	"CatalogSource":         {group: "operators.coreos.com", paths: [][]string{{"spec", "image"}}},
	"ClusterCatalog":        {group: "olm.operatorframework.io", paths: [][]string{{"spec", "source", "image", "ref"}}},
})

// withKeep sets each kind's keep: of metadata, what identifies the object
// and the annotations that carry suppressions and origins (labels can be
// many, and no rule about pulls reads them; apiVersion and kind are on the
// Object), and the image fields.
func withKeep(kinds map[string]imageFields) map[string]imageFields {
	for k, f := range kinds {
		f.keep = fieldTrie{"metadata": fieldTrie{"name": nil, "namespace": nil, "annotations": nil}}
		for _, p := range f.paths {
			f.keep.add(p)
		}
		kinds[k] = f
	}
	return kinds
}

// imageFieldsOf returns where objects of apiVersion and kind hold images;
// ok is false for a kind that pulls none.
func imageFieldsOf(apiVersion, kind string) (imageFields, bool) {
	f, ok := imageKinds[kind]
	if !ok {
		return f, false
	}
	group, _, found := strings.Cut(apiVersion, "/")
	if !found {
		group = "" // "v1": the core group
	}
	return f, group == f.group
}

// ImageRef is one image reference an object makes a node pull.
type ImageRef struct {
	Image string
	Path  Path
}

// Images lists the image references o makes a node pull, in field order:
// the containers of a workload's pod template, a CatalogSource's
// spec.image, a ClusterCatalog's spec.source.image.ref. Values that are not
// strings are left out.
func (o *Object) Images() []ImageRef {
	f, ok := imageFieldsOf(o.APIVersion, string(o.Kind))
	if !ok {
		return nil
	}
	var out []ImageRef
	for _, p := range f.paths {
		collectImages(o.Content, p, nil, &out)
	}
	return out
}

func collectImages(v any, pattern []string, at Path, out *[]ImageRef) {
	if len(pattern) == 0 {
		if s, ok := v.(string); ok && s != "" {
			*out = append(*out, ImageRef{Image: s, Path: at})
		}
		return
	}
	if pattern[0] == "*" {
		list, _ := v.([]any)
		for i, item := range list {
			collectImages(item, pattern[1:], at.Child(i), out)
		}
		return
	}
	m, _ := v.(map[string]any)
	if next, ok := m[pattern[0]]; ok {
		collectImages(next, pattern[1:], at.Child(pattern[0]), out)
	}
}

// fieldTrie is a set of paths sharing prefixes; a nil child keeps the
// whole subtree.
type fieldTrie map[string]fieldTrie

func (t fieldTrie) add(p []string) {
	cur := t
	for i, k := range p {
		if i == len(p)-1 {
			cur[k] = nil
			return
		}
		next, ok := cur[k]
		if !ok || next == nil {
			next = fieldTrie{}
			cur[k] = next
		}
		cur = next
	}
}

// partialNode copies the parts of an object node a rule about image pulls
// reads (f.keep): metadata's name, namespace and annotations, and the
// image fields, each node keeping its position. The rest of the object is
// left for the garbage collector.
func partialNode(n *yaml.Node, f imageFields) *yaml.Node {
	return prune(n, f.keep, 0)
}

func prune(n *yaml.Node, t fieldTrie, depth int) *yaml.Node {
	n = deref(n)
	if n == nil || t == nil || depth > 20 {
		return n
	}
	switch n.Kind {
	case yaml.MappingNode:
		c := *n
		c.Content = nil
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			sub, ok := t[k.Value]
			if k.Kind != yaml.ScalarNode || !ok {
				continue
			}
			c.Content = append(c.Content, k, prune(n.Content[i+1], sub, depth+1))
		}
		return &c
	case yaml.SequenceNode:
		sub, ok := t["*"]
		if !ok {
			return &yaml.Node{Kind: yaml.SequenceNode, Tag: n.Tag, Line: n.Line, Column: n.Column}
		}
		c := *n
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, item := range n.Content {
			c.Content[i] = prune(item, sub, depth+1)
		}
		return &c
	}
	return n
}

// unmodelled keeps an object of a kind mirrorlint has no type for, as much
// of it as fp.keep asks: nothing, the image fields of an image-pulling
// kind, or the whole object. A kept object is never an error: what does
// not convert is left out.
func (fp *fileParse) unmodelled(n *yaml.Node, doc, item int, apiVersion, kind string, inferred bool) {
	platformCM := IsPlatformConfigMap(apiVersion, kind, namespaceOf(n))
	if (fp.keep == UnmodelledNone && !platformCM) || kind == "" || strings.HasPrefix(apiVersion, "kustomize.config.k8s.io/") {
		return // kustomization files are build instructions, not objects
	}
	o := &Object{APIVersion: apiVersion, Kind: Kind(kind), File: fp.name, Doc: doc, Item: item, Unmodelled: true}
	if fp.keep == UnmodelledAll || inputKinds[kind] || platformCM {
		o.Node, o.src = n, fp.source()
	} else {
		f, ok := imageFieldsOf(apiVersion, kind)
		if !ok {
			return
		}
		// No source text: ends of positions stay unknown, and the file's
		// text is not held for every workload of a large tree.
		o.Node, o.Partial = partialNode(n, f), true
	}
	content, err := toContent(o.Node)
	if err != nil {
		return
	}
	o.setContent(content, inferred)
	fp.res.objects = append(fp.res.objects, o)
}
