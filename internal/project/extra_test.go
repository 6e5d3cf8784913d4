package project

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// extraTree holds a hub mirroring quay.io/a, a SiteConfig its kustomization
// runs as a generator from siteconfig/ whose extraManifestPath names
// siteconfig/extra (an IDMS of the installer's name there), and a
// ClusterInstance whose extra manifests are a ConfigMap its kustomization
// generates from a file, one the tree does not hold, and one its
// kustomization does not list.
func extraTree(t *testing.T) string {
	idms := func(name, mirror string) string {
		return "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: " + name + "\nspec:\n  imageDigestMirrors:\n  - source: quay.io/a\n    mirrors:\n    - " + mirror + "\n"
	}
	files := testtree.Hub("hub", map[string]string{"quay.io/a": "hub.example.com/a"})
	maps.Copy(files, map[string]string{
		"siteconfig/kustomization.yaml": "generators: [sites/sno1.yaml]\n",
		"siteconfig/sites/sno1.yaml": `apiVersion: ran.openshift.io/v1
kind: SiteConfig
metadata: {name: sno1, namespace: sno1}
spec:
  clusterImageSetNameRef: openshift-4.18
  clusters:
  - clusterName: sno1
    extraManifestPath: extra
`,
		"siteconfig/extra/idms.yaml": idms("image-digest-mirror", "extra.example.com/a"),
		"ci/kustomization.yaml":      "resources: [ci.yaml]\nconfigMapGenerator:\n- name: gen\n  namespace: sno2\n  files: [extra/idms.yaml]\ngeneratorOptions: {disableNameSuffixHash: true}\n",
		"ci/ci.yaml": `apiVersion: siteconfig.open-cluster-management.io/v1alpha1
kind: ClusterInstance
metadata: {name: sno2, namespace: sno2}
spec:
  clusterName: sno2
  clusterImageSetNameRef: openshift-4.18
  templateRefs: [{name: ai-cluster-templates-v1, namespace: open-cluster-management}]
  extraManifestsRefs:
  - name: gen
  - name: elsewhere
  - name: forgotten
`,
		"ci/extra/idms.yaml": idms("generated", "gen.example.com/a"),
		"ci/forgotten.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: forgotten, namespace: sno2}\ndata:\n  idms.yaml: |\n" + strings.ReplaceAll("    "+idms("forgotten", "f.example.com/a"), "\n", "\n    ") + "\n",
	})
	return testtree.Write(t, files)
}

func clusterNamed(p *Project, name string) *cluster.Cluster {
	for _, cl := range p.Clusters {
		if cl.Name == name {
			return cl
		}
	}
	return nil
}

// A site's spoke holds its extra manifests, placed in their files, with
// what was not read said at the reference; its render has their mirrors;
// no cluster of the tree holds them; a commit of one, or of a file added
// to the site's directory, lints the spoke.
func TestSpokesGetExtraManifests(t *testing.T) {
	root := extraTree(t)
	t.Chdir(root)
	p, err := Open(Options{Paths: []string{"."}, Root: root, ConfigPath: "none"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, cl := range p.Clusters {
		names = append(names, cl.Name)
	}
	if want := []string{"ci", "hub", "siteconfig", "ztp-spoke/sno2", "ztp-spoke/sno1"}; !slices.Equal(names, want) {
		t.Fatalf("clusters %v, want %v (no cluster of the extra-manifest directories)", names, want)
	}
	for name, want := range map[string][]string{
		"ztp-spoke/sno1": {"ImageDigestMirrorSet/image-digest-mirror siteconfig/sites/sno1.yaml", "ImageDigestMirrorSet/image-digest-mirror siteconfig/extra/idms.yaml"},
		"ztp-spoke/sno2": {"ImageDigestMirrorSet/image-digest-mirror ci/ci.yaml", "ImageDigestMirrorSet/generated ci/extra/idms.yaml"},
	} {
		cl := clusterNamed(p, name)
		var got []string
		for _, o := range cl.Objects {
			if o.Kind == manifest.KindIDMS {
				got = append(got, o.Ref()+" "+o.Position().File)
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s holds %v, want %v", name, got, want)
		}
	}
	sno2 := clusterNamed(p, "ztp-spoke/sno2")
	var probs []string
	for _, pr := range sno2.Problems {
		probs = append(probs, pr.Code+" "+pr.Pos.String())
	}
	if want := []string{"extra-manifest-not-linted ci/ci.yaml:10:11", "extra-manifest-not-linted ci/ci.yaml:11:11"}; !slices.Equal(probs, want) ||
		!strings.Contains(sno2.Problems[1].Message, "ConfigMap forgotten (ci/forgotten.yaml:1:1) lies in a kustomization's directory that does not list it") {
		t.Errorf("sno2 problems %v, want the ConfigMap the tree does not hold and the one kustomize does not apply, at their references", sno2.Problems)
	}
	conf := string(Render(clusterNamed(p, "ztp-spoke/sno1")).Output.RegistriesConf)
	if !strings.Contains(conf, "extra.example.com/a") {
		t.Errorf("sno1's registries.conf lacks the extra manifest's mirror:\n%s", conf)
	}
	for file, want := range map[string]string{
		"siteconfig/extra/idms.yaml": "ztp-spoke/sno1",
		"siteconfig/extra/new.yaml":  "ztp-spoke/sno1",
		"ci/extra/idms.yaml":         "ci ztp-spoke/sno2",
	} {
		var got []string
		for _, cl := range p.ClustersIncluding([]string{filepath.Join(root, file)}) {
			got = append(got, cl.Name)
		}
		if strings.Join(got, " ") != want {
			t.Errorf("a commit of %s lints %v, want %s", file, got, want)
		}
	}
	// Linting the hub cluster alone leaves the extra manifests unlinted.
	h, err := Open(Options{Paths: []string{"."}, Root: root, ConfigPath: "none", Cluster: "siteconfig"})
	if err != nil {
		t.Fatal(err)
	}
	if h.AllReadersLinted("siteconfig/extra/idms.yaml") || !p.AllReadersLinted("siteconfig/extra/idms.yaml") {
		t.Errorf("every reader of the extra manifest linted: %t with --cluster siteconfig, %t without; want false, true",
			h.AllReadersLinted("siteconfig/extra/idms.yaml"), p.AllReadersLinted("siteconfig/extra/idms.yaml"))
	}
}

// A site whose extra manifests a component refuses is stopped there: its
// findings are reported, its nodes not rendered.
func TestRefusedExtraManifestsStopTheSpoke(t *testing.T) {
	root := testtree.Write(t, map[string]string{
		"kustomization.yaml": "generators: [sno1.yaml]\n",
		"sno1.yaml":          "apiVersion: ran.openshift.io/v1\nkind: SiteConfig\nmetadata: {name: sno1, namespace: sno1}\nspec:\n  clusters:\n  - clusterName: sno1\n    extraManifestPath: missing\n",
	})
	t.Chdir(root)
	p, err := Open(Options{Paths: []string{"."}, Root: root, ConfigPath: "none", Cluster: "ztp-spoke/sno1"})
	if err != nil {
		t.Fatal(err)
	}
	cl := p.Clusters[0]
	if cl.Stopped == nil || cl.Stopped.Pos.String() != "sno1.yaml:7:24" || !strings.Contains(cl.Stopped.Reason, "siteconfig-generator") {
		t.Errorf("stopped %+v, want at the extraManifestPath the generator fails on", cl.Stopped)
	}
	if r := Render(cl); r.Output != nil || r.Stopped == nil {
		t.Errorf("a spoke never installed was rendered")
	}
}
