package rules

import (
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// TestDuplicateObjectWholeTreeHint: copies in different directories of a
// tree that is one cluster only because nothing names its clusters are
// told how to name them; copies in one directory, or in a cluster a
// layout or kustomization names, are not.
func TestDuplicateObjectWholeTreeHint(t *testing.T) {
	const idms = "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: mirrors\nspec:\n  imageDigestMirrors:\n  - source: quay.io/acme\n    mirrors: [mirror.example.com/acme]\n"
	twoDirs := testtree.Write(t, map[string]string{"deploy/x/staging/idms.yaml": idms, "deploy/x/production/idms.yaml": idms})
	oneDir := testtree.Write(t, map[string]string{"deploy/a.yaml": idms, "deploy/b.yaml": idms})
	runs := testtree.Write(t, map[string]string{
		"oc-mirror-workspace/results-1757018271/imageContentSourcePolicy.yaml": idms,
		"oc-mirror-workspace/results-1757019962/imageContentSourcePolicy.yaml": strings.Replace(idms, "mirror.example.com", "mirror2.example.com", 1),
	})
	for _, tc := range []struct {
		name, dir, cluster string
		source             cluster.Source
		hint, runs         bool
	}{
		{"whole tree, two directories", twoDirs, "", cluster.FromPlain, true, false},
		{"whole tree, one directory", oneDir, "", cluster.FromPlain, false, false},
		{"a layout's cluster", twoDirs, "prod", cluster.FromPlain, false, false},
		{"a kustomization", twoDirs, "", cluster.FromKustomization, false, false},
		// Separate oc-mirror runs are one cluster's: no hint to split
		// them, but what the newer run's copy drops.
		{"oc-mirror runs", runs, "", cluster.FromPlain, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			set, err := manifest.Load([]string{tc.dir}, manifest.Options{})
			if err != nil {
				t.Fatal(err)
			}
			cl := &cluster.Cluster{Name: tc.cluster, Source: tc.source, Objects: set.Objects, Settings: cluster.Defaults()}
			fs, _, err := newEngine(t).Lint(cl)
			if err != nil {
				t.Fatal(err)
			}
			n := 0
			for _, f := range fs {
				if f.Rule != "duplicate-object" {
					continue
				}
				n++
				if got := strings.Contains(f.Message, "name them under clusters: in .mirrorlint.yaml"); got != tc.hint {
					t.Errorf("hint %v, want %v: %s", got, tc.hint, f.Message)
				}
				if got := strings.Contains(f.Message, "separate oc-mirror runs"); got != tc.runs {
					t.Errorf("oc-mirror note %v, want %v: %s", got, tc.runs, f.Message)
				}
			}
			if n != 2 {
				t.Errorf("%d duplicate-object findings, want one on each copy", n)
			}
		})
	}
}
