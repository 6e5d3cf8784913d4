package ztp

import (
	"errors"
	"fmt"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// policyGenerator expands an ACM PolicyGenerator as the policy generator
// plugin does: each policy's manifests (files or directories, relative to
// the directory it runs in) with their patches applied as kustomize
// applies a strategic-merge patch, in the namespace of policyDefaults,
// bound by the policy's placement or else policyDefaults'.
func (e *expander) policyGenerator(n *yaml.Node) {
	pd := value(n, "policyDefaults")
	ns := scalar(pd, "namespace")
	if ns == "" {
		at := pd
		if at == nil {
			at = n
		}
		e.problem(at, CodeInvalid, "PolicyGenerator needs policyDefaults.namespace; the generator refuses it without one")
	}
	compliance := scalar(pd, "complianceType")
	if compliance == "" {
		compliance = "musthave"
	}
	for _, p := range seq(n, "policies") {
		p = deref(p)
		if !isMap(p) {
			continue
		}
		name := scalar(p, "name")
		at := value(p, "name")
		if name == "" {
			e.problem(p, CodeInvalid, "a PolicyGenerator policy needs a name")
			continue
		}
		pol := &Policy{Name: name, Namespace: ns, At: at}
		placement := value(p, "placement")
		if !hasPlacement(placement) {
			placement = value(pd, "placement")
		}
		sel, err := placementSelector(placement)
		if err != nil {
			e.problem(sel.At, CodeInvalid, "the placement of policy "+name+": "+err.Error())
		}
		pol.Selector = sel
		ct := compliance
		if v := scalar(p, "complianceType"); v != "" {
			ct = v
		}
		for _, m := range seq(p, "manifests") {
			m = deref(m)
			if !isMap(m) {
				continue
			}
			mct := ct
			if v := scalar(m, "complianceType"); v != "" {
				mct = v
			}
			for _, o := range e.manifest(m) {
				o.ComplianceType = mct
				pol.Objects = append(pol.Objects, o)
			}
		}
		e.policies = append(e.policies, pol)
	}
}

// manifest reads one manifests entry and applies its patches.
func (e *expander) manifest(m *yaml.Node) []*Object {
	path := scalar(m, "path")
	at := keyAt(m, "path")
	if path == "" {
		e.problem(at, CodeInvalid, "a PolicyGenerator manifest needs a path")
		return nil
	}
	files, err := e.src.Manifests(path)
	var objs []*Object
	kustomized := errors.Is(err, ErrKustomization)
	if kustomized {
		var k Kustomized
		k, err = e.src.Kustomization(path)
		objs = e.kustomized(k.Objects, at)
	}
	if err != nil {
		e.readProblem(at, err)
		return nil
	}
	for _, f := range files {
		docs, err := documents(f.Data)
		if err != nil {
			e.problem(at, CodeInvalid, fmt.Sprintf("the manifest %s does not parse: %v", f.Name, err))
			continue
		}
		for _, d := range docs {
			t := newTagged()
			obj := t.copyOf(d, f.Name)
			if obj.Kind != yaml.MappingNode {
				continue
			}
			objs = append(objs, &Object{Node: obj, Files: t.files, Source: f.Name, At: at})
		}
	}
	patches := seq(m, "patches")
	if len(objs) == 0 {
		if len(files) > 0 || len(patches) > 0 {
			e.problem(at, CodeInvalid, fmt.Sprintf("the manifest path %s holds no object", path))
		}
		return nil
	}
	if len(objs) == 1 && len(patches) == 1 && !kustomized {
		// A single manifest takes the patch's name and namespace before
		// it is patched (so a patch can rename the source CR); not one
		// kustomize built, which the generator takes as it comes.
		o := objs[0]
		pmd := value(patches[0], "metadata")
		md := value(o.Node, "metadata")
		for _, key := range []string{"name", "namespace"} {
			if k, v := entry(pmd, key); isMap(md) && k != nil && scalar(pmd, key) != "" {
				t := &tagged{files: o.Files}
				t.set(md, key, t.copyOf(k, e.file), t.copyOf(v, e.file))
			}
		}
	}
	for _, patch := range patches {
		patch = deref(patch)
		if !isMap(patch) {
			e.problem(at, CodeInvalid, "a patch is not a mapping")
			continue
		}
		targets := objs
		if len(objs) > 1 {
			targets = nil
			pmd := value(patch, "metadata")
			av, kind, name, pns := scalar(patch, "apiVersion"), scalar(patch, "kind"), scalar(pmd, "name"), scalar(pmd, "namespace")
			if av == "" || kind == "" || name == "" {
				e.problem(patch, CodeInvalid, fmt.Sprintf("the manifest path %s holds %d objects: each patch needs apiVersion, kind and metadata.name to say which it patches", path, len(objs)))
				continue
			}
			for _, o := range objs {
				omd := value(o.Node, "metadata")
				if scalar(o.Node, "apiVersion") == av && scalar(o.Node, "kind") == kind && scalar(omd, "name") == name && scalar(omd, "namespace") == pns {
					targets = append(targets, o)
				}
			}
			if len(targets) == 0 {
				e.problem(patch, CodeInvalid, fmt.Sprintf("the patch of %s/%s matches no object of %s; kustomize refuses it", kind, name, path))
				continue
			}
		}
		for _, o := range targets {
			t := &tagged{files: o.Files}
			e.patch(t, o.Node, patch, 0)
		}
	}
	return objs
}

// patch applies a strategic-merge patch onto cur as kustomize does for a
// kind it has no schema for: mappings merge, a null deletes the key, a
// list whose elements all carry a name (in both) merges by name, any other
// list is replaced. apiVersion and kind are the object's own.
func (e *expander) patch(t *tagged, cur, p *yaml.Node, depth int) {
	if depth > maxDepth {
		return
	}
	for i := 0; i+1 < len(p.Content); i += 2 {
		k, pv := p.Content[i], deref(p.Content[i+1])
		if depth == 0 && (k.Value == "apiVersion" || k.Value == "kind") {
			continue
		}
		if pv == nil || isNull(pv) {
			remove(cur, k.Value)
			continue
		}
		cv := value(cur, k.Value)
		switch {
		case cv != nil && cv.Kind == yaml.MappingNode && pv.Kind == yaml.MappingNode:
			e.patch(t, cv, pv, depth+1)
		case cv != nil && cv.Kind == yaml.SequenceNode && pv.Kind == yaml.SequenceNode && byName(cv) && byName(pv):
			e.mergeByName(t, cv, pv, depth+1)
		default:
			t.set(cur, k.Value, t.copyOf(k, e.file), t.copyOf(pv, e.file))
		}
	}
}

func byName(s *yaml.Node) bool {
	if len(s.Content) == 0 {
		return false
	}
	for _, el := range s.Content {
		if scalar(el, "name") == "" {
			return false
		}
	}
	return true
}

// mergeByName merges the elements of p into cur matched by name; new ones
// are appended.
func (e *expander) mergeByName(t *tagged, cur, p *yaml.Node, depth int) {
	for _, pel := range p.Content {
		name := scalar(pel, "name")
		var match *yaml.Node
		for _, cel := range cur.Content {
			if scalar(cel, "name") == name {
				match = deref(cel)
			}
		}
		if match != nil && match.Kind == yaml.MappingNode {
			e.patch(t, match, deref(pel), depth)
			continue
		}
		cur.Content = append(cur.Content, t.copyOf(pel, e.file))
	}
}
