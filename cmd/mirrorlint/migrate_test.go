package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const migrateICSP = `apiVersion: operator.openshift.io/v1alpha1
kind: ImageContentSourcePolicy
metadata:
  name: release
  uid: 0b2c
spec:
  repositoryDigestMirrors:
  - source: quay.io/openshift-release-dev/ocp-release
    mirrors:
    - mirror.example.com/ocp/release
`

func TestMigrateCommand(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{"icsp.yaml": migrateICSP})
	out := filepath.Join(dir, "icsp.idms.yaml")
	before := mlRun(t, "", "render", dir)

	r := mlRun(t, "", "migrate", "--diff", dir)
	if r.code != exitOK || !strings.Contains(r.stdout, "+kind: ImageDigestMirrorSet") {
		t.Errorf("--diff: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(out); err == nil {
		t.Fatal("--diff wrote a file")
	}
	if r := mlRun(t, "", "migrate", dir); r.code != exitOK || !strings.Contains(r.stdout, "wrote "+out) {
		t.Fatalf("migrate: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if r := mlRun(t, "", "migrate", dir); r.code != exitUsage || !strings.Contains(r.stderr, "--force") {
		t.Errorf("rerun without --force: exit %d %s", r.code, r.stderr)
	}
	if r := mlRun(t, "", "migrate", "--force", dir); r.code != exitOK {
		t.Errorf("--force: exit %d %s", r.code, r.stderr)
	}

	// In place, the tree renders the same as before.
	os.Remove(out)
	if r := mlRun(t, "", "migrate", "--in-place", dir); r.code != exitOK {
		t.Fatalf("--in-place: exit %d %s", r.code, r.stderr)
	}
	got, _ := os.ReadFile(filepath.Join(dir, "icsp.yaml"))
	if strings.Contains(string(got), "ImageContentSourcePolicy") || strings.Contains(string(got), "uid") {
		t.Errorf("in place:\n%s", got)
	}
	if after := mlRun(t, "", "render", dir); after.stdout != before.stdout || after.code != before.code {
		t.Errorf("render changed:\n%s\n---\n%s", before.stdout, after.stdout)
	}
	if r := mlRun(t, "", "migrate", dir); r.code != exitOK || !strings.Contains(r.stderr, "no ImageContentSourcePolicy") {
		t.Errorf("nothing left: exit %d %s", r.code, r.stderr)
	}
	for _, args := range [][]string{{"migrate", "--in-place", "-o", dir, dir}, {"migrate", "-"}, {"migrate", "/no/such/dir"}} {
		if r := mlRun(t, "", args...); r.code != exitUsage {
			t.Errorf("%v: exit %d, want 2", args, r.code)
		}
	}
}

// A new IDMS file in a kustomization directory that does not list it would
// never be applied: migrate says so.
func TestMigrateWarnsWhenKustomizationDoesNotListTheNewFile(t *testing.T) {
	t.Parallel()
	tree := testtree.Write(t, map[string]string{
		"kustomization.yaml": "resources: [icsp.yaml]\n",
		"icsp.yaml":          "apiVersion: operator.openshift.io/v1alpha1\nkind: ImageContentSourcePolicy\nmetadata: {name: a}\nspec:\n  repositoryDigestMirrors:\n  - {source: quay.io/a, mirrors: [m.io/a]}\n",
	})
	r := mlRun(t, "", "migrate", "--config", "none", tree)
	if r.code != exitOK || !strings.Contains(r.stderr, "does not list icsp.idms.yaml") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
}
