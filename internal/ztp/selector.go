package ztp

import (
	"fmt"
	"slices"
	"strings"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

// Requirement is one term of a cluster label selector.
type Requirement struct {
	Key      string
	Operator string // In, NotIn, Exists, DoesNotExist
	Values   []string
}

// Selector is which managed clusters a policy is bound to, by their
// labels. An empty selector selects every cluster, as an empty label
// selector does.
type Selector struct {
	Requirements []Requirement
	// Unknown says why the selector cannot be evaluated from the
	// repository (a placement given by name or path); Matches is then
	// false for every cluster.
	Unknown string
	// At is the line that writes the selector (bindingRules, placement);
	// nil when the policy has none.
	At *yaml.Node
	// Names, when set, are the only clusters the selector can select (a
	// PlacementRule's spec.clusters), by ManagedCluster name.
	Names []string
}

// Selects tells whether the managed cluster name, with these labels,
// gets the policy: one of Names when they are set, and Matches.
func (s Selector) Selects(name string, labels map[string]string) bool {
	if s.Names != nil && !slices.Contains(s.Names, name) {
		return false
	}
	return s.Matches(labels)
}

// Decide is Selects for a cluster that also has the labels hub, whose
// values only the hub knows (those ACM's import detects): a requirement
// that one Exists holds and that it DoesNotExist fails, but In and NotIn
// cannot be decided here. An entry of hub ending in "*" stands for the
// labels whose keys begin with the rest, which the hub may or may not
// set (one per add-on): no requirement on one is decided. When every
// other requirement holds, open lists those (as String writes them) and
// selects is false: whether the cluster gets the policy is the hub's to
// say.
func (s Selector) Decide(name string, labels map[string]string, hub []string) (selects bool, open []string) {
	if s.Unknown != "" || s.Names != nil && !slices.Contains(s.Names, name) {
		return false, nil
	}
	for _, r := range s.Requirements {
		if _, known := labels[r.Key]; !known && hubHas(hub, r.Key) {
			switch {
			case r.Operator == "Exists" && slices.Contains(hub, r.Key):
				continue
			case r.Operator == "In" || r.Operator == "NotIn" || !slices.Contains(hub, r.Key):
				open = append(open, Selector{Requirements: []Requirement{r}}.String())
				continue
			}
			return false, nil
		}
		if !r.holds(labels) {
			return false, nil
		}
	}
	return len(open) == 0, open
}

// Because says, for a cluster the selector selects, what in its labels
// satisfies each requirement, in the selector's order: "common=true" for
// a label In the values or that Exists, "no du-profile" for one that is
// absent (DoesNotExist, or NotIn without the label), "du-profile=4.20
// (not 4.18)" for NotIn; an empty value is written `group-du-sno=""`. A
// label of hub (Decide) that Exists is "clusterID (set at import)". An
// empty selector gives nil: it selects every cluster whatever its labels.
func (s Selector) Because(labels map[string]string, hub ...string) []string {
	var out []string
	if s.Names != nil {
		out = append(out, "listed in spec.clusters")
	}
	for _, r := range s.Requirements {
		v, has := labels[r.Key]
		switch {
		case !has && hubHas(hub, r.Key):
			out = append(out, r.Key+" (set at import)")
		case !has:
			out = append(out, "no "+r.Key)
		case r.Operator == "NotIn":
			out = append(out, labelText(r.Key, v)+" (not "+strings.Join(r.Values, ",")+")")
		default:
			out = append(out, labelText(r.Key, v))
		}
	}
	return out
}

// hubHas reports whether key is one of the labels hub (see Decide).
func hubHas(hub []string, key string) bool {
	return slices.ContainsFunc(hub, func(h string) bool {
		prefix, wild := strings.CutSuffix(h, "*")
		return h == key || wild && strings.HasPrefix(key, prefix)
	})
}

// Matches tells whether a cluster with these labels gets the policy.
func (s Selector) Matches(labels map[string]string) bool {
	if s.Unknown != "" {
		return false
	}
	for _, r := range s.Requirements {
		if !r.holds(labels) {
			return false
		}
	}
	return true
}

// holds tells whether a cluster with these labels meets r.
func (r Requirement) holds(labels map[string]string) bool {
	v, has := labels[r.Key]
	switch r.Operator {
	case "Exists":
		return has
	case "DoesNotExist":
		return !has
	case "In":
		return has && slices.Contains(r.Values, v)
	case "NotIn":
		return !has || !slices.Contains(r.Values, v)
	}
	return false
}

// labelText writes a label as key=value, an empty value as key="" so that
// it reads as set.
func labelText(k, v string) string {
	if v == "" {
		return k + `=""`
	}
	return k + "=" + v
}

// String writes the selector as kubectl shows one: "a=b,c in (d,e),!f".
func (s Selector) String() string {
	if s.Unknown != "" {
		return s.Unknown
	}
	if len(s.Requirements) == 0 && s.Names == nil {
		return "every cluster"
	}
	var parts []string
	if s.Names != nil {
		parts = append(parts, "cluster in ("+strings.Join(s.Names, ",")+")")
	}
	for _, r := range s.Requirements {
		switch r.Operator {
		case "Exists":
			parts = append(parts, r.Key)
		case "DoesNotExist":
			parts = append(parts, "!"+r.Key)
		case "In":
			if len(r.Values) == 1 {
				parts = append(parts, r.Key+"="+r.Values[0])
			} else {
				parts = append(parts, r.Key+" in ("+strings.Join(r.Values, ",")+")")
			}
		case "NotIn":
			if len(r.Values) == 1 {
				parts = append(parts, r.Key+"!="+r.Values[0])
			} else {
				parts = append(parts, r.Key+" notin ("+strings.Join(r.Values, ",")+")")
			}
		}
	}
	return strings.Join(parts, ",")
}

// bindingSelector reads a PolicyGenTemplate's bindingRules and
// bindingExcludedRules as the ZTP generator turns them into a
// PlacementRule: an empty value is Exists (DoesNotExist when excluded),
// any other is In (NotIn) the comma-separated values; keys sorted.
func bindingSelector(spec *yaml.Node) (Selector, error) {
	var s Selector
	rulesKey, rules := entry(spec, "bindingRules")
	exclKey, excl := entry(spec, "bindingExcludedRules")
	s.At = rulesKey
	if s.At == nil {
		s.At = exclKey
	}
	in, err := stringMap(rules)
	if err != nil {
		return s, fmt.Errorf("bindingRules: %w", err)
	}
	out, err := stringMap(excl)
	if err != nil {
		return s, fmt.Errorf("bindingExcludedRules: %w", err)
	}
	for _, k := range slices.Sorted(mapsKeys(out)) {
		if v, found := in[k]; found && (out[k] == "" || out[k] == v) {
			return s, fmt.Errorf("label %s:%q is in bindingRules and %s:%q in bindingExcludedRules, which the generator refuses", k, v, k, out[k])
		}
	}
	for _, k := range slices.Sorted(mapsKeys(in)) {
		s.Requirements = append(s.Requirements, requirement(k, in[k], "Exists", "In", true))
	}
	for _, k := range slices.Sorted(mapsKeys(out)) {
		s.Requirements = append(s.Requirements, requirement(k, out[k], "DoesNotExist", "NotIn", true))
	}
	return s, nil
}

func requirement(key, v, empty, some string, split bool) Requirement {
	if v == "" {
		return Requirement{Key: key, Operator: empty}
	}
	if split {
		return Requirement{Key: key, Operator: some, Values: strings.Split(v, ",")}
	}
	return Requirement{Key: key, Operator: some, Values: []string{v}}
}

func mapsKeys(m map[string]string) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// stringMap reads a mapping of strings; nil for an absent one.
func stringMap(n *yaml.Node) (map[string]string, error) {
	n = deref(n)
	if n == nil || isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("is not a mapping of labels")
	}
	m := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		v := deref(n.Content[i+1])
		if v == nil || v.Kind != yaml.ScalarNode {
			return nil, fmt.Errorf("label %s is not a string", n.Content[i].Value)
		}
		if isNull(v) {
			m[n.Content[i].Value] = ""
		} else {
			m[n.Content[i].Value] = v.Value
		}
	}
	return m, nil
}

