package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/safefs"
)

// Over the run's object budget the load keeps what fits, in the walk's
// order, and says once which file it stopped at; a second load of the
// same run adds no second problem.
func TestObjectBudgetStopsOncePerRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	doc := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n---\n"
	for _, name := range []string{"a.yaml", "b.yaml", "c.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Repeat(doc, 2)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	root := safefs.New(0, dir)
	root.Budget = &safefs.Budget{MaxObjects: 3}
	set, err := Load([]string{dir}, Options{Access: root, Unmodelled: UnmodelledAll})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Objects) != 3 {
		t.Errorf("kept %d objects, want 3", len(set.Objects))
	}
	var got []Problem
	for _, p := range set.Problems {
		if p.Code == "limit-exceeded" {
			got = append(got, p)
		}
	}
	want := filepath.Join(dir, "b.yaml")
	if len(got) != 1 || got[0].Pos.File != want || !strings.Contains(got[0].Message, "at most 3 objects") || !strings.Contains(got[0].Message, "object 2 of this file") {
		t.Fatalf("want one limit-exceeded problem at %s, got %v", want, got)
	}
	again, _ := Load([]string{dir}, Options{Access: root, Unmodelled: UnmodelledAll})
	for _, p := range again.Problems {
		if p.Code == "limit-exceeded" {
			t.Errorf("the budget was reported twice in one run: %v", p)
		}
	}
}
