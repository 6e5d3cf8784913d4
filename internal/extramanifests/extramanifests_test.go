package extramanifests

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/sites"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
	"sigs.k8s.io/kustomize/kyaml/yaml"
)

const idms = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: %s
spec:
  imageDigestMirrors:
  - source: quay.io/%[1]s
    mirrors:
    - m.example.com/%[1]s
`

// inTree writes files into a new directory, makes it the working
// directory (the loader names files relative to it, as a run on "." does)
// and returns the sites of the files given.
func inTree(t *testing.T, files map[string]string, siteFiles ...string) []*sites.Site {
	dir := testtree.Write(t, files)
	t.Chdir(dir)
	set, err := manifest.Load(siteFiles, manifest.Options{Unmodelled: manifest.UnmodelledAll})
	if err != nil {
		t.Fatal(err)
	}
	ss, _ := sites.From(set.Objects)
	return ss
}

func objectsOf(set *Set) []string {
	var out []string
	for _, o := range set.Objects {
		out = append(out, fmt.Sprintf("%s %s", o.Ref(), o.Locate(manifest.ParsePath("spec")).String()))
	}
	return out
}

func problemsOf(set *Set) []string {
	var out []string
	for _, p := range set.Problems {
		inc := ""
		if p.Incomplete {
			inc = " (incomplete)"
		}
		out = append(out, fmt.Sprintf("%s %s%s: %s", p.Pos, p.Code, inc, p.Message))
	}
	return out
}

func wantLines(t *testing.T, what string, got, want []string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n  %s\nwant:\n  %s", what, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
}

// extraManifestPath is read from the directory the generator runs in:
// the directory's own files (not a subdirectory's, nor a dot file's, nor
// an empty file), the first document of each; the documents after it are
// dropped with a warning, and the container's own manifests are said to be
// out of reach.
func TestExtraManifestPath(t *testing.T) {
	ss := inTree(t, map[string]string{
		"siteconfig/kustomization.yaml": "generators: [sites/sno1.yaml]\n",
		"siteconfig/sites/sno1.yaml": `apiVersion: ran.openshift.io/v1
kind: SiteConfig
metadata: {name: sno1, namespace: sno1}
spec:
  clusters:
  - clusterName: sno1
    extraManifestPath: extra
`,
		"siteconfig/extra/01-idms.yaml":     fmt.Sprintf(idms, "one"),
		"siteconfig/extra/02-two.yaml":      fmt.Sprintf(idms, "two") + "---\n" + fmt.Sprintf(idms, "dropped"),
		"siteconfig/extra/.hidden.yaml":     fmt.Sprintf(idms, "hidden"),
		"siteconfig/extra/empty.yaml":       "",
		"siteconfig/extra/sub/deeper.yaml":  fmt.Sprintf(idms, "deeper"),
		"siteconfig/sites/extra/decoy.yaml": fmt.Sprintf(idms, "decoy"),
	}, "siteconfig/sites/sno1.yaml")
	// Run from elsewhere, the path beside the SiteConfig is not read.
	set := For(ss[0], &Tree{RunDir: func(string) string { return "hub" }})
	wantLines(t, "run elsewhere", problemsOf(set), []string{
		"siteconfig/sites/sno1.yaml:7:24 extra-manifest-refused: extraManifestPath extra: the siteconfig-generator runs in hub and finds no directory hub/extra there (no such file or directory), so it fails: could not build the entire SiteConfig, and none of its clusters is installed; siteconfig/sites/extra is beside the SiteConfig, but the path is relative to the directory the generator runs in: write it relative to that directory",
	})
	set = For(ss[0], &Tree{RunDir: func(string) string { return "siteconfig" }})
	wantLines(t, "objects", objectsOf(set), []string{
		"ImageDigestMirrorSet/one siteconfig/extra/01-idms.yaml:6:3",
		"ImageDigestMirrorSet/two siteconfig/extra/02-two.yaml:6:3",
	})
	wantLines(t, "problems", problemsOf(set), []string{
		"siteconfig/extra/02-two.yaml:11:1 extra-manifest-documents-dropped: siteconfig/extra/02-two.yaml holds more than one YAML document: the siteconfig-generator keeps only the first (it decodes each extra manifest into one map), so this document and those after it never reach the spoke; put each object in a file of its own",
	})
	wantLines(t, "files", set.Files, []string{"siteconfig/extra/01-idms.yaml", "siteconfig/extra/02-two.yaml", "siteconfig/extra/empty.yaml"})
	wantLines(t, "dirs", set.Dirs, []string{"siteconfig/extra"})
	wantLines(t, "from", set.From, []string{"the ztp-site-generate container's own extra manifests (not in the repository)", "the files of siteconfig/extra"})
	if set.Refused != nil {
		t.Errorf("refused: %+v", set.Refused)
	}
}

// Search paths replace the container's manifests: a later directory's file
// replaces an earlier one's of that name, a template is named per node
// role and not read, and the filter keeps by those names.
func TestSearchPathsAndFilter(t *testing.T) {
	site := func(filter string) string {
		return `apiVersion: ran.openshift.io/v1
