package project

import (
	"strings"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/ztp"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// A policy's binding: the selectors any one of which places it on a
// managed cluster, each with where it is written. A policy no binding of
// the tree reaches has none, and Why says so.
type binding struct {
	sels []ztp.Selector
	at   []manifest.Position
	why  string
}

// known reports whether some selector can be evaluated from the tree.
func (b binding) known() bool {
	for _, s := range b.sels {
		if s.Unknown == "" {
			return true
		}
	}
	return false
}

// describe says in words where the policy is bound, for a policy no site
// gets.
func (b binding) describe() string {
	if len(b.sels) == 0 {
		return b.why
	}
	var parts []string
	for _, s := range b.sels {
		parts = append(parts, s.Describe())
	}
	return strings.Join(parts, "; or ")
}

// placementKinds are the ACM objects that bind a hand-written Policy.
var placementKinds = []string{"PlacementBinding", "PlacementRule", "Placement", "PolicySet"}

// acmBindings indexes the PlacementBindings of a tree by the policies they
// bind ("<namespace>/<name>"), through policy sets, with the selectors of
// the PlacementRule or Placement they name.
type acmBindings struct {
	byPolicy map[string]binding
}

func key(ns, name string) string { return ns + "/" + name }

func readBindings(objs []*manifest.Object) *acmBindings {
	rules := map[string]*manifest.Object{}
	placements := map[string]*manifest.Object{}
	sets := map[string][]string{}
	var binds []*manifest.Object
	for _, o := range objs {
		if o.Node == nil {
			continue
		}
		ns := scalarAt(o.Node, "metadata", "namespace")
		k := key(ns, o.Name)
		switch {
		case o.Kind == "PlacementRule" && strings.HasPrefix(o.APIVersion, "apps.open-cluster-management.io/"):
			rules[k] = o
		case o.Kind == "Placement" && strings.HasPrefix(o.APIVersion, "cluster.open-cluster-management.io/"):
			placements[k] = o
		case o.Kind == "PolicySet" && strings.HasPrefix(o.APIVersion, "policy.open-cluster-management.io/"):
			for _, p := range seqAt(o.Node, "spec", "policies") {
				if p.Kind == yaml.ScalarNode {
					sets[k] = append(sets[k], p.Value)
				}
			}
		case o.Kind == "PlacementBinding" && strings.HasPrefix(o.APIVersion, "policy.open-cluster-management.io/"):
			binds = append(binds, o)
		}
	}
	idx := &acmBindings{byPolicy: map[string]binding{}}
	for _, b := range binds {
		ns := scalarAt(b.Node, "metadata", "namespace")
		refKind := scalarAt(b.Node, "placementRef", "kind")
		refName := scalarAt(b.Node, "placementRef", "name")
		refAt := b.Locate(manifest.Path{"placementRef", "name"})
		var sels []ztp.Selector
		var at []manifest.Position
		switch {
		case refKind == "PlacementRule" && rules[key(ns, refName)] != nil:
			r := rules[key(ns, refName)]
			s := ztp.PlacementRuleSelector(r.Node)
			sels, at = append(sels, s), append(at, nodePos(r, s.At))
		case refKind == "Placement" && placements[key(ns, refName)] != nil:
			pl := placements[key(ns, refName)]
			for _, s := range ztp.PlacementSelectors(pl.Node) {
				sels, at = append(sels, s), append(at, nodePos(pl, s.At))
			}
		default:
			sels = append(sels, ztp.Selector{Unknown: "the " + refKind + " " + refName + ", which is not in the tree"})
			at = append(at, refAt)
		}
		for _, sub := range seqAt(b.Node, "subjects") {
			name := scalarAt(sub, "name")
			var pols []string
			switch scalarAt(sub, "kind") {
			case "Policy":
				pols = []string{name}
			case "PolicySet":
				pols = sets[key(ns, name)]
			}
			for _, p := range pols {
				cur := idx.byPolicy[key(ns, p)]
				cur.sels = append(cur.sels, sels...)
				cur.at = append(cur.at, at...)
				idx.byPolicy[key(ns, p)] = cur
			}
		}
	}
	return idx
}

// of is the binding of the policy ref names ("Policy/<namespace>/<name>").
func (a *acmBindings) of(ref string) binding {
	name := strings.TrimPrefix(ref, "Policy/")
	if !strings.Contains(name, "/") {
		name = "/" + name
	}
	if b, ok := a.byPolicy[name]; ok {
		return b
	}
	return binding{why: "no PlacementBinding of the tree binds " + ref + ", so ACM places it on no cluster unless the hub holds one"}
}

func nodePos(o *manifest.Object, n *yaml.Node) manifest.Position {
	if n == nil {
		return o.Position()
	}
	return o.PositionOf(n)
}

// scalarAt is the scalar at path under n, "" when absent.
func scalarAt(n *yaml.Node, path ...string) string {
	v := nodeAt(n, path...)
	if v == nil || v.Kind != yaml.ScalarNode {
		return ""
	}
	return v.Value
}

func seqAt(n *yaml.Node, path ...string) []*yaml.Node {
	v := nodeAt(n, path...)
	if v == nil || v.Kind != yaml.SequenceNode {
		return nil
	}
	return v.Content
}

func nodeAt(n *yaml.Node, path ...string) *yaml.Node {
	for _, k := range path {
		if n == nil || n.Kind != yaml.MappingNode {
			return nil
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				next = n.Content[i+1]
			}
		}
		n = next
	}
	return n
}
