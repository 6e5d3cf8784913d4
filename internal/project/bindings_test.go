package project

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// The PlacementBindings of a tree bind policies by name or through a
// PolicySet, to a PlacementRule or a Placement of their namespace; a
// binding to a placement the tree lacks, and a policy nothing binds, are
// the hub's to decide.
func TestReadBindings(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "bindings.yaml")
	text := `apiVersion: policy.open-cluster-management.io/v1
kind: PlacementBinding
metadata:
  name: by-rule
  namespace: ztp-site
placementRef:
  apiGroup: apps.open-cluster-management.io
  kind: PlacementRule
  name: sno2-rule
subjects:
- apiGroup: policy.open-cluster-management.io
  kind: Policy
  name: sno2-mirrors
---
apiVersion: apps.open-cluster-management.io/v1
kind: PlacementRule
metadata:
  name: sno2-rule
  namespace: ztp-site
spec:
  clusterSelector:
    matchLabels:
      sites: sno2
---
apiVersion: policy.open-cluster-management.io/v1beta1
kind: PolicySet
metadata:
  name: group-set
  namespace: ztp-site
spec:
  policies:
  - group-mirrors
  - sno2-mirrors
---
apiVersion: cluster.open-cluster-management.io/v1beta1
kind: Placement
metadata:
  name: group-placement
  namespace: ztp-site
spec:
  predicates:
  - requiredClusterSelector:
      labelSelector:
        matchExpressions:
        - key: group-du-sno
          operator: Exists
---
apiVersion: policy.open-cluster-management.io/v1
kind: PlacementBinding
metadata:
  name: by-set
  namespace: ztp-site
placementRef:
  apiGroup: cluster.open-cluster-management.io
  kind: Placement
  name: group-placement
subjects:
- apiGroup: policy.open-cluster-management.io
  kind: PolicySet
  name: group-set
---
apiVersion: policy.open-cluster-management.io/v1
kind: PlacementBinding
metadata:
  name: elsewhere
  namespace: ztp-site
placementRef:
  apiGroup: cluster.open-cluster-management.io
  kind: Placement
  name: on-the-hub
subjects:
- apiGroup: policy.open-cluster-management.io
  kind: Policy
  name: hub-placed
`
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := manifest.Load([]string{file}, manifest.Options{Unmodelled: manifest.UnmodelledAll})
	if err != nil {
		t.Fatal(err)
	}
	idx := readBindings(set.Objects)
	describe := func(ref string) string {
		b := idx.of(ref)
		var parts []string
		for i, s := range b.sels {
			parts = append(parts, s.String()+" @"+strings.TrimPrefix(b.at[i].String(), file))
		}
		if b.why != "" {
			parts = append(parts, b.why)
		}
		return strings.Join(parts, " | ")
	}
	for ref, want := range map[string]string{
		"Policy/ztp-site/sno2-mirrors":  "sites=sno2 @:21:3 | group-du-sno @:42:5",
		"Policy/ztp-site/group-mirrors": "group-du-sno @:42:5",
		"Policy/ztp-site/hub-placed":    "the Placement on-the-hub, which is not in the tree @:70:9",
		"Policy/other/sno2-mirrors":     "no PlacementBinding of the tree binds Policy/other/sno2-mirrors, so ACM places it on no cluster unless the hub holds one",
	} {
		if got := describe(ref); got != want {
			t.Errorf("%s: %q, want %q", ref, got, want)
		}
	}
	if b := idx.of("Policy/ztp-site/hub-placed"); b.known() {
		t.Error("a binding to a placement the tree lacks cannot be evaluated")
	}
	if b := idx.of("Policy/ztp-site/sno2-mirrors"); !b.known() || !b.sels[0].Selects("sno2", map[string]string{"sites": "sno2"}) {
		t.Error("the PlacementRule selects sno2")
	}
}
