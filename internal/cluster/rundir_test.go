package cluster

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// idms is a source CR named name.
func idms(name string) string {
	return "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: " + name + "\nspec:\n  imageDigestMirrors:\n  - source: quay.io/acme\n    mirrors: [mirror.example.net/acme]\n"
}

// pgt is a PolicyGenTemplate named name whose one policy reads fileName.
func pgt(name, fileName string) string {
	return "apiVersion: ran.openshift.io/v1\nkind: PolicyGenTemplate\nmetadata:\n  name: " + name + "\n  namespace: ztp\nspec:\n  bindingRules:\n    " + name + ": \"\"\n  sourceFiles:\n  - fileName: " + fileName + "\n    policyName: p\n"
}

// A generator runs in the directory of the kustomization listing it,
// wherever the file lies (a subdirectory, a path with ..): its source CRs
// are read there. Kustomizations of two directories running one file: it
// is expanded from the nearest above it. A generator no kustomization runs
// reads from its own directory.
func TestGeneratorRunsInKustomizationDir(t *testing.T) {
	root := testtree.Write(t, map[string]string{
		"hub/kustomization.yaml":   "generators:\n- pgt/common.yaml\n- ../shared/site.yaml\n",
		"hub/pgt/common.yaml":      pgt("common", "IDMS.yaml"),
		"hub/source-crs/IDMS.yaml": idms("hub"),
		// Beside the generator file, where it is not read from.
		"hub/pgt/source-crs/IDMS.yaml": idms("beside-the-file"),
		"shared/site.yaml":             pgt("site", "Site.yaml"),
		"hub/source-crs/Site.yaml":     idms("hub-site"),

		"two/kustomization.yaml":       "generators:\n- inner/gen.yaml\n",
		"two/inner/kustomization.yaml": "generators:\n- gen.yaml\n",
		"two/inner/gen.yaml":           pgt("two", "A.yaml"),
		"two/source-crs/A.yaml":        idms("outer"),
		"two/inner/source-crs/A.yaml":  idms("inner"),
		"loose/gen.yaml":               pgt("loose", "B.yaml"),
		"loose/source-crs/B.yaml":      idms("loose"),
	})
	res, err := Find(Options{Paths: []string{root}, Root: root})
	if err != nil {
		t.Fatal(err)
	}
	// Before anything is loaded, an edit to a source CR selects the
	// clusters of the kustomizations whose generator reads it (besides
	// that of its source-crs directory, never applied); both
	// kustomizations running two/inner/gen.yaml get what it reads from
	// two/inner, and none reads the copy in two/.
	for file, want := range map[string]string{
		"hub/source-crs/IDMS.yaml":     "hub hub/source-crs",
		"hub/source-crs/Site.yaml":     "hub hub/source-crs",
		"hub/pgt/source-crs/IDMS.yaml": "hub/pgt",
		"two/inner/source-crs/A.yaml":  "two two/inner two/inner/source-crs",
		"two/source-crs/A.yaml":        "two/source-crs",
	} {
		readers, _ := res.Readers(filepath.Join(root, file))
		var names []string
		for _, c := range readers {
			names = append(names, c.Name)
		}
		if strings.Join(names, " ") != want {
			t.Errorf("readers of %s: %v, want %s", file, names, want)
		}
	}
	res.Load(res.Clusters, LoadOptions{Build: true})
	var got []string
	for _, c := range res.Clusters {
		if c.Source != FromPolicy {
			continue
		}
		for _, o := range c.Objects {
			got = append(got, c.Name+": "+o.Ref())
		}
	}
	want := []string{
		"hub/Policy/ztp/common-p: ImageDigestMirrorSet/hub",
		"hub/Policy/ztp/site-p: ImageDigestMirrorSet/hub-site",
		"loose/Policy/ztp/loose-p: ImageDigestMirrorSet/loose",
		"two/Policy/ztp/two-p: ImageDigestMirrorSet/inner",
		"two/inner/Policy/ztp/two-p: ImageDigestMirrorSet/inner",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("policies:\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	for _, c := range res.Clusters {
		for _, p := range c.Problems {
			if p.Code == "source-cr-missing" {
				t.Errorf("%s: %s", c.Name, p)
			}
		}
	}
}

// nearer orders the kustomization directories running one generator file:
// one holding the file before one that does not, the deepest first, then
// by path.
func TestNearerKustomizationDir(t *testing.T) {
	file := filepath.FromSlash("/r/a/b/gen.yaml")
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"/r/a/b", "/r/a", true},
		{"/r/a", "/r/a/b", false},
		{"/r", "/r/x", true},
		{"/r/x", "/r/y", true},
		{"/r/y", "/r/x", false},
		{"/r/ab", "/r/a", false}, // a sibling whose name starts alike holds nothing
	} {
		if got := nearer(file, filepath.FromSlash(tc.a), filepath.FromSlash(tc.b)); got != tc.want {
			t.Errorf("nearer(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
