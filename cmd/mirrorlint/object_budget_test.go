package main

import (
	"strings"
	"testing"
)

// Over the run's object budget the command keeps the objects that fit, in
// the walk's order, checks them, and reports once where it stopped as a
// limit-exceeded error (exit 1); a config found in the tree cannot turn
// that error down. The budget is lowered to 3 here (objectBudget), since
// a million documents would take the test far longer than what it shows.
func TestObjectBudgetThroughTheCommand(t *testing.T) {
	defer func(n int64) { objectBudget = n }(objectBudget)
	objectBudget = 3
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s}\n"
	dir := tree(t, map[string]string{
		".mirrorlint.yaml": "rules:\n  limit-exceeded: warning\n",
		"a-idms.yaml":      badIDMS,
		"b-maps.yaml":      strings.ReplaceAll(cm, "%s", "b1") + "---\n" + strings.ReplaceAll(cm, "%s", "b2"),
		"c-maps.yaml":      strings.ReplaceAll(cm, "%s", "c1") + "---\n" + badIDMS,
		"d-idms.yaml":      badIDMS,
	})
	t.Chdir(dir)
	r := mlRun(t, "", "lint", ".")
	if r.code != exitFindings {
		t.Fatalf("exit %d, want 1:\n%s%s", r.code, r.stdout, r.stderr)
	}
	want := "c-maps.yaml:1:1: error limit-exceeded: the run keeps at most 3 objects and stopped keeping them here: object 1 of this file"
	if !strings.Contains(r.stdout, want) || strings.Count(r.stdout, "limit-exceeded: the run keeps") != 1 {
		t.Errorf("want one %q:\n%s", want, r.stdout)
	}
	if !strings.Contains(r.stdout, "a-idms.yaml:6:14: error repository-lowercase") {
		t.Errorf("the objects kept were not checked:\n%s", r.stdout)
	}
	if strings.Count(r.stdout, "error repository-lowercase") != 2 {
		t.Errorf("objects past the budget (c-maps.yaml's IDMS, d-idms.yaml) were checked:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, ".mirrorlint.yaml:2:1: error") || !strings.Contains(r.stdout, "{limit-exceeded: warning} hides that part of the run was not checked") {
		t.Errorf("the tree's config turned limit-exceeded down unrefused:\n%s", r.stdout)
	}
}