kind: SiteConfig
metadata: {name: sno1, namespace: sno1}
spec:
  clusters:
  - clusterName: sno1
    nodes:
    - {hostName: a, role: master}
    - {hostName: b, role: worker}
    - {hostName: c, role: master}
    extraManifests:
      searchPaths:
      - reference/
      - custom/
` + filter
	}
	files := map[string]string{
		"reference/a.yaml":       fmt.Sprintf(idms, "reference-a"),
		"reference/b.yaml":       fmt.Sprintf(idms, "reference-b"),
		"reference/mc.yaml.tmpl": "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfig\nmetadata:\n  name: 50-{{ .Role }}\n",
		"custom/b.yaml":          fmt.Sprintf(idms, "custom-b"),
		"plain.yaml":             site(""),
		"filtered.yaml":          site("      filter:\n        exclude: [a.yaml, worker-mc.yaml]\n"),
		"kept.yaml":              site("      filter:\n        inclusionDefault: Exclude\n        include: [b.yaml]\n"),
		"unknown.yaml":           site("      filter:\n        inclusionDefault: exclude\n        include: [b.yaml, c.yaml]\n"),
		"bothlists.yaml":         site("      filter:\n        include: [b.yaml]\n"),
	}
	ss := inTree(t, files, "plain.yaml", "filtered.yaml", "kept.yaml", "unknown.yaml", "bothlists.yaml")
	if len(ss) != 5 {
		t.Fatalf("%d sites", len(ss))
	}
	set := For(ss[0], &Tree{})
	wantLines(t, "objects", objectsOf(set), []string{
		"ImageDigestMirrorSet/reference-a reference/a.yaml:6:3",
		"ImageDigestMirrorSet/custom-b custom/b.yaml:6:3",
	})
	wantLines(t, "problems", problemsOf(set), []string{
		"reference/mc.yaml.tmpl:1:1 extra-manifest-not-linted: reference/mc.yaml.tmpl is a template the siteconfig-generator renders once per node role (master-mc.yaml, worker-mc.yaml): mirrorlint does not render it, so what it holds is not linted",
	})
	wantLines(t, "from", set.From, []string{"the files of reference", "the files of custom"})

	set = For(ss[1], &Tree{})
	wantLines(t, "objects filtered", objectsOf(set), []string{"ImageDigestMirrorSet/custom-b custom/b.yaml:6:3"})
	wantLines(t, "problems filtered", problemsOf(set), []string{
		"reference/mc.yaml.tmpl:1:1 extra-manifest-not-linted: reference/mc.yaml.tmpl is a template the siteconfig-generator renders once per node role (master-mc.yaml): mirrorlint does not render it, so what it holds is not linted",
	})

	set = For(ss[2], &Tree{})
	wantLines(t, "objects kept", objectsOf(set), []string{"ImageDigestMirrorSet/custom-b custom/b.yaml:6:3"})
	wantLines(t, "problems kept", problemsOf(set), nil)

	set = For(ss[3], &Tree{})
	wantLines(t, "problems unknown", problemsOf(set), []string{
		`unknown.yaml:17:27 extra-manifest-refused: extraManifests.filter.include "c.yaml" names no extra manifest of the search paths: the siteconfig-generator fails: Filename c.yaml under include array is invalid, so none of the SiteConfig's clusters is installed; name a file of the search paths (a template as <role>-<name>)`,
	})
	if set.Refused == nil || len(set.Objects) != 0 {
		t.Errorf("a filter the generator refuses: refused %v, %d objects; want refused, none", set.Refused, len(set.Objects))
	}

	set = For(ss[4], &Tree{})
	if set.Refused == nil || !strings.Contains(set.Refused.Reason, "include list can not have entries") || set.Refused.Pos.Line != 16 {
		t.Errorf("include list in include mode: refusal %+v", set.Refused)
	}
}