// placementSelector reads a PolicyGenerator placement as the ACM policy
// generator does: a labelSelector that is a Kubernetes label selector
// (matchLabels, matchExpressions), or else a map of label to value (an
// empty value is Exists), the older clusterSelectors form alike. A
// placement named by placementName or placementPath lives elsewhere.
func placementSelector(placement *yaml.Node) (Selector, error) {
	var s Selector
	for _, key := range []string{"placementPath", "placementName"} {
		if k, _ := entry(placement, key); k != nil && scalar(placement, key) != "" {
			s.At = k
			s.Unknown = fmt.Sprintf("the placement %s %s, which is not evaluated here", key, scalar(placement, key))
			return s, nil
		}
	}
	k, sel := entry(placement, "labelSelector")
	if k == nil {
		k, sel = entry(placement, "clusterSelectors")
	}
	if k == nil {
		k, sel = entry(placement, "clusterSelector")
	}
	s.At = k
	sel = deref(sel)
	if sel == nil || isNull(sel) {
		return s, nil
	}
	if sel.Kind != yaml.MappingNode {
		return s, fmt.Errorf("%s is not a mapping", k.Value)
	}
	if labelSelectorShape(sel) {
		ml, err := stringMap(foldValue(sel, "matchLabels"))
		if err != nil {
			return s, fmt.Errorf("matchLabels %w", err)
		}
		for _, key := range slices.Sorted(mapsKeys(ml)) {
			s.Requirements = append(s.Requirements, Requirement{Key: key, Operator: "In", Values: []string{ml[key]}})
		}
		var exprs []*yaml.Node
		if v := foldValue(sel, "matchExpressions"); v != nil && v.Kind == yaml.SequenceNode {
			exprs = v.Content
		}
		for _, e := range exprs {
			r := Requirement{Key: scalar(e, "key"), Operator: scalar(e, "operator")}
			for _, v := range seq(e, "values") {
				if v = deref(v); v != nil && v.Kind == yaml.ScalarNode {
					r.Values = append(r.Values, v.Value)
				}
			}
			switch r.Operator {
			case "In", "NotIn", "Exists", "DoesNotExist":
			default:
				return s, fmt.Errorf("matchExpressions operator %q is not In, NotIn, Exists or DoesNotExist", r.Operator)
			}
			s.Requirements = append(s.Requirements, r)
		}
		return s, nil
	}
	m, err := stringMap(sel)
	if err != nil {
		return s, fmt.Errorf("%s is neither a label selector nor a map of labels: %w", k.Value, err)
	}
	for _, key := range slices.Sorted(mapsKeys(m)) {
		s.Requirements = append(s.Requirements, requirement(key, m[key], "Exists", "In", false))
	}
	return s, nil
}

