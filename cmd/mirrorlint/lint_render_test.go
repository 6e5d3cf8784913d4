package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// lint --render writes registries.conf only for the clusters whose file
// is what the nodes would get. A cluster that does not build (a helmCharts
// entry) or that MCO refuses gets none — a file left from an earlier run
// is removed — and its directory says why; stderr says per cluster what
// was written and why not.
func TestLintRenderWritesNothingMisleading(t *testing.T) {
	selfMirror := "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: apps\nspec:\n  imageDigestMirrors:\n" +
		"  - source: registry.example.com/apps\n    mirrors:\n    - registry.example.com/apps\n    mirrorSourcePolicy: NeverContactSource\n"
	regionRepo(t, map[string]string{
		"overlays/dev/kustomization.yaml":   helmKustomization,
		"overlays/south/idms-apps.yaml":     selfMirror,
		"overlays/south/kustomization.yaml": "resources:\n- ../../base\n- idms-apps.yaml\n",
	})
	out := filepath.Join(t.TempDir(), "render")
	// An earlier run's files for the clusters that now cannot be rendered.
	testtree.WriteAt(t, out, map[string]string{"overlays/dev/registries.conf": "stale\n", "overlays/south/registries.conf": "stale\n"})

	r := mlRun(t, "", "lint", "--config", "none", "--render", out, ".")
	if _, err := os.Stat(filepath.Join(out, "overlays/west/registries.conf")); err != nil {
		t.Errorf("west: %v", err)
	}
	for cluster, why := range map[string]string{
		"overlays/dev":   "its input does not load, so any file would be incomplete: overlays/dev/kustomization.yaml:5:3: helmCharts entry",
		"overlays/south": "MCO would refuse to render it and the nodes would keep their previous registries.conf: ",
	} {
		if _, err := os.Stat(filepath.Join(out, cluster, "registries.conf")); err == nil {
			t.Errorf("%s: a registries.conf is there", cluster)
		}
		note, err := os.ReadFile(filepath.Join(out, cluster, "NOT-RENDERED.txt"))
		if err != nil || !strings.Contains(string(note), why) {
			t.Errorf("%s: NOT-RENDERED.txt %q (%v), want %q", cluster, note, err, why)
		}
		if !strings.Contains(r.stderr, "mirrorlint: --render: cluster "+cluster+": no registries.conf written: "+why) {
			t.Errorf("stderr does not say why %s has no file:\n%s", cluster, r.stderr)
		}
	}
	if !strings.Contains(r.stderr, "mirrorlint: --render: cluster overlays/west: wrote "+filepath.Join(out, "overlays/west/registries.conf")) {
		t.Errorf("stderr does not say what was written:\n%s", r.stderr)
	}

	// A single refused cluster: no file, an old one removed, and why.
	one := filepath.Join(t.TempDir(), "registries.conf")
	testtree.WriteAt(t, filepath.Dir(one), map[string]string{"registries.conf": "stale\n"})
	r = mlRun(t, "", "lint", "--config", "none", "--render", one, "overlays/south")
	if _, err := os.Stat(one); err == nil || !strings.Contains(r.stderr, "mirrorlint: --render: cluster overlays/south: no registries.conf written: MCO would refuse") {
		t.Errorf("refused single cluster: file left (%v)\n%s", err, r.stderr)
	}
}
