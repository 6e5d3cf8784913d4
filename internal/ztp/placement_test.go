package ztp

import (
	"slices"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/kyaml/yaml"
)

func parseNode(t *testing.T, text string) *yaml.Node {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	return deref(&doc)
}

// The label selector operators as the API machinery evaluates them: NotIn
// and DoesNotExist hold for a cluster without the label, In and Exists do
// not; an empty value is a value like any other.
func TestSelectsOperators(t *testing.T) {
	sno := map[string]string{"common": "true", "group-du-sno": "", "du-profile": "4.20"}
	bare := map[string]string{}
	cases := []struct {
		r         Requirement
		sno, bare bool
	}{
		{Requirement{Key: "common", Operator: "In", Values: []string{"true"}}, true, false},
		{Requirement{Key: "common", Operator: "In", Values: []string{"false", "yes"}}, false, false},
		{Requirement{Key: "group-du-sno", Operator: "In", Values: []string{""}}, true, false},
		{Requirement{Key: "group-du-sno", Operator: "Exists"}, true, false},
		{Requirement{Key: "group-du-sno", Operator: "DoesNotExist"}, false, true},
		{Requirement{Key: "du-profile", Operator: "NotIn", Values: []string{"4.18"}}, true, true},
		{Requirement{Key: "du-profile", Operator: "NotIn", Values: []string{"4.18", "4.20"}}, false, true},
		{Requirement{Key: "du-profile", Operator: "Gt", Values: []string{"4"}}, false, false},
	}
	for _, c := range cases {
		s := Selector{Requirements: []Requirement{c.r}}
		if got := s.Selects("sno1", sno); got != c.sno {
			t.Errorf("%s on sno1: %v, want %v", s, got, c.sno)
		}
		if got := s.Selects("bare", bare); got != c.bare {
			t.Errorf("%s on a cluster without labels: %v, want %v", s, got, c.bare)
		}
	}
	if !(Selector{}).Selects("any", bare) {
		t.Error("an empty selector selects every cluster")
	}
	if (Selector{Unknown: "a placement by name"}).Selects("any", bare) {
		t.Error("a selector that cannot be evaluated selects nothing")
	}
	named := Selector{Names: []string{"sno2"}}
	if named.Selects("sno1", sno) || !named.Selects("sno2", bare) {
		t.Error("spec.clusters limits the selection to the names it lists")
	}
}

func TestBecause(t *testing.T) {
	s := Selector{Requirements: []Requirement{
		{Key: "common", Operator: "In", Values: []string{"true"}},
		{Key: "group-du-sno", Operator: "Exists"},
		{Key: "du-profile", Operator: "NotIn", Values: []string{"4.18"}},
		{Key: "lab", Operator: "DoesNotExist"},
		{Key: "zone", Operator: "NotIn", Values: []string{"a", "b"}},
	}}
	got := s.Because(map[string]string{"common": "true", "group-du-sno": "", "du-profile": "4.20"})
	want := []string{"common=true", `group-du-sno=""`, "du-profile=4.20 (not 4.18)", "no lab", "no zone"}
	if !slices.Equal(got, want) {
		t.Errorf("Because = %q, want %q", got, want)
	}
	if got := s.String(); got != "common=true,group-du-sno,du-profile!=4.18,!lab,zone notin (a,b)" {
		t.Errorf("String = %q", got)
	}
}

