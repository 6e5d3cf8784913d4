package main

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// kustomizeRepo is a git repository with a base and an overlay that mixes
// an ICSP into the base's IDMS: one finding in each directory, one of them
// cross-object.
func kustomizeRepo(t *testing.T) string {
	t.Helper()
	repo := testtree.Write(t, map[string]string{
		"base/kustomization.yaml": "resources: [idms-release.yaml]\n",
		"base/idms-release.yaml": "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: release\nspec:\n  imageDigestMirrors:\n" +
			"  - source: quay.io/openshift-release-dev/ocp-release\n    mirrors: [mirror.corp.example/ocp/release]\n",
		"overlays/dev/kustomization.yaml":  "resources: [../../base, icsp-legacy.yaml]\n",
		"overlays/prod/kustomization.yaml": "resources: [../../base]\n",
		"overlays/dev/icsp-legacy.yaml": "apiVersion: operator.openshift.io/v1alpha1\nkind: ImageContentSourcePolicy\nmetadata:\n  name: legacy-tools\nspec:\n  repositoryDigestMirrors:\n" +
			"  - source: registry.example.com/tools\n    mirrors: [mirror.dev.example/tools]\n",
	})
	git := gittest.Runner(t, repo)
	git("init", "-q")
	// Staged, as the files of a commit in the making are when pre-commit
	// runs: a commit check reads the files git holds.
	git("add", ".")
	// git reports its top level free of symlinks (macOS /var → /private/var).
	real, err := filepath.EvalSymlinks(repo)
	if err != nil {
		t.Fatal(err)
	}
	return real
}

type jsonFindings struct {
	Findings []struct {
		File    string `json:"file"`
		Related []struct {
			File string `json:"file"`
		} `json:"related"`
	} `json:"findings"`
}

func (j jsonFindings) files() []string {
	seen := map[string]bool{}
	for _, f := range j.Findings {
		seen[f.File] = true
		for _, r := range f.Related {
			seen[r.File] = true
		}
	}
	var out []string
	for f := range seen {
		out = append(out, f)
	}
	sort.Strings(out)
	return out
}

// Run from a subdirectory of the repository, SARIF and annotations name
// files relative to the repository root (what GitHub resolves them
// against), while people see them by the shortest relative path from the
// working directory.
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

	var j jsonFindings
	mustJSON(t, js, &j)
	want := []string{filepath.Join("..", "base", "idms-release.yaml"), filepath.Join("dev", "icsp-legacy.yaml")}
	sort.Strings(want)
	if got := j.files(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("json files = %q, want %q", got, want)
	}
}

// pre-commit passes files and mirrorlint loads the whole repository: the
// files it reports read as the user would type them from the top level,
// not as absolute paths from the context.
func TestLintContextPathsAsTyped(t *testing.T) {
	repo := kustomizeRepo(t)
	t.Chdir(repo)
	js := filepath.Join(t.TempDir(), "r.json")
	r := mlRun(t, "", "lint", "--config", "none", "--format", "json="+js, filepath.Join("overlays", "dev", "icsp-legacy.yaml"))
	if r.code != exitFindings {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	var j jsonFindings
	mustJSON(t, js, &j)
	want := []string{filepath.Join("base", "idms-release.yaml"), filepath.Join("overlays", "dev", "icsp-legacy.yaml")}
	if got := j.files(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("json files = %q, want %q", got, want)
	}
	// The context still filters: the base alone has no finding of its own
	// in the overlay's file, but the cross-object one names it.
	r = mlRun(t, "", "lint", "--config", "none", filepath.Join("base", "idms-release.yaml"))
	if strings.Contains(r.stdout, "icsp-deprecated") || !strings.Contains(r.stdout, "base/idms-release.yaml:") {
		t.Errorf("context filtering changed:\n%s", r.stdout)
	}
}

// pre-commit from three levels below the top: the context is the top
// level, and the file given as sub/a.yaml is reported as sub/a.yaml, not as
// ../../../x/y/z/sub/a.yaml (up to the root and back down); a finding in a
// file elsewhere in the repository is named relative to the working
// directory as well.
func TestLintDeepSubdirectoryNamesFilesAsTyped(t *testing.T) {
	bad := "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: a\nspec:\n  imageDigestMirrors:\n" +
		"  - source: quay.io/Acme/app\n    mirrors: [mirror.example.com/acme/app]\n"
	repo := testtree.Write(t, map[string]string{"x/y/z/sub/a.yaml": bad, "x/y/z/sub/b.yaml": strings.ReplaceAll(bad, "name: a", "name: b")})
	gittest.Runner(t, repo)("init", "-q")
	t.Chdir(filepath.Join(repo, "x", "y", "z"))
	r := mlRun(t, "", "lint", "--config", "none", filepath.Join("sub", "a.yaml"))
	if r.code != exitFindings || !strings.HasPrefix(r.stdout, "sub/a.yaml:7:13: error repository-lowercase") || strings.Contains(r.stdout, "../") {
		t.Errorf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
}
