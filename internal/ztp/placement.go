package ztp

import (
	"fmt"
	"slices"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// ACM decides on the hub which managed clusters a Policy reaches: a
// PlacementBinding (policy.open-cluster-management.io/v1) binds policies
// or policy sets to a PlacementRule (apps.open-cluster-management.io/v1)
// or a Placement (cluster.open-cluster-management.io/v1beta1), whose
// label selectors pick the clusters. A ZTP PolicyGenTemplate writes a
// PlacementRule, a PolicyGenerator a Placement; a tree of hand-written
// policies writes the three objects itself. The functions below read the
// selectors of those objects as the API server stores them (field names
// are matched exactly) and as ACM evaluates them.

// PlacementRuleSelector reads a PlacementRule: spec.clusterSelector, a
// Kubernetes label selector (an absent or empty one selects every
// cluster), and spec.clusters, the names it is limited to when set. A
// selector ACM cannot evaluate (an unknown operator, In without values)
// selects nothing; spec.clusterReplicas leaves the choice among the
// matching clusters to the hub. Both are reported in Unknown.
func PlacementRuleSelector(obj *yaml.Node) Selector {
	spec := value(obj, "spec")
	k, sel := entry(spec, "clusterSelector")
	s, err := labelSelector(deref(sel))
	s.At = k
	if err != nil {
		s.Unknown = "a clusterSelector ACM refuses (" + err.Error() + ")"
		return s
	}
	if v := value(spec, "clusterReplicas"); v != nil && !isNull(v) {
		s.Unknown = "clusterReplicas " + v.Value + ", which lets the hub pick among the matching clusters"
		return s
	}
	if names := value(spec, "clusters"); names != nil && names.Kind == yaml.SequenceNode {
		s.Names = []string{}
		for _, c := range names.Content {
			if n := scalar(c, "name"); n != "" {
				s.Names = append(s.Names, n)
			}
		}
	}
	return s
}

// PlacementSelectors reads a Placement: each of spec.predicates is a
// requiredClusterSelector, and a cluster the labelSelector of any one of
// them selects is placed (no predicate at all places every cluster). A
// predicate selecting on cluster claims, numberOfClusters or a
// prioritizer decide on facts only the hub has: the selector returned
// for it is Unknown. The cluster sets bound to the namespace, which a
// Placement picks from, are the hub's too; every cluster is taken to be
// in one.
func PlacementSelectors(obj *yaml.Node) []Selector {
	spec := value(obj, "spec")
	if v := value(spec, "numberOfClusters"); v != nil && !isNull(v) {
		k, _ := entry(spec, "numberOfClusters")
		return []Selector{{At: k, Unknown: "numberOfClusters " + v.Value + ", which lets the hub pick among the matching clusters"}}
	}
	k, preds := entry(spec, "predicates")
	preds = deref(preds)
	if preds == nil || preds.Kind != yaml.SequenceNode || len(preds.Content) == 0 {
		return []Selector{{At: k}}
	}
	var out []Selector
	for _, p := range preds.Content {
		rk, req := entry(p, "requiredClusterSelector")
		if rk == nil {
			rk = deref(p)
		}
		if c := value(req, "claimSelector"); c != nil && !isNull(c) && len(c.Content) > 0 {
			out = append(out, Selector{At: rk, Unknown: "a claimSelector, which selects on cluster claims only the hub knows"})
			continue
		}
		s, err := labelSelector(value(req, "labelSelector"))
		s.At = rk
		if err != nil {
			s.Unknown = "a labelSelector ACM refuses (" + err.Error() + ")"
		}
		out = append(out, s)
	}
	return out
}

// labelSelector reads a Kubernetes label selector (matchLabels, then
// matchExpressions, all of them to hold); nil or empty selects every
// cluster. The errors are those of the API machinery's conversion to a
// selector, which ACM uses.
func labelSelector(n *yaml.Node) (Selector, error) {
	var s Selector
	if n == nil || isNull(n) {
		return s, nil
	}
	if n.Kind != yaml.MappingNode {
		return s, fmt.Errorf("not a mapping")
	}
	ml, err := stringMap(value(n, "matchLabels"))
	if err != nil {
		return s, fmt.Errorf("matchLabels %w", err)
	}
	for _, key := range slices.Sorted(mapsKeys(ml)) {
		s.Requirements = append(s.Requirements, Requirement{Key: key, Operator: "In", Values: []string{ml[key]}})
	}
	for _, e := range seq(n, "matchExpressions") {
		r := Requirement{Key: scalar(e, "key"), Operator: scalar(e, "operator")}
		for _, v := range seq(e, "values") {
			if v = deref(v); v != nil && v.Kind == yaml.ScalarNode {
				r.Values = append(r.Values, v.Value)
			}
		}
		switch r.Operator {
		case "In", "NotIn":
			if len(r.Values) == 0 {
				return s, fmt.Errorf("%s %s needs values", r.Key, r.Operator)
			}
		case "Exists", "DoesNotExist":
			if len(r.Values) > 0 {
				return s, fmt.Errorf("%s %s takes no values", r.Key, r.Operator)
			}
		default:
			return s, fmt.Errorf("operator %q is not In, NotIn, Exists or DoesNotExist", r.Operator)
		}
		s.Requirements = append(s.Requirements, r)
	}
	return s, nil
}
