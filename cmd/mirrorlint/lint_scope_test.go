package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
)

// kustomizeRepo is a git repository with a base and an overlay that mixes
// an ICSP into the base's IDMS: one finding in each directory, one of them
// cross-object.
func kustomizeRepo(t *testing.T) string {
	t.Helper()
	repo := writeTree(t, map[string]string{
		"base/kustomization.yaml": "resources: [idms-release.yaml]\n",
		"base/idms-release.yaml": "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: release\nspec:\n  imageDigestMirrors:\n" +
			"  - source: quay.io/openshift-release-dev/ocp-release\n    mirrors: [mirror.corp.example/ocp/release]\n",
		"overlays/dev/kustomization.yaml":  "resources: [../../base, icsp-legacy.yaml]\n",
		"overlays/prod/kustomization.yaml": "resources: [../../base]\n",
		"overlays/dev/icsp-legacy.yaml": "apiVersion: operator.openshift.io/v1alpha1\nkind: ImageContentSourcePolicy\nmetadata:\n  name: legacy-tools\nspec:\n  repositoryDigestMirrors:\n" +
			"  - source: registry.example.com/tools\n    mirrors: [mirror.dev.example/tools]\n",
	})
	gittest.Runner(t, repo)("init", "-q")
	// git reports its top level free of symlinks (macOS /var → /private/var).
	real, err := filepath.EvalSymlinks(repo)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

// Run from a subdirectory of the repository, SARIF and annotations name
// files relative to the repository root (what GitHub resolves them
// against), whatever the working directory.
func TestLintPathsFromRepositorySubdirectory(t *testing.T) {
	repo := kustomizeRepo(t)
	out := t.TempDir()
	sarif, js, gh := filepath.Join(out, "r.sarif"), filepath.Join(out, "r.json"), filepath.Join(out, "r.gh")
	t.Chdir(filepath.Join(repo, "overlays"))
	r := mlRun(t, "", "lint", "--config", "none", "--format", "sarif="+sarif, "--format", "json="+js, "--format", "github="+gh, "dev")
	if r.code != exitFindings {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}

	var s struct {
		Runs []struct {
			Results []struct {
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI       string `json:"uri"`
							URIBaseID string `json:"uriBaseId"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	mustJSON(t, sarif, &s)
	uris := map[string]bool{}
	for _, res := range s.Runs[0].Results {
		a := res.Locations[0].PhysicalLocation.ArtifactLocation
		uris[a.URI+" "+a.URIBaseID] = true
	}
	for _, want := range []string{"base/idms-release.yaml %SRCROOT%", "overlays/dev/icsp-legacy.yaml %SRCROOT%"} {
		if !uris[want] {
			t.Errorf("SARIF lacks uri %q; has %v", want, uris)
		}
	}

	ghOut, err := os.ReadFile(gh)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"file=base/idms-release.yaml,", "file=overlays/dev/icsp-legacy.yaml,"} {
		if !strings.Contains(string(ghOut), want) {
			t.Errorf("annotations lack %q:\n%s", want, ghOut)
		}
	}
}