// A relative directory that is not there fails the generator; an absolute
// one is the container's, and what it holds is not linted (nor is a name
// the filter gives refused: it may be one of the container's); one out of
// the repository is not read.
func TestMissingDirectory(t *testing.T) {
	ss := inTree(t, map[string]string{
		"sites/sno1.yaml": `apiVersion: ran.openshift.io/v1
kind: SiteConfig
metadata: {name: sno1, namespace: sno1}
spec:
  clusters:
  - clusterName: sno1
    extraManifestPath: nowhere
  - clusterName: sno2
    extraManifests:
      searchPaths:
      - /kustomize/plugin/extra-manifest
      filter:
        exclude: [in-the-container.yaml]
  - clusterName: sno3
    extraManifestPath: ../../outside
`,
	}, "sites/sno1.yaml")
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	testtree.WriteAt(t, filepath.Dir(root), map[string]string{"outside/idms.yaml": fmt.Sprintf(idms, "outside")})
	set := For(ss[0], &Tree{})
	wantLines(t, "relative", problemsOf(set), []string{
		"sites/sno1.yaml:7:24 extra-manifest-refused: extraManifestPath nowhere: the siteconfig-generator runs in sites and finds no directory sites/nowhere there (no such file or directory), so it fails: could not build the entire SiteConfig, and none of its clusters is installed; write the path relative to that directory",
	})
	set = For(ss[1], &Tree{})
	wantLines(t, "absolute", problemsOf(set), []string{
		"sites/sno1.yaml:11:9 extra-manifest-not-linted (incomplete): extraManifests.searchPaths entry /kustomize/plugin/extra-manifest is a path in the ztp-site-generate container, not in the repository: the extra manifests the generator reads there are not linted",
	})
	set = For(ss[2], &Tree{Access: safefs.New(0, root)})
	wantLines(t, "outside", problemsOf(set), []string{
		"sites/sno1.yaml:15:24 extra-manifest-not-linted (incomplete): extraManifestPath ../../outside leads out of the repository (../outside): the extra manifests the generator reads there are not linted",
	})
}

// A file the generator cannot decode into a map fails it; a name
// assisted-service does not upload refuses the spoke, and so does a .json
// file, which the generator writes back as YAML.
func TestSiteConfigRefusals(t *testing.T) {
	ss := inTree(t, map[string]string{
		"sno1.yaml": `apiVersion: ran.openshift.io/v1
kind: SiteConfig
metadata: {name: sno1, namespace: sno1}
spec:
  clusters:
  - clusterName: sno1
    extraManifestPath: notes
  - clusterName: sno2
    extraManifestPath: readme
`,
		"notes/notes.txt":  "apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n",
		"notes/ns.json":    `{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "y"}}`,
		"readme/README.md": "Extra manifests\n===============\n",
	}, "sno1.yaml")
	set := For(ss[0], &Tree{})
	wantLines(t, "extension", problemsOf(set), []string{
		"notes/notes.txt:1:1 extra-manifest-refused: extra manifest notes.txt: assisted-service refuses it (Manifest filename of file notes.txt is invalid. Only json, yaml and yml or patch extensions are supported), so the spoke's manifests are not synced and it is not installed; name it .yaml",
		"notes/ns.json:1:1 extra-manifest-refused: extra manifest ns.json: the siteconfig-generator writes it back as YAML (with its annotation), and assisted-service refuses a .json manifest that is not JSON (Manifest content of file ns.json has an illegal JSON format), so the spoke's manifests are not synced and it is not installed; name it .yaml",
	})
	set = For(ss[1], &Tree{})
	wantLines(t, "not a mapping", problemsOf(set), []string{
		"readme/README.md:1:1 extra-manifest-refused: readme/README.md does not start with a YAML mapping: the siteconfig-generator decodes each extra manifest into a map and fails (cannot unmarshal it into map[string]interface {}), so none of the SiteConfig's clusters is installed; fix the file or move it out of the directory",
	})
}