// A label only the hub knows the value of (ACM's import detects vendor and
// sets clusterID): that it exists is known, its value is not, so In and
// NotIn on it leave the answer open unless another requirement fails.
func TestDecideOnHubLabels(t *testing.T) {
	labels := map[string]string{"name": "sno1", "common": "true"}
	hub := []string{"cloud", "clusterID", "vendor"}
	req := func(key, op string, values ...string) Requirement {
		return Requirement{Key: key, Operator: op, Values: values}
	}
	for _, c := range []struct {
		reqs    []Requirement
		selects bool
		open    []string
	}{
		{[]Requirement{req("name", "In", "sno1")}, true, nil},
		{[]Requirement{req("name", "In", "sno2")}, false, nil},
		{[]Requirement{req("clusterID", "Exists")}, true, nil},
		{[]Requirement{req("clusterID", "DoesNotExist")}, false, nil},
		{[]Requirement{req("vendor", "In", "OpenShift"), req("common", "In", "true")}, false, []string{"vendor=OpenShift"}},
		{[]Requirement{req("cloud", "NotIn", "AWS", "Azure")}, false, []string{"cloud notin (AWS,Azure)"}},
		// A requirement that fails decides, whatever the hub says.
		{[]Requirement{req("vendor", "In", "OpenShift"), req("common", "In", "false")}, false, nil},
	} {
		s := Selector{Requirements: c.reqs}
		selects, open := s.Decide("sno1", labels, hub)
		if selects != c.selects || !slices.Equal(open, c.open) {
			t.Errorf("%s: selects %v, open %q; want %v, %q", s, selects, open, c.selects, c.open)
		}
	}
	s := Selector{Requirements: []Requirement{req("clusterID", "Exists"), req("name", "In", "sno1")}}
	if got := s.Because(labels, hub...); !slices.Equal(got, []string{"clusterID (set at import)", "name=sno1"}) {
		t.Errorf("Because = %q", got)
	}
}

// An entry of the hub's labels ending in "*" stands for labels the hub may
// or may not set (one per add-on): even Exists and DoesNotExist on one are
// the hub's to decide, unless the cluster's own labels decide first.
func TestDecideOnHubLabelPrefix(t *testing.T) {
	labels := map[string]string{"name": "sno1"}
	hub := []string{"clusterID", "feature.open-cluster-management.io/addon-*"}
	addon := "feature.open-cluster-management.io/addon-config-policy-controller"
	for _, c := range []struct {
		req     Requirement
		selects bool
		open    []string
	}{
		{Requirement{Key: addon, Operator: "Exists"}, false, []string{addon}},
		{Requirement{Key: addon, Operator: "DoesNotExist"}, false, []string{"!" + addon}},
		{Requirement{Key: addon, Operator: "In", Values: []string{"available"}}, false, []string{addon + "=available"}},
		{Requirement{Key: "feature.open-cluster-management.io/other", Operator: "Exists"}, false, nil},
	} {
		s := Selector{Requirements: []Requirement{c.req, {Key: "name", Operator: "In", Values: []string{"sno1"}}}}
		selects, open := s.Decide("sno1", labels, hub)
		if selects != c.selects || !slices.Equal(open, c.open) {
			t.Errorf("%s: selects %v, open %q; want %v, %q", s, selects, open, c.selects, c.open)
		}
	}
}

// The PlacementRule a PolicyGenTemplate's bindingRules become, and one
// written by hand with matchLabels and spec.clusters.
func TestPlacementRuleSelector(t *testing.T) {
	s := PlacementRuleSelector(parseNode(t, `apiVersion: apps.open-cluster-management.io/v1
kind: PlacementRule
metadata:
  name: common-placementrules
  namespace: ztp-common
spec:
  clusterSelector:
    matchExpressions:
    - key: common
      operator: In
      values:
      - "true"
    - key: du-zone
      operator: NotIn
      values: [lab]
`))
	if s.Unknown != "" || s.String() != "common=true,du-zone!=lab" || s.At == nil || s.At.Line != 7 {
		t.Fatalf("selector %q (unknown %q), at %v", s.String(), s.Unknown, s.At)
	}
	s = PlacementRuleSelector(parseNode(t, `kind: PlacementRule
spec:
  clusters:
  - name: sno2
  clusterSelector:
    matchLabels:
      sites: sno2
`))
	if !slices.Equal(s.Names, []string{"sno2"}) || s.String() != "cluster in (sno2),sites=sno2" {
		t.Errorf("names %q, selector %q", s.Names, s.String())
	}
	if s := PlacementRuleSelector(parseNode(t, "kind: PlacementRule\nspec: {}\n")); s.Unknown != "" || s.Describe() != "bound to every managed cluster" {
		t.Errorf("an empty PlacementRule: %q %q", s.Unknown, s.Describe())
	}
	for text, unknown := range map[string]string{
		"spec:\n  clusterSelector:\n    matchExpressions:\n    - key: a\n      operator: In\n":              "a clusterSelector ACM refuses (a In needs values)",
		"spec:\n  clusterSelector:\n    matchExpressions:\n    - {key: a, operator: Exists, values: [x]}\n": "a clusterSelector ACM refuses (a Exists takes no values)",
		"spec:\n  clusterReplicas: 1\n": "clusterReplicas 1, which lets the hub pick among the matching clusters",
	} {
		if s := PlacementRuleSelector(parseNode(t, text)); s.Unknown != unknown {
			t.Errorf("%s: unknown %q, want %q", text, s.Unknown, unknown)
		}
	}
}

