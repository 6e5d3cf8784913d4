package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// --strict (or strict: true in the config) turns a policy builtin error
// into a usage error naming the call; without it the rule stays quietly
// undefined and the run passes.
func TestStrictFlagAndConfigKey(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"policy/p.rego":  "package acme.p\n\nlimit := to_number(\"abc\")\n\ndeny contains \"too many\" if {\n\tcount(input.objects) > limit\n}\n",
		"tree/idms.yaml": "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: x\nspec:\n  imageDigestMirrors:\n  - source: q.io/a\n    mirrors: [m.io/a]\n",
		"strict.yaml":    "strict: true\n",
	})
	pol, tree := filepath.Join(dir, "policy"), filepath.Join(dir, "tree")
	if r := mlRun(t, "", "lint", "--config", "none", "--policy", pol, tree); r.code != 0 {
		t.Fatalf("default: exit %d %s", r.code, r.stderr)
	}
	want := filepath.Join(pol, "p.rego") + ":3:10: to_number"
	for _, args := range [][]string{
		{"lint", "--config", "none", "--strict", "--policy", pol, tree},
		{"lint", "--config", filepath.Join(dir, "strict.yaml"), "--policy", pol, tree},
	} {
		if r := mlRun(t, "", args...); r.code != exitUsage || !strings.Contains(r.stderr, want) {
			t.Errorf("%v: exit %d, stderr %q; want %d and %q", args, r.code, r.stderr, exitUsage, want)
		}
	}
}
