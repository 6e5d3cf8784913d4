package pipeline

import (
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const idmsDoc = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: release
spec:
  imageDigestMirrors:
  - source: quay.io/openshift-release-dev/ocp-release
    mirrors:
    - registry.example.com/ocp/release
`

// A Helm chart and a ZTP source-crs directory are reported once each, as
// info, at Chart.yaml and at the first template; their templates (one does
// not even parse) give no unreadable-manifest error and no finding on their
// placeholders.
func TestNeverAppliedDirectoriesAreInfo(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"mirrors/idms.yaml":                    idmsDoc,
		"charts/day2/Chart.yaml":               "apiVersion: v2\nname: day2\nversion: 0.1.0\n",
		"charts/day2/values.yaml":              "mirror: registry.example.com\n",
		"charts/day2/templates/icsp.yaml":      "apiVersion: operator.openshift.io/v1alpha1\nkind: ImageContentSourcePolicy\nspec:\n  repositoryDigestMirrors:\n{{- range .Values.mirrors }}\n  - source: {{ .source }}\n{{- end }}\n",
		"charts/day2/templates/idms.yaml":      "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: {{ .Release.Name }}\n",
		"ztp/source-crs/DisconnectedICSP.yaml": "apiVersion: operator.openshift.io/v1alpha1\nkind: ImageContentSourcePolicy\nmetadata:\n  name: disconnected-internal-icsp\nspec:\n  repositoryDigestMirrors: $mirrors\n",
		"ztp/source-crs/DisconnectedIDMS.yaml": "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: disconnected\nspec:\n",
	})
	got := shapes(lintTree(t, nil, dir), dir)
	want := []string{
		"info not-applied charts/day2/Chart.yaml:1:1",
		"info not-applied ztp/source-crs/DisconnectedICSP.yaml:1:1",
		// The tree's own mirror of the payload, outside the templates.
		"info release-signatures-mirrored mirrors/idms.yaml:7:13",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("got\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
	}
	// Named on the command line (pre-commit passes changed files), a
	// template is still not read.
	got = shapes(lintTree(t, nil, dir+"/charts/day2/templates/icsp.yaml", dir+"/charts/day2/templates/idms.yaml"), dir)
	if !slices.Equal(got, []string{"info not-applied charts/day2/Chart.yaml:1:1"}) {
		t.Fatalf("explicit templates: %v", got)
	}
	// A real rule: its severity and ignore entries apply.
	cfg := &config.Config{Rules: map[string]string{"not-applied": "off"}}
	for _, f := range shapes(lintTree(t, cfg, dir), dir) {
		if strings.Contains(f, "not-applied") {
			t.Fatalf("not-applied: off left %v", f)
		}
	}
}

// A manifest in a kustomization directory that the kustomization does not
// list is a not-in-kustomization warning, a rule the config can turn off.
func TestNotInKustomizationIsARule(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"overlays/prod/kustomization.yaml": "resources:\n- idms.yaml\n",
		"overlays/prod/idms.yaml":          idmsDoc,
		"overlays/prod/old-icsp.yaml":      "apiVersion: operator.openshift.io/v1alpha1\nkind: ImageContentSourcePolicy\nmetadata:\n  name: old\nspec:\n  repositoryDigestMirrors:\n  - source: quay.io/a\n    mirrors: [m.example.com/a]\n",
	})
	got := shapes(only(lintTree(t, nil, dir), "not-in-kustomization"), dir)
	if !slices.Equal(got, []string{"warning not-in-kustomization overlays/prod/old-icsp.yaml:1:1"}) {
		t.Fatalf("got %v", got)
	}
	cfg := &config.Config{Rules: map[string]string{"not-in-kustomization": "off"}}
	if got := only(lintTree(t, cfg, dir), "not-in-kustomization"); len(got) != 0 {
		t.Fatalf("off: %v", got)
	}
}