// A Placement's predicates are alternatives; one selecting on claims is
// the hub's to evaluate.
func TestPlacementSelectors(t *testing.T) {
	sels := PlacementSelectors(parseNode(t, `apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata:
  name: group-placement
spec:
  predicates:
  - requiredClusterSelector:
      labelSelector:
        matchExpressions:
        - key: group-du-sno
          operator: Exists
  - requiredClusterSelector:
      labelSelector:
        matchLabels:
          sites: sno9
  - requiredClusterSelector:
      claimSelector:
        matchExpressions:
        - key: platform.open-cluster-management.io
          operator: In
          values: [BareMetal]
`))
	var got []string
	for _, s := range sels {
		got = append(got, s.String())
	}
	want := []string{"group-du-sno", "sites=sno9", "a claimSelector, which selects on cluster claims only the hub knows"}
	if !slices.Equal(got, want) {
		t.Fatalf("selectors %q, want %q", got, want)
	}
	if sels[0].At.Line != 7 || sels[1].At.Line != 12 {
		t.Errorf("positions %d, %d", sels[0].At.Line, sels[1].At.Line)
	}
	all := PlacementSelectors(parseNode(t, "kind: Placement\nspec: {}\n"))
	if len(all) != 1 || !all[0].Selects("x", nil) {
		t.Errorf("a Placement without predicates places every cluster: %+v", all)
	}
	n := PlacementSelectors(parseNode(t, "kind: Placement\nspec:\n  numberOfClusters: 2\n"))
	if len(n) != 1 || !strings.HasPrefix(n[0].Unknown, "numberOfClusters 2") {
		t.Errorf("numberOfClusters: %+v", n)
	}
}

// A cluster whose labels are unknown but for its name: only requirements
// on name, and the names a selector is limited to, can leave it out.
func TestMaySelect(t *testing.T) {
	for _, c := range []struct {
		s    Selector
		want bool
	}{
		{Selector{}, true},
		{Selector{Requirements: []Requirement{{Key: "common", Operator: "In", Values: []string{"true"}}}}, true},
		{Selector{Requirements: []Requirement{{Key: "du-profile", Operator: "DoesNotExist"}}}, true},
		{Selector{Requirements: []Requirement{{Key: "name", Operator: "In", Values: []string{"sno1"}}}}, true},
		{Selector{Requirements: []Requirement{{Key: "name", Operator: "In", Values: []string{"sno2"}}}}, false},
		{Selector{Requirements: []Requirement{{Key: "name", Operator: "NotIn", Values: []string{"sno1"}}}}, false},
		{Selector{Requirements: []Requirement{{Key: "name", Operator: "DoesNotExist"}}}, false},
		{Selector{Names: []string{"sno2"}}, false},
		{Selector{Names: []string{"sno1"}}, true},
		{Selector{Unknown: "the placement placementName p, which is not evaluated here"}, false},
	} {
		if got := c.s.MaySelect("sno1"); got != c.want {
			t.Errorf("%s (names %v, unknown %q): MaySelect(sno1) = %v, want %v", c.s, c.s.Names, c.s.Unknown, got, c.want)
		}
	}
}
