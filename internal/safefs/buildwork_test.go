package safefs

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// What a file may make kustomize hold is bounded from above: documents,
// List items, JSON objects with a kind, a kustomization's entries.
func TestResourcesInBoundsWhatKustomizeHolds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, text string
		want       int
	}{
		{"docs.yaml", "kind: A\n---\nkind: B\n---\napiVersion: v1\nkind: C\nmetadata:\n  ownerReferences:\n  - kind: D\n", 4},
		{"crd.yaml", "kind: CustomResourceDefinition\nspec:\n  names: {kind: Foo}\n  versions:\n  - schema:\n      properties:\n        kind:\n          type: string\n        kind: # a comment\n", 1},
		{"list.yaml", "apiVersion: v1\nkind: List\nitems:\n- kind: A\n-   kind: B\n- apiVersion: v1\n  kind: C\n", 4},
		{"a.json", `{"kind": "List", "items": [{"kind":"A"}, {"kind": "B"}], "properties": {"kind": {"type": "string"}}}`, 3},
		{"kustomization.yaml", "resources:\n- a.yaml\n- b.yaml\nconfigMapGenerator:\n- name: x\n  literals: [a=b]\n", 3},
		{"plain.yaml", "a: 1\nkinds: 2\n", 0},
	} {
		if got := resourcesIn(tc.name, []byte(tc.text)); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
	if grouped(5000) != "5,000" || grouped(100000000) != "100,000,000" || grouped(12) != "12" {
		t.Error("grouped", grouped(5000), grouped(100000000), grouped(12))
	}
}

// A build reading more than the bound is refused at the read that passes
// it; builds of one run under the bound are refused once together they
// have cost the run's budget, builds of another run are not.
func TestKustomizeFSBoundsBuildWork(t *testing.T) {
	t.Parallel()
	docs := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "---\nkind: ConfigMap\nmetadata: {name: c%d}\n", i)
		}
		return b.String()
	}
	dir := testtree.Write(t, map[string]string{"a.yaml": docs(3000), "b.yaml": docs(2500), "c.yaml": docs(100)})
	read := func(k *KustomizeFS, name string) error {
		_, err := k.ReadFile(filepath.Join(dir, name))
		return err
	}
	// The run may spend what two builds of 100 resources cost.
	root := New(0, dir)
	root.Budget = &Budget{MaxBuildWork: 2 * buildCost(100)}
	one := NewKustomizeFS(&Root{dirs: root.dirs, files: root.files, Budget: &Budget{}})
	if err := read(one, "a.yaml"); err != nil {
		t.Fatal(err)
	}
	err := read(one, "b.yaml")
	if !errors.Is(err, ErrBuildResources) || !strings.Contains(err.Error(), "b.yaml: over the 5,000 resources one kustomize build may hold") {
		t.Fatalf("5,500 resources in one build: %v, want the build refused at b.yaml", err)
	}
	for i := range 2 {
		if err := read(NewKustomizeFS(root), "c.yaml"); err != nil {
			t.Fatalf("build %d of 100 resources, within the budget: %v", i+1, err)
		}
	}
	if err := read(NewKustomizeFS(root), "c.yaml"); !errors.Is(err, ErrBuildWork) {
		t.Fatalf("a third build: %v, want the run's work budget spent", err)
	}
	other := New(0, dir)
	other.Budget = &Budget{MaxBuildWork: 2 * buildCost(100)}
	if err := read(NewKustomizeFS(other), "c.yaml"); err != nil {
		t.Errorf("another run's build was refused: %v", err)
	}
	if got := DefaultBuildWork / buildCost(MaxBuildResources); got != 2 {
		t.Errorf("the default budget is %d builds at the bound, want 2", got)
	}
}
