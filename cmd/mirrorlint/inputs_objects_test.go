package main

import (
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const icContentSources = `apiVersion: v1
metadata:
  name: c1
imageContentSources:
- source: quay.io/openshift-release-dev/ocp-release
  mirrors:
  - mirror.example.com/ocp/release
  - mirror2.example.com/ocp/release
`

const day2Reversed = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: day2
spec:
  imageDigestMirrors:
  - source: quay.io/openshift-release-dev/ocp-release
    mirrors:
    - mirror2.example.com/ocp/release
    - mirror.example.com/ocp/release
`

// The ImageContentSourcePolicy the installer makes of imageContentSources
// is an object of the cluster it creates: every rule reads it beside the
// day-2 objects of manifests/, at the install-config's lines, and the
// render holds its mirrors. icsp-deprecated is left to the
// install-config's own deprecation warning at the same key.
func TestInstallConfigICSPsSeenByEveryRule(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{"c1/install-config.yaml": icContentSources, "c1/manifests/idms.yaml": day2Reversed})
	r := mlRun(t, "", "lint", "--cluster", "install-config/c1", dir)
	r.stdout = strings.ReplaceAll(r.stdout, dir+"/", "")
	for _, want := range []string{
		"c1/manifests/idms.yaml:9:5: warning mirror-order-conflict: 2 entries give digest mirrors for \"quay.io/openshift-release-dev/ocp-release\" in contradicting orders",
		"    also c1/install-config.yaml:7:3 (ImageContentSourcePolicy/image-policy spec.repositoryDigestMirrors[0].mirrors)",
		"c1/manifests/idms.yaml:4:9: error icsp-mixed-with-sets: 1 ImageContentSourcePolicy object(s) (image-policy)",
		"    also c1/install-config.yaml:4:1 (ImageContentSourcePolicy/image-policy metadata.name)",
		"c1/install-config.yaml:4:1: warning install-config-image-content-sources: imageContentSources is deprecated",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no %q in\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "icsp-deprecated") {
		t.Errorf("icsp-deprecated repeats the install-config warning:\n%s", r.stdout)
	}
	r = mlRun(t, "", "render", "--cluster", "install-config/c1", dir)
	if !strings.Contains(r.stdout, "[[registry.mirror]]\n    location = \"mirror2.example.com/ocp/release\"") ||
		!strings.Contains(r.stdout, "[[registry.mirror]]\n    location = \"mirror.example.com/ocp/release\"") {
		t.Errorf("render:\n%s", r.stdout)
	}
	r = mlRun(t, "", "clusters", dir)
	if !strings.Contains(r.stdout, "objects:  3 (1 ImageContentSourcePolicy, 1 ImageDigestMirrorSet, 1 InstallConfig") ||
		!strings.Contains(r.stdout, "the ImageContentSourcePolicy image-policy from install-config.yaml imageContentSources") {
		t.Errorf("clusters:\n%s", r.stdout)
	}
}

// A mirror repeated in imageDigestSources is reported once, in the
// installer's terms: mirror-duplicate on the IDMS derived from it, at the
// same value, is covered.
func TestInstallConfigDuplicateReportedOnce(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{"c3/install-config.yaml": `apiVersion: v1
metadata:
  name: c3
imageDigestSources:
- source: quay.io/openshift-release-dev/ocp-release
  mirrors:
  - mirror.example.com/ocp/release
  - mirror.example.com/ocp/release
`})
	r := mlRun(t, "", "lint", dir)
	if !strings.Contains(r.stdout, "c3/install-config.yaml:8:5: error install-config-duplicate-mirror: duplicate mirror \"mirror.example.com/ocp/release\"") {
		t.Errorf("no install-config-duplicate-mirror:\n%s", r.stdout)
	}
	if strings.Contains(r.stdout, "mirror-duplicate:") {
		t.Errorf("mirror-duplicate repeats it:\n%s", r.stdout)
	}
}

// An install-config openshift-install refuses, in an install directory no
// cluster of the tree reads (an overlay tree beside it), is linted as the
// cluster it would create, stopped: the run fails on the refusal instead
// of passing clean, and clusters says why nothing is installed from it.
func TestRefusedInstallConfigBesideOverlays(t *testing.T) {
	dir := testtree.Write(t, map[string]string{
		"install/install-config.yaml":      "apiVersion: v1\nmetadata:\n  name: lab\nimageContentSources:\n- source: quay.io/a\n  mirrors: [m.example.com/a]\nimageDigestSources:\n- source: quay.io/b\n  mirrors: [m.example.com/b]\n",
		"overlays/prod/kustomization.yaml": "resources: [idms.yaml]\n",
		"overlays/prod/idms.yaml":          "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: prod\nspec:\n  imageDigestMirrors:\n  - source: quay.io/c\n    mirrors: [m.example.com/c]\n",
	})
	r := mlRun(t, "", "lint", "--config", "none", dir)
	if r.code != exitFindings || !strings.Contains(r.stdout, "install/install-config.yaml:4:1: error install-config-both-mirror-lists: ") || !strings.Contains(r.stdout, "[cluster install-config/lab]") {
		t.Errorf("lint: exit %d, want the refusal in the cluster install-config/lab:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = mlRun(t, "", "clusters", "--config", "none", dir)
	if !strings.Contains(r.stdout, "  stopped:  "+dir+"/install/install-config.yaml:1:1: openshift-install refuses this install-config, so no cluster is installed from it") {
		t.Errorf("clusters does not say why install-config/lab installs nothing:\n%s", r.stdout)
	}
}

// A mirror an installConfigOverrides entry repeats is reported once too,
// in the install-config rule's words, on the installConfigOverrides key's
// line (where a suppression comment can go) with the repeat inside the
// JSON as its other place: mirror-duplicate on the spoke's IDMS, at that
// place, is covered.
func TestOverridesDuplicateReportedOnce(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{"sites/sno1.yaml": `apiVersion: siteconfig.open-cluster-management.io/v1alpha1
kind: ClusterInstance
metadata:
  name: sno1
  namespace: sno1
spec:
  clusterName: sno1
  clusterImageSetNameRef: img4.20-x86-64
  installConfigOverrides: |
    {"imageDigestSources": [
      {"source": "quay.io/acme", "mirrors": ["m.example.com/acme", "m.example.com/acme"]}]}
`})
	r := mlRun(t, "", "lint", dir)
	r.stdout = strings.ReplaceAll(r.stdout, dir+"/", "")
	for _, want := range []string{
		`sites/sno1.yaml:9:3: error install-config-duplicate-mirror: installConfigOverrides.imageDigestSources[0].mirrors[1]: duplicate mirror "m.example.com/acme" for quay.io/acme`,
		"    also sites/sno1.yaml:11:68",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("no %q in\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "mirror-duplicate:") {
		t.Errorf("mirror-duplicate repeats it:\n%s", r.stdout)
	}
}
