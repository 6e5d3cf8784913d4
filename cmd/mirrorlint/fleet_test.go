package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// fleetFiles is a ZTP-shaped repository: one kustomize base that every
// site overlay builds on, and n site overlays, each with its own mirror
// set. The base holds an ImageContentSourcePolicy (icsp-deprecated, an
// info finding every site shares); every third site's own IDMS has an
// upper-case repository (repository-lowercase, an error of that site only).
func fleetFiles(n int) map[string]string {
	files := map[string]string{
		"base/kustomization.yaml": "resources:\n- icsp-release.yaml\n",
		"base/icsp-release.yaml": `apiVersion: operator.openshift.io/v1alpha1
kind: ImageContentSourcePolicy
metadata:
  name: release
spec:
  repositoryDigestMirrors:
  - source: quay.io/openshift-release-dev/ocp-release
    mirrors:
    - mirror.corp.example/ocp/release
`,
	}
	for i := 1; i <= n; i++ {
		site := fmt.Sprintf("sites/site-%04d", i)
		repo := fmt.Sprintf("site%d/app", i)
		if i%3 == 0 {
			repo = fmt.Sprintf("Site%d/app", i)
		}
		files[site+"/kustomization.yaml"] = "resources:\n- ../../base\n- idms-apps.yaml\n"
		files[site+"/idms-apps.yaml"] = fmt.Sprintf(`apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: apps
spec:
  imageDigestMirrors:
  - source: registry.example.com/%s
    mirrors:
    - mirror.corp.example/%s
`, repo, strings.ToLower(repo))
	}
	return files
}

// A finding on the base that 12 sites share names the count and three of
// them in the text output, on a short line; JSON lists all 12.
func TestFleetFindingNamesAFewClusters(t *testing.T) {
	dir := testtree.Write(t, fleetFiles(12))
	t.Chdir(dir)
	r := mlRun(t, "", "lint", "--config", "none", ".")
	const want = "base/icsp-release.yaml:2:7: info icsp-deprecated: "
	var line string
	for _, l := range strings.Split(r.stdout, "\n") {
		if strings.HasPrefix(l, want) {
			line = l
		}
	}
	if !strings.HasSuffix(line, " [12 clusters: sites/site-0001, sites/site-0002, sites/site-0003, …]") || len(line) > 400 {
		t.Errorf("exit %d; the shared finding's line:\n%s\nin\n%s%s", r.code, line, r.stdout, r.stderr)
	}
	var doc struct {
		Findings []struct {
			Rule     string   `json:"rule"`
			Clusters []string `json:"clusters"`
		} `json:"findings"`
	}
	js := mlRun(t, "", "lint", "--config", "none", "--format", "json", ".")
	mustUnmarshal(t, js.stdout, &doc)
	for _, f := range doc.Findings {
		if f.Rule == "icsp-deprecated" && len(f.Clusters) != 12 {
			t.Errorf("json lists %d clusters, want 12: %v", len(f.Clusters), f.Clusters)
		}
	}
}

func mustUnmarshal(t *testing.T, s string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(s), v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
}
