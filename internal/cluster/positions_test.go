package cluster

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// pointAtValues reports the first mirror and the source policy of every
// IDMS entry, so the test sees where each value is located.
func pointAtValues(c *Cluster) func(report func(o *manifest.Object, p manifest.Path, text string)) {
	return func(report func(o *manifest.Object, p manifest.Path, text string)) {
		for _, o := range c.Objects {
			if o.Kind != manifest.KindIDMS || o.IDMS == nil {
				continue
			}
			for i, e := range o.IDMS.Spec.ImageDigestMirrors {
				p := manifest.Path{"spec", "imageDigestMirrors", i}
				report(o, p.Child("mirrors", 0), "mirror "+string(e.Mirrors[0]))
				if e.MirrorSourcePolicy != "" {
					report(o, p.Child("mirrorSourcePolicy"), "policy "+string(e.MirrorSourcePolicy))
				}
			}
		}
	}
}

func lintCluster(t *testing.T, c *Cluster) []string {
	t.Helper()
	var out []string
	for _, v := range showValues(c, pointAtValues(c)) {
		out = append(out, fmt.Sprintf("%s: %s", v.pos, v.text))
	}
	sort.Strings(out)
	return out
}

func byName(t *testing.T, res *Result, name string) *Cluster {
	t.Helper()
	for _, c := range res.Clusters {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no cluster %q", name)
	return nil
}

// TestFindingsPointAtSources checks that a finding on a built object
// points at the file holding the value: the base for inherited values, the
// overlay's resource, its JSON 6902 patch, or its strategic-merge patch.
func TestFindingsPointAtSources(t *testing.T) {
	res := discover(t, "testdata/gitops")
	cases := map[string][]string{
		"overlays/prod": {
			"testdata/gitops/base/idms-release.yaml:10:11: mirror mirror.corp.example/ocp/release",
			"testdata/gitops/base/idms-release.yaml:13:11: mirror mirror.corp.example/ocp/art-dev",
			"testdata/gitops/overlays/prod/idms-apps.yaml:9:11: mirror mirror.corp.example/apps",
			"testdata/gitops/overlays/prod/never-contact-source.yaml:4:10: policy NeverContactSource",
		},
		"overlays/dev": {
			"testdata/gitops/overlays/dev/release-dev-mirror.yaml:10:11: mirror mirror.dev.example/ocp/release",
		},
		"clusters/lab": {
			"testdata/gitops/clusters/lab/idms.yaml:9:11: mirror lab-registry.example:5000/ocp/release",
		},
	}
	for name, want := range cases {
		got := lintCluster(t, byName(t, res, name))
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\n%s\nwant:\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestObjectsKeepSourceNodes checks what remap promises: the built content
// (with the patch applied) and the origin file's nodes and name.
func TestObjectsKeepSourceNodes(t *testing.T) {
	res := discover(t, "testdata/gitops")
	prod := byName(t, res, "overlays/prod")
	o := prod.Objects[0]
	if o.Origin != "testdata/gitops/base/idms-release.yaml" || o.File != o.Origin {
		t.Errorf("origin %q file %q", o.Origin, o.File)
	}
	if got := o.IDMS.Spec.ImageDigestMirrors[0].MirrorSourcePolicy; got != "NeverContactSource" {
		t.Errorf("patch not applied: %q", got)
	}
	if _, ok := o.Content["metadata"].(map[string]any)["annotations"]; ok {
		t.Errorf("build annotations left in the content: %v", o.Content["metadata"])
	}
	if pos := o.Locate(manifest.ParsePath("spec.imageDigestMirrors[1].source")); pos.Line != 11 || pos.EndColumn == 0 {
		t.Errorf("Locate in base: %+v", pos)
	}
}