const configMaps = `apiVersion: v1
kind: ConfigMap
metadata:
  name: extra
  namespace: sno1
data:
  idms.yaml: |
    apiVersion: config.openshift.io/v1
    kind: ImageDigestMirrorSet
    metadata:
      name: image-digest-mirror
    spec:
      imageDigestMirrors:
      - source: quay.io/a
        mirrors:
        - m.example.com/a
  notes.md: hello
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: more
  namespace: sno1
data:
  idms.yaml: "kind: Namespace"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: astray
  namespace: elsewhere
data: {}
`

// A ClusterInstance's ConfigMaps: every data key a manifest, placed on its
// lines of the ConfigMap file; a generated ConfigMap's values are its
// files; assisted-service refuses a name that is no manifest file's and a
// key two of them hold; a ConfigMap the tree does not hold is said.
func TestClusterInstanceRefs(t *testing.T) {
	ss := inTree(t, map[string]string{
		"sites/ci.yaml": `apiVersion: siteconfig.open-cluster-management.io/v1alpha1
kind: ClusterInstance
metadata: {name: sno1, namespace: sno1}
spec:
  clusterName: sno1
  extraManifestsRefs:
  - name: extra
  - name: more
  - name: generated
  - name: missing
  - name: hashed
  - name: astray
`,
		"sites/cms.yaml":               configMaps,
		"sites/kustomization.yaml":     "resources: [ci.yaml, cms.yaml]\n",
		"sites/extra-manifests/g.yaml": fmt.Sprintf(idms, "generated"),
	}, "sites/ci.yaml", "sites/cms.yaml")
	cms, err := manifest.Load([]string{"sites/cms.yaml"}, manifest.Options{Unmodelled: manifest.UnmodelledAll})
	if err != nil {
		t.Fatal(err)
	}
	k := manifest.Position{File: "sites/kustomization.yaml", Line: 4, Column: 5}
	set := For(ss[0], &Tree{ConfigMaps: cms.Objects, Generated: []Generated{
		{Name: "generated", Namespace: "sno1", At: k, Files: []GeneratedFile{{Key: "g.yaml", File: "sites/extra-manifests/g.yaml", At: k}}},
		{Name: "hashed", At: k, Hashed: true},
	}})
	wantLines(t, "objects", objectsOf(set), []string{
		"ImageDigestMirrorSet/image-digest-mirror sites/cms.yaml:13:7",
		"ImageDigestMirrorSet/generated sites/extra-manifests/g.yaml:6:3",
	})
	wantLines(t, "problems", problemsOf(set), []string{
		"sites/cms.yaml:17:3 extra-manifest-refused: extra manifest notes.md: assisted-service refuses it (Manifest filename of file notes.md is invalid. Only json, yaml and yml or patch extensions are supported), so the spoke's manifests are not synced and it is not installed; name it .yaml",
		"sites/cms.yaml:25:3 extra-manifest-refused: extra manifest idms.yaml is also a key of an earlier ConfigMap of extraManifestsRefs (sites/cms.yaml:7:3): assisted-service refuses them (Conflict in manifest names ('idms.yaml' is not unique)), so the spoke's manifests are not synced and it is not installed; rename one",
		"sites/ci.yaml:10:11 extra-manifest-not-linted (incomplete): extraManifestsRefs missing: no ConfigMap missing in namespace sno1 is in the repository (nor generated by a kustomization), so the manifests the spoke gets from it are not linted; commit it beside the ClusterInstance",
		"sites/ci.yaml:11:11 extra-manifest-refused: extraManifestsRefs hashed: the configMapGenerator at sites/kustomization.yaml:4:5 appends kustomize's name suffix hash (hashed-<hash>), which a ClusterInstance's reference does not follow (kustomize rewrites only the references it knows): the SiteConfig operator finds no ConfigMap hashed (failed to retrieve ExtraManifest) and does not install the site; set options.disableNameSuffixHash: true on the generator (or generatorOptions)",
		"sites/ci.yaml:12:11 extra-manifest-not-linted (incomplete): extraManifestsRefs astray: the repository's ConfigMap astray is in namespace elsewhere (sites/cms.yaml:27:1), not the ClusterInstance's sno1, where the SiteConfig operator and assisted-service look for it; so the manifests the spoke gets from it are not linted: put the ConfigMap in namespace sno1",
	})
	wantLines(t, "files", set.Files, []string{"sites/cms.yaml", "sites/kustomization.yaml", "sites/extra-manifests/g.yaml"})
	if set.Refused == nil || set.Refused.Pos.Line != 17 {
		t.Errorf("refusal %+v, want the first, at sites/cms.yaml:17", set.Refused)
	}
}

