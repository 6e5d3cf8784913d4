package cluster

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// Unlisted names the kustomization that leaves a file of its directory
// out, and only then: a file it lists, one a base of an overlay lists, the
// SiteConfig its generators: entry names, a file of a plain directory or of
// a directory below the kustomization are no such file. ReportUnlisted
// warns once, on every loaded cluster reading the kustomization (a base:
// each overlay), and not again where that cluster already warns about the
// file (a mirror object in it).
func TestUnlistedAndReportUnlisted(t *testing.T) {
	hc := "apiVersion: hypershift.openshift.io/v1beta1\nkind: HostedCluster\nmetadata: {name: hc, namespace: clusters}\nspec: {}\n"
	root := testtree.Write(t, map[string]string{
		"base/kustomization.yaml":       "resources: [hc.yaml]\n",
		"base/hc.yaml":                  hc,
		"base/stray-hc.yaml":            hc,
		"overlays/a/kustomization.yaml": "resources: [../../base]\n",
		"overlays/b/kustomization.yaml": "resources: [../../base]\n",
		"overlays/b/both.yaml":          hc + "---\n" + testtree.ReleaseIDMS,
		"sites/kustomization.yaml":      "generators: [sno1.yaml]\n",
		"sites/sno1.yaml":               "apiVersion: ran.openshift.io/v1\nkind: SiteConfig\nmetadata: {name: sno1}\nspec: {clusters: [{clusterName: sno1}]}\n",
		"sites/below/ci.yaml":           "apiVersion: siteconfig.open-cluster-management.io/v1alpha1\nkind: ClusterInstance\nmetadata: {name: x}\n",
		"plain/hc.yaml":                 hc,
	})
	res, err := Find(Options{Paths: []string{root}, Root: root})
	if err != nil {
		t.Fatal(err)
	}
	at := func(rel string) string { return filepath.Join(root, rel) }
	for rel, want := range map[string]string{
		"base/stray-hc.yaml":   "base/kustomization.yaml",
		"overlays/b/both.yaml": "overlays/b/kustomization.yaml",
		"base/hc.yaml":         "",
		"sites/sno1.yaml":      "",
		"sites/below/ci.yaml":  "",
		"plain/hc.yaml":        "",
	} {
		if want != "" {
			want = at(want)
		}
		if got := res.Unlisted(at(rel)); got != want {
			t.Errorf("Unlisted(%s) = %q, want %q", rel, got, want)
		}
	}

	res.Load(res.Clusters, LoadOptions{})
	pos := manifest.Position{File: filepath.ToSlash(at("base/stray-hc.yaml")), Line: 1, Column: 1}
	if !res.ReportUnlisted(at("base/stray-hc.yaml"), pos, "so HostedCluster hc creates no cluster") {
		t.Fatal("no warning added for base/stray-hc.yaml")
	}
	res.ReportUnlisted(at("base/stray-hc.yaml"), pos, "so HostedCluster hc creates no cluster")
	for _, name := range []string{"overlays/a", "overlays/b"} {
		var got []string
		for _, p := range byName(t, res, name).Problems {
			if strings.HasSuffix(p.Pos.File, "stray-hc.yaml") {
				got = append(got, p.Code+": "+strings.ReplaceAll(p.Message, filepath.ToSlash(root)+"/", ""))
			}
		}
		want := "not-in-kustomization: base/stray-hc.yaml is not listed in base/kustomization.yaml: kustomize does not apply it, so HostedCluster hc creates no cluster"
		if len(got) != 1 || got[0] != want {
			t.Errorf("%s: %q, want once %q", name, got, want)
		}
	}
	// The mirror object in both.yaml has discovery's warning already.
	if res.ReportUnlisted(at("overlays/b/both.yaml"), manifest.Position{File: filepath.ToSlash(at("overlays/b/both.yaml")), Line: 1, Column: 1}, "") {
		t.Error("a second warning on overlays/b/both.yaml")
	}
	if res.ReportUnlisted(at("plain/hc.yaml"), manifest.Position{File: filepath.ToSlash(at("plain/hc.yaml")), Line: 1, Column: 1}, "") {
		t.Error("a warning on a file of a plain directory")
	}
}
