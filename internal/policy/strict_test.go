package policy

import (
	"bytes"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// A deny rule whose to_number fails on a non-numeric value.
const limitPolicy = `package acme.limits

max_mirrors := to_number(data.acme.max_mirrors)

deny contains sprintf("%s has too many mirrors", [o.name]) if {
	some o in input.objects
	o.kind == "ImageDigestMirrorSet"
	some e in o.spec.imageDigestMirrors
	count(e.mirrors) > max_mirrors
}
`

const limitTest = `package acme.limits_test

import data.acme.limits

test_limit if {
	count(limits.deny) == 1 with input as {"objects": [{"kind": "ImageDigestMirrorSet", "name": "x",
		"spec": {"imageDigestMirrors": [{"source": "q.io/a", "mirrors": ["a", "b"]}]}}]}
		with data.acme.max_mirrors as "one"
}
`

// By default a builtin error leaves the rule undefined (no finding, no
// error); strict mode makes it an error of the run naming the call's
// file:line:col, in lint and in verify.
func TestStrictBuiltinErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, "policy", "limits.rego"), limitPolicy)
	testtree.WriteFile(t, filepath.Join(dir, "policy", "limits_test.rego"), limitTest)
	testtree.WriteFile(t, filepath.Join(dir, "data.yaml"), "acme:\n  max_mirrors: one\n")
	testtree.WriteFile(t, filepath.Join(dir, "tree", "idms.yaml"), "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: x\nspec:\n  imageDigestMirrors:\n  - source: q.io/a\n    mirrors: [m.io/a, n.io/a]\n")
	set, err := manifest.Load([]string{filepath.Join(dir, "tree")}, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lint := func(strict bool) ([]check.Finding, error) {
		pe := mustLoad(t, Options{Dirs: []string{filepath.Join(dir, "policy")}, DataFiles: []string{filepath.Join(dir, "data.yaml")}, Strict: strict})
		reg, err := check.NewRegistry(pe.Rules()...)
		if err != nil {
			t.Fatal(err)
		}
		fs, _, err := (&check.Engine{Rules: reg, Policies: pe}).Lint(&cluster.Cluster{Objects: set.Objects, Settings: cluster.Defaults()})
		return fs, err
	}
	if fs, err := lint(false); err != nil || len(fs) != 0 {
		t.Fatalf("default: findings %v, error %v (Rego's undefined rule)", fs, err)
	}
	_, err = lint(true)
	want := filepath.Join(dir, "policy", "limits.rego") + ":3:16: to_number: "
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "strict") {
		t.Fatalf("strict: %v\nwant an error containing %q", err, want)
	}
	var out bytes.Buffer
	failed, err := Verify(Options{Dirs: []string{filepath.Join(dir, "policy")}, Strict: true}, &out)
	if err != nil || !failed || !strings.Contains(out.String(), "ERROR") || !strings.Contains(out.String(), "to_number") {
		t.Fatalf("verify --strict: failed=%v err=%v\n%s", failed, err, out.String())
	}
	out.Reset()
	if failed, err := Verify(Options{Dirs: []string{filepath.Join(dir, "policy")}}, &out); err != nil || !failed || !strings.Contains(out.String(), "FAIL") {
		t.Fatalf("verify: the test fails without --strict too, but as FAIL: failed=%v err=%v\n%s", failed, err, out.String())
	}
}
