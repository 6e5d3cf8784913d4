package cluster

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// The files a configMapGenerator reads and those of a SiteConfig
// generator's extra-manifest directory (relative to the kustomization
// running it) are read as data: no plain cluster holds them and none is
// reported as left out of a kustomization. A generator source is read by
// the clusters of its kustomization; an extra manifest by none of the
// tree's (the site's cluster holds it). A file beside them that nothing
// reads as data stays where the walk puts it.
func TestReadAsData(t *testing.T) {
	root := testtree.Write(t, map[string]string{
		"sites/kustomization.yaml":        "resources: [ci.yaml]\nnamespace: sno1\nconfigMapGenerator:\n- name: extra\n  files:\n  - extra-manifests/idms.yaml\n  - key.yaml=loose-in-dir.yaml\n",
		"sites/ci.yaml":                   "apiVersion: v1\nkind: Namespace\nmetadata: {name: sno1}\n",
		"sites/loose-in-dir.yaml":         idms("generated-beside"),
		"sites/extra-manifests/idms.yaml": idms("generated"),
		"siteconfig/kustomization.yaml":   "generators:\n- sites/sno1.yaml\n",
		"siteconfig/sites/sno1.yaml":      "apiVersion: ran.openshift.io/v1\nkind: SiteConfig\nmetadata: {name: sno1}\nspec:\n  clusters:\n  - clusterName: sno1\n    extraManifestPath: extra\n",
		"siteconfig/extra/idms.yaml":      idms("extra"),
		"siteconfig/extra/.hidden.yaml":   idms("hidden"),
		"siteconfig/extra/sub/idms.yaml":  idms("deeper"),
	})
	t.Chdir(root)
	res, err := Find(Options{Paths: []string{"."}, Root: root})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range res.Clusters {
		names = append(names, c.Name)
	}
	// The dot file and the subdirectory are not read by the generator.
	if want := []string{"siteconfig", "sites", "siteconfig/extra"}; !slices.Equal(names, want) {
		t.Errorf("clusters %v, want %v", names, want)
	}
	res.Load(res.Clusters, LoadOptions{Build: true})
	for _, c := range res.Clusters {
		for _, p := range c.Problems {
			t.Errorf("cluster %s: unexpected problem %s", c.Name, p)
		}
		if c.Name == "siteconfig/extra" {
			var refs []string
			for _, o := range c.Objects {
				refs = append(refs, o.Ref())
			}
			if got := strings.Join(refs, " "); got != "ImageDigestMirrorSet/hidden ImageDigestMirrorSet/deeper" {
				t.Errorf("siteconfig/extra holds %s; want the files the generator does not read", got)
			}
		}
	}
	for file, want := range map[string]string{
		"sites/extra-manifests/idms.yaml": "sites",
		"sites/loose-in-dir.yaml":         "sites",
		"siteconfig/extra/idms.yaml":      "",
		"siteconfig/extra/sub/idms.yaml":  "siteconfig/extra",
	} {
		readers, _ := res.Readers(file)
		var got []string
		for _, c := range readers {
			got = append(got, c.Name)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("readers of %s: %v, want %q", file, got, want)
		}
	}
	if got := res.GeneratorDir("siteconfig/sites/sno1.yaml"); got != "siteconfig" {
		t.Errorf("generator dir %q, want siteconfig", got)
	}
	var gen []string
	for _, g := range res.GeneratedConfigMaps() {
		for _, f := range g.Files {
			gen = append(gen, fmt.Sprintf("%s/%s hashed=%t %s=%s at %s", g.Namespace, g.Name, g.Hashed, f.Key, f.File, f.At))
		}
	}
	want := []string{
		"sno1/extra hashed=true idms.yaml=sites/extra-manifests/idms.yaml at sites/kustomization.yaml:6:5",
		"sno1/extra hashed=true key.yaml=sites/loose-in-dir.yaml at sites/kustomization.yaml:7:5",
	}
	if !slices.Equal(gen, want) {
		t.Errorf("generated ConfigMaps:\n%s\nwant:\n%s", strings.Join(gen, "\n"), strings.Join(want, "\n"))
	}
}
