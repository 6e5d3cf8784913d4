package sites

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

func load(t *testing.T, paths ...string) []*Site {
	t.Helper()
	set, err := manifest.Load(paths, manifest.Options{Unmodelled: manifest.UnmodelledAll})
	if err != nil {
		t.Fatal(err)
	}
	s, probs := From(set.Objects)
	if len(probs) > 0 {
		t.Fatalf("problems: %v", probs)
	}
	return s
}

func TestSites(t *testing.T) {
	got := load(t, "testdata/sites.yaml")
	if len(got) != 4 {
		t.Fatalf("got %d sites, want 4", len(got))
	}
	a, b, c1, c2 := got[0], got[1], got[2], got[3]
	if a.Name != "sno-a" || a.Kind != KindSiteConfig || a.Namespace != "ztp" || a.ImageSet != "openshift-4.20" {
		t.Errorf("site a: %+v", a)
	}
	// ACM's import adds name, the registration webhook the default
	// cluster set; the cluster's ID, version and add-ons are the hub's. A
	// SiteConfig's ManagedCluster has no cloud or vendor to detect.
	if want := map[string]string{"group-du-sno": "", "sites": "sno-a", "name": "sno-a", ClusterSetLabel: "default"}; !maps.Equal(a.Labels, want) {
		t.Errorf("a labels %v, want %v", a.Labels, want)
	}
	if !slices.Equal(a.HubLabels, fromHub) {
		t.Errorf("a hub labels %v, want %v", a.HubLabels, fromHub)
	}
	if p := a.LabelPos("sites"); p.Line != 12 || p.Column != 7 {
		t.Errorf("label position %v, want line 12 column 7", p)
	}
	// The template's cloud: auto-detect wins over extraLabels, and the
	// import replaces it with what it detects.
	detected := slices.Sorted(slices.Values(append([]string{"cloud", "vendor"}, fromHub...)))
	if want := map[string]string{"common": "true", "name": "ci-1", ClusterSetLabel: "default"}; !maps.Equal(c1.Labels, want) || !slices.Equal(c1.HubLabels, detected) {
		t.Errorf("ClusterInstance labels %v, hub labels %v, want %v and %v", c1.Labels, c1.HubLabels, want, detected)
	}
	if !c1.TemplateKnown || c2.TemplateKnown {
		t.Errorf("TemplateKnown: %v %v, want true false", c1.TemplateKnown, c2.TemplateKnown)
	}
	if want := map[string]string{"env": "lab", "name": "ci-2", ClusterSetLabel: "default"}; !maps.Equal(c2.Labels, want) {
		t.Errorf("custom-template labels %v, want %v", c2.Labels, want)
	}

	// Positions inside the JSON: a double-quoted scalar with escapes.
	ov := a.Overrides
	if ov == nil || ov.SyntaxError != nil {
		t.Fatalf("overrides of a: %+v", ov)
	}
	if p := ov.Locate("imageDigestSources[0].mirrors", true); p.Line != 13 || p.Column != 81 {
		t.Errorf("mirrors key at %v, want 13:81 (the escaped quote)", p)
	}
	if ov.Key.Line != 13 || ov.Key.Column != 5 {
		t.Errorf("key at %v, want 13:5", ov.Key)
	}
	// A literal block: each JSON line is a file line.
	if p := b.Overrides.Locate("imageDigestSources[0].sourcePolicy", true); p.Line != 21 || p.Column != 35 {
		t.Errorf("sourcePolicy at %v, want 21:35", p)
	}
	// The ClusterInstance's JSON does not parse: the trailing comma.
	if c1.Overrides.SyntaxError == nil {
		t.Fatal("no syntax error for a trailing comma")
	}
	if p := c1.Overrides.SyntaxPos; p.Line != 39 || p.Column != 40 {
		t.Errorf("syntax error at %v, want 39:40 (the bracket after the comma)", p)
	}
}

func TestAnnotation(t *testing.T) {
	got := load(t, "testdata/sites.yaml")
	for _, tc := range []struct {
		site *Site
		want string
	}{
		{got[0], `{"networking":{"networkType":"OVNKubernetes"},"imageDigestSources":[{"source":"quay.io/a","mirrors":["m.example.com/a"]}]}`},
		// AllNodes re-encodes first; "networking" present merges and sorts.
		{got[1], `{"cpuPartitioningMode":"AllNodes","imageDigestSources":[{"source":"quay.io/b","sourcePolicy":"NeverContactSource"}],"networking":{"machineNetwork":[],"networkType":"OpenShiftSDN"}}`},
	} {
		a, err := tc.site.Overrides.Annotation()
		if err != nil || a != tc.want {
			t.Errorf("%s: annotation %q, %v; want %q", tc.site.Name, a, err, tc.want)
		}
	}
	if _, err := got[2].Overrides.Annotation(); err == nil || err.Error() != "invalid json parameter set at installConfigOverride" {
		t.Errorf("bad JSON: %v", err)
	}
}

// The shared corpus: the SiteConfig case's annotation is the expected one.
func TestCorpusAnnotation(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "public", "inputs", "0007")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared corpus not available beside the repository: %v", err)
	}
	got := load(t, filepath.Join(dir, "manifests"))
	if len(got) != 1 {
		t.Fatalf("got %d sites", len(got))
	}
	want := readTrim(t, filepath.Join(dir, "expected", "install-config-overrides.txt"))
	if a, err := got[0].Overrides.Annotation(); err != nil || a != want {
		t.Errorf("annotation %q, %v\nwant %q", a, err, want)
	}
	if got[0].Overrides.Key.Line != 17 {
		t.Errorf("key line %d, want 17", got[0].Overrides.Key.Line)
	}
}

// A SiteConfig label written as a bool or a number is the text it is
// written with, as the SiteConfig generator's yaml.v3 decode into strings
// gives it; a ClusterInstance's is refused, as its CRD refuses it.
func TestUnquotedLabels(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "sites.yaml")
	if err := os.WriteFile(p, []byte(`apiVersion: ran.openshift.io/v1
kind: SiteConfig
metadata: {name: site, namespace: ztp}
spec:
  clusters:
  - clusterName: sno-a
    clusterLabels:
      common: true
      rack: 12
      ratio: 1.50
---
apiVersion: siteconfig.open-cluster-management.io/v1alpha1
kind: ClusterInstance
metadata: {name: ci, namespace: ci}
spec:
  clusterName: ci
  extraLabels:
    ManagedCluster:
      common: true
`), 0o644); err != nil {
		t.Fatal(err)
	}
	set, err := manifest.Load([]string{p}, manifest.Options{Unmodelled: manifest.UnmodelledAll})
	if err != nil {
		t.Fatal(err)
	}
	got, probs := From(set.Objects)
	if len(got) != 2 {
		t.Fatalf("sites %v", got)
	}
	if a := got[0].Labels; a["common"] != "true" || a["rack"] != "12" || a["ratio"] != "1.50" {
		t.Errorf("SiteConfig labels %v", a)
	}
	if len(probs) != 1 || probs[0].Pos.Line != 19 {
		t.Errorf("problems %v, want the ClusterInstance's label at line 19", probs)
	}
}