// A ConfigMap value that is not YAML is refused at its line.
func TestConfigMapValueNotYAML(t *testing.T) {
	ss := inTree(t, map[string]string{
		"ci.yaml": `apiVersion: siteconfig.open-cluster-management.io/v1alpha1
kind: ClusterInstance
metadata: {name: sno1, namespace: sno1}
spec:
  clusterName: sno1
  extraManifestsRefs: [{name: extra}]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: extra, namespace: sno1}
data:
  bad.yaml: |
    kind: ImageDigestMirrorSet
    spec: [
`,
	}, "ci.yaml")
	set, err := manifest.Load([]string{"ci.yaml"}, manifest.Options{Unmodelled: manifest.UnmodelledAll})
	if err != nil {
		t.Fatal(err)
	}
	got := For(ss[0], &Tree{ConfigMaps: set.Objects})
	if got.Refused == nil || got.Refused.Pos.File != "ci.yaml" || got.Refused.Pos.Line < 13 || !strings.Contains(got.Refused.Reason, "invalid YAML format") {
		t.Errorf("refusal %+v; want one inside the value of bad.yaml", got.Refused)
	}
}

// Discovery learns the directories every cluster of a SiteConfig reads
// from the document alone: the search paths when set, else the path.
func TestSiteConfigDirs(t *testing.T) {
	var doc yaml.Node
	text := `apiVersion: ran.openshift.io/v1
kind: SiteConfig
spec:
  clusters:
  - clusterName: a
    extraManifestPath: extra
  - clusterName: b
    extraManifestPath: ignored
    extraManifests:
      searchPaths: [reference/, extra]
  - clusterName: c
`
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	wantLines(t, "dirs", SiteConfigDirs(doc.Content[0]), []string{"extra", "reference/"})
}

// A ClusterInstance of other templates than the assisted installer's (an
// image-based install) gets its ConfigMaps' manifests too, but what
// assisted-service refuses is not said of it.
func TestClusterInstanceOtherTemplates(t *testing.T) {
	ss := inTree(t, map[string]string{
		"ci.yaml": `apiVersion: siteconfig.open-cluster-management.io/v1alpha1
kind: ClusterInstance
metadata: {name: sno1, namespace: sno1}
spec:
  clusterName: sno1
  templateRefs: [{name: ibi-cluster-templates-v1, namespace: open-cluster-management}]
  extraManifestsRefs: [{name: extra}]
---
` + configMaps,
	}, "ci.yaml")
	set, err := manifest.Load([]string{"ci.yaml"}, manifest.Options{Unmodelled: manifest.UnmodelledAll})
	if err != nil {
		t.Fatal(err)
	}
	got := For(ss[0], &Tree{ConfigMaps: set.Objects})
	wantLines(t, "objects", objectsOf(got), []string{"ImageDigestMirrorSet/image-digest-mirror ci.yaml:21:7"})
	wantLines(t, "problems", problemsOf(got), nil)
}
