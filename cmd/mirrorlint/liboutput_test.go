//go:build linux

package main

import (
	"strings"
	"testing"
)

// Two overlays on one base, each written with the deprecated `bases:`:
// kustomize writes its deprecation warning to the process's standard error
// at every load of each (in an order that depends on which build ran
// first). The command writes it once, with the count, after its own
// output, and its findings are those of a run that wrote it every time.
func TestLibraryWarningsWrittenOnce(t *testing.T) {
	t.Parallel()
	overlay := "bases:\n- ../../base\nresources:\n- idms.yaml\n"
	idms := func(mirror string) string {
		return "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: " + mirror + "\nspec:\n  imageDigestMirrors:\n  - source: quay.io/Acme\n    mirrors: [" + mirror + ".example.com/acme]\n"
	}
	dir := tree(t, map[string]string{
		"base/kustomization.yaml":          "resources:\n- cm.yaml\n",
		"base/cm.yaml":                     "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\n",
		"overlays/east/kustomization.yaml": overlay,
		"overlays/east/idms.yaml":          idms("east"),
		"overlays/west/kustomization.yaml": overlay,
		"overlays/west/idms.yaml":          idms("west"),
	})
	r := cliProcess(t, dir, "true", "lint", "--config", "none", "--no-cache", ".")
	if r.code != exitFindings || strings.Count(r.stdout, "error repository-lowercase") != 2 {
		t.Fatalf("exit %d, want 1 with a finding in each overlay:\n%s%s", r.code, r.stdout, r.stderr)
	}
	const warning = "# Warning: 'bases' is deprecated. Please use 'resources' instead."
	if n := strings.Count(r.stderr, warning); n != 1 {
		t.Errorf("the deprecation warning came %d times, want once:\n%s", n, r.stderr)
	}
	last := strings.Split(strings.TrimRight(r.stderr, "\n"), "\n")
	if l := last[len(last)-1]; !strings.HasPrefix(l, warning) || !strings.HasSuffix(l, "(2 times)") {
		t.Errorf("the last line of standard error is %q, want the warning with its count", l)
	}
}
