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
	for _, tc := range []struct {
		name, dir, cluster string
		source             cluster.Source
		hint               bool
	}{
		{"whole tree, two directories", twoDirs, "", cluster.FromPlain, true},
		{"whole tree, one directory", oneDir, "", cluster.FromPlain, false},
		{"a layout's cluster", twoDirs, "prod", cluster.FromPlain, false},
		{"a kustomization", twoDirs, "", cluster.FromKustomization, false},
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
			}
			if n != 2 {
				t.Errorf("%d duplicate-object findings, want one on each copy", n)
			}
		})
	}
}
