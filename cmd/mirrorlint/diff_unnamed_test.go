package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// installConfigB is an install-config.yaml of cluster c1 mirroring
// quay.io/b: next to loose manifests it is a cluster of its own.
const installConfigB = "apiVersion: v1\nmetadata:\n  name: c1\nbaseDomain: example.com\npullSecret: '{\"auths\":{}}'\nimageDigestSources:\n- source: quay.io/b\n  mirrors:\n  - mirror.local/b\n"

// A plain tree (no kustomization, no layout) is one unnamed cluster; with
// an install-config beside it diff prints several clusters, and the
// unnamed one is named "." in every heading and summary, never by an
// empty string.
func TestDiffNamesTheUnnamedClusterDot(t *testing.T) {
	t.Parallel()
	old := testtree.Write(t, map[string]string{
		"idms.yaml":                idmsWith("mirror-a.example.com/acme"),
		"inst/install-config.yaml": installConfigB,
	})
	broken := testtree.Write(t, map[string]string{
		"idms.yaml":                idmsWith("mirror-a.example.com/acme"),
		"bad.yaml":                 "bad: [\n",
		"inst/install-config.yaml": installConfigB,
	})
	r := mlRun(t, "", "diff", "--config", "none", old, broken)
	for _, want := range []string{
		"== cluster .\n" + filepath.ToSlash(filepath.Join(broken, "bad.yaml")) + ":1:1: error: the new tree does not load",
		"== cluster install-config/c1\n",
		"1 not compared (input that does not load: .)",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("diff output lacks %q:\n%s", want, r.stdout)
		}
	}
	if r.code != exitUsage || !strings.Contains(r.stderr, "1 of 2 clusters not compared, an input of theirs does not load: .; the others are compared") {
		t.Errorf("exit %d, want 2 naming the cluster \".\"\nstderr:\n%s", r.code, r.stderr)
	}
	r = mlRun(t, "", "diff", "--config", "none", "--format", "json", old, broken)
	if !strings.Contains(r.stderr, "[cluster .] "+filepath.ToSlash(filepath.Join(broken, "bad.yaml"))+":1:1: error: the new tree does not load") {
		t.Errorf("stderr of --format json does not tag the problem with its cluster:\n%s", r.stderr)
	}
	if !strings.Contains(r.stdout, `"unreadable": [
    ""
  ]`) && !strings.Contains(r.stdout, `"unreadable":[""]`) {
		t.Errorf("JSON names the unnamed cluster as lint's JSON does (\"\"):\n%s", r.stdout)
	}

	// Same results: one section naming both.
	r = mlRun(t, "", "diff", "--config", "none", old, old)
	if !strings.Contains(r.stdout, "== 2 clusters with the same result:\n  ., install-config/c1\n") {
		t.Errorf("grouped heading:\n%s", r.stdout)
	}
}
