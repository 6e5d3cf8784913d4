package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const goodKustomization = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - idms.yaml\n"

// brokenKustomization names a resource that does not exist: kustomize
// build fails, so the cluster has no objects at all.
const brokenKustomization = "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - idms.yaml\n  - missing.yaml\n"

// A kustomization that does not build is unreadable input for diff, as it
// is for render: comparing against the empty result would give a verdict
// about a change nobody made. The cluster says so on itself (the text
// output's section; stderr for the other formats), and the run exits 2.
func TestDiffKustomizeErrorIsUnreadable(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"good/kustomization.yaml":   goodKustomization,
		"good/idms.yaml":            idmsWith("mirror-a.example.com/acme"),
		"broken/kustomization.yaml": brokenKustomization,
		"broken/idms.yaml":          idmsWith("mirror-a.example.com/acme"),
	})
	good, broken := filepath.Join(dir, "good"), filepath.Join(dir, "broken")

	if r := mlRun(t, "", "render", "--config", "none", broken); r.code != exitUsage {
		t.Fatalf("render of the broken overlay: exit %d, want 2 (the premise of this test)", r.code)
	}
	for _, args := range [][]string{
		{good, broken},
		{broken, good},
		{"--format", "json", good, broken},
	} {
		r := mlRun(t, "", append([]string{"diff", "--config", "none"}, args...)...)
		out := r.stdout
		if args[0] == "--format" {
			out = r.stderr
		}
		if r.code != exitUsage || !strings.Contains(out, "broken/kustomization.yaml:5:5: error: the") || !strings.Contains(out, "does not load") {
			t.Errorf("diff %v: exit %d, want 2 with the kustomization's position\nstdout:\n%s\nstderr:\n%s", args, r.code, r.stdout, r.stderr)
		}
	}

	// --base: the overlay was broken at the base revision and is fixed now.
	repo := testtree.Write(t, map[string]string{
		"prod/kustomization.yaml": brokenKustomization,
		"prod/idms.yaml":          idmsWith("mirror-a.example.com/acme"),
	})
	git := gittest.Runner(t, repo)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "broken")
	if err := os.WriteFile(filepath.Join(repo, "prod", "kustomization.yaml"), []byte(goodKustomization), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(repo)
	r := mlRun(t, "", "diff", "--config", "none", "--base", "HEAD", "prod")
	if r.code != exitUsage || !strings.Contains(r.stdout, "prod/kustomization.yaml:5:5 (at HEAD): error: the old tree does not load") {
		t.Errorf("diff --base HEAD with a base that does not build: exit %d, want 2 naming prod/kustomization.yaml:5:5 (at HEAD)\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout+r.stderr, "mirrorlint-base-") {
		t.Errorf("a temporary path is printed:\n%s%s", r.stdout, r.stderr)
	}
}
