package main

import (
	"maps"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// extraManifestsRepo commits a hub mirroring quay.io/a and a SiteConfig,
// run as a generator from siteconfig/, whose extraManifestPath holds an
// IDMS of the name openshift-install gives its own, and a file of two
// documents.
func extraManifestsRepo(t *testing.T) string {
	t.Helper()
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
    extraManifestPath: extra-manifest
`,
		"siteconfig/extra-manifest/idms.yaml": `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: image-digest-mirror
spec:
  imageDigestMirrors:
  - source: quay.io/a
    mirrors:
    - extra.example.com/a
`,
		"siteconfig/extra-manifest/two.yaml": `apiVersion: v1
kind: Namespace
metadata: {name: first}
---
apiVersion: v1
kind: Namespace
metadata: {name: dropped}
`,
	})
	dir := testtree.Write(t, files)
	git := gittest.Runner(t, dir)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "sites")
	return dir
}

// The spoke holds its extra manifests: the installer's IDMS and the extra
// one of its name are reported as one object given twice, at both; the
// dropped document is said at its line; the extra-manifest directory is no
// cluster of its own. A pre-commit run on the extra manifest lints the
// spoke, and `render` writes the mirror of the IDMS that wins.
func TestExtraManifestsThroughTheCommand(t *testing.T) {
	t.Chdir(extraManifestsRepo(t))
	r := mlRun(t, "", "lint", "--no-cache", "--config", "none", ".")
	for _, want := range []string{
		"siteconfig/extra-manifest/idms.yaml:4:9: error duplicate-object: ImageDigestMirrorSet/image-digest-mirror is defined 2 times in this cluster (also at siteconfig/sites/sno1.yaml:7:5)",
		"siteconfig/extra-manifest/two.yaml:5:1: warning extra-manifest-documents-dropped: siteconfig/extra-manifest/two.yaml holds more than one YAML document: the siteconfig-generator keeps only the first",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("lint lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "[cluster siteconfig/extra-manifest]") {
		t.Errorf("the extra-manifest directory is linted as a cluster of its own:\n%s", r.stdout)
	}
	c := mlRun(t, "", "clusters", "--config", "none", ".")
	if !strings.Contains(c.stdout, "; and its extra manifests: the ztp-site-generate container's own extra manifests (not in the repository), the files of siteconfig/extra-manifest\n") ||
		strings.Contains(c.stdout, "\nsiteconfig/extra-manifest\n") {
		t.Errorf("clusters:\n%s", c.stdout)
	}
	pc := mlRun(t, "", "lint", "--no-cache", "--config", "none", "siteconfig/extra-manifest/idms.yaml")
	if !strings.Contains(pc.stdout, "duplicate-object") || !strings.Contains(pc.stdout, "[cluster ztp-spoke/sno1]") {
		t.Errorf("a run on the extra manifest does not lint the spoke:\n%s%s", pc.stdout, pc.stderr)
	}
	out := mlRun(t, "", "render", "--config", "none", "--cluster", "sno1", ".")
	if !strings.Contains(out.stdout, `location = "extra.example.com/a"`) || strings.Contains(out.stdout, "hub.example.com") {
		t.Errorf("render of the spoke:\n%s%s", out.stdout, out.stderr)
	}
}