// labelSelectorShape tells a Kubernetes label selector (only matchLabels
// and matchExpressions keys) from a plain map of labels. The generator
// decodes it with encoding/json, which matches field names regardless of
// case (matchexpressions is a matchExpressions).
func labelSelectorShape(n *yaml.Node) bool {
	if len(n.Content) == 0 {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i].Value; !strings.EqualFold(k, "matchLabels") && !strings.EqualFold(k, "matchExpressions") {
			return false
		}
	}
	return true
}

// foldValue is the value of key in m, the key matched regardless of case
// (the last one written wins, as encoding/json decodes it).
func foldValue(m *yaml.Node, key string) *yaml.Node {
	m = deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	var v *yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		if strings.EqualFold(m.Content[i].Value, key) {
			v = m.Content[i+1]
		}
	}
	return deref(v)
}

// hasPlacement tells whether a placement sets any of what the generator
// reads; an unset one takes policyDefaults'.
func hasPlacement(p *yaml.Node) bool {
	for _, k := range []string{"labelSelector", "clusterSelectors", "clusterSelector", "placementPath", "placementName"} {
		if v := value(p, k); v != nil && !isNull(v) && (v.Kind != yaml.MappingNode || len(v.Content) > 0) && (v.Kind != yaml.ScalarNode || v.Value != "") {
			return true
		}
	}
	return false
}

// Describe says in words which managed clusters get the policy.
func (s Selector) Describe() string {
	switch {
	case s.Unknown != "":
		return "bound through " + s.Unknown
	case len(s.Requirements) == 0 && s.Names == nil:
		return "bound to every managed cluster"
	case len(s.Requirements) == 0:
		return "bound to the managed clusters " + strings.Join(s.Names, ", ")
	}
	return "bound to the managed clusters labelled " + s.String()
}
