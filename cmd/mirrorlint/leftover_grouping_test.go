package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

func groupingIDMS(name, source string, mirrors ...string) string {
	s := "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: " + name +
		"\nspec:\n  imageDigestMirrors:\n  - source: " + source + "\n    mirrors:\n"
	for _, m := range mirrors {
		s += "    - " + m + "\n"
	}
	return s
}

// Loose files under different top-level directories (CI-only Konflux
// files, two reference designs) are separate clusters: no cross-object
// finding joins them. The files of one directory are still one cluster.
func TestLeftoversGroupedPerTopLevelDirectory(t *testing.T) {
	const src = "quay.io/openshift-release-dev/ocp-release"
	dir := testtree.Write(t, map[string]string{
		".tekton/idms.yaml":                groupingIDMS("release", src, "mirror.a.example/ocp", "mirror.b.example/ocp"),
		".konflux/idms.yaml":               groupingIDMS("release", src, "mirror.b.example/ocp", "mirror.a.example/ocp"),
		"telco-ran/reference/idms.yaml":    groupingIDMS("ran", src, "mirror.a.example/ocp", "mirror.b.example/ocp"),
		"telco-core/reference/ocp.yaml":    groupingIDMS("core", src, "mirror.b.example/ocp", "mirror.a.example/ocp"),
		"overlays/prod/kustomization.yaml": "resources: [idms.yaml]\n",
		"overlays/prod/idms.yaml":          groupingIDMS("release", src, "mirror.b.example/ocp"),
		// One directory, as `oc apply -f apps/one` applies it: one cluster.
		"apps/one/a.yaml": groupingIDMS("dup", "quay.io/acme/app", "mirror.a.example/acme/app"),
		"apps/one/b.yaml": groupingIDMS("dup", "quay.io/acme/app", "mirror.b.example/acme/app"),
	})
	t.Chdir(dir)

	cl := mlRun(t, "", "clusters", "--config", "none", "--format", "json", ".")
	var clusters struct {
		Clusters []struct {
			Name string `json:"name"`
		} `json:"clusters"`
		Notices []string `json:"notices"`
	}
	mustUnmarshal(t, cl.stdout, &clusters)
	var names []string
	for _, c := range clusters.Clusters {
		names = append(names, c.Name)
	}
	if got, want := strings.Join(names, " "), "overlays/prod .konflux .tekton apps telco-core telco-ran"; got != want || cl.code != exitOK {
		t.Errorf("exit %d, clusters %q, want %q\n%s", cl.code, got, want, cl.stderr)
	}

	js := mlRun(t, "", "lint", "--config", "none", "--format", "json", ".")
	var doc struct {
		Findings []struct {
			Rule     string   `json:"rule"`
			File     string   `json:"file"`
			Clusters []string `json:"clusters"`
			Related  []struct {
				File string `json:"file"`
			} `json:"related"`
		} `json:"findings"`
	}
	mustUnmarshal(t, js.stdout, &doc)
	top := func(f string) string { first, _, _ := strings.Cut(f, "/"); return first }
	dups := 0
	for _, f := range doc.Findings {
		for _, r := range f.Related {
			if top(r.File) != top(f.File) {
				t.Errorf("%s on %s joins %s: %+v", f.Rule, f.File, r.File, f)
			}
		}
		if f.Rule == "mirror-order-conflict" {
			t.Errorf("mirror order compared across unrelated directories: %+v", f)
		}
		if f.Rule == "duplicate-object" {
			dups++
			if top(f.File) != "apps" || len(f.Clusters) != 1 || f.Clusters[0] != "apps" {
				t.Errorf("duplicate-object outside apps/one: %+v", f)
			}
		}
	}
	if dups != 2 || js.code != exitFindings {
		t.Errorf("exit %d, %d duplicate-object findings, want the two copies in apps/one:\n%s\n%s", js.code, dups, js.stdout, js.stderr)
	}

	// Without the duplicate, the objects that share names and sources
	// across .tekton/, .konflux/, telco-ran/ and telco-core/ give no error:
	// the run is clean.
	if err := os.Remove(filepath.Join(dir, "apps/one/b.yaml")); err != nil {
		t.Fatal(err)
	}
	if r := mlRun(t, "", "lint", "--config", "none", "."); r.code != exitOK || strings.Contains(r.stdout, ": error ") || !strings.Contains(r.stdout, "(0 errors, 0 warnings, 5 info)") || strings.Contains(r.stderr, "note:") {
		t.Errorf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// The notice proposing a split of one directory's loose files says that
// declared clusters replace the ones found, and how many others there are.
func TestSplitNoticeCountsOtherClusters(t *testing.T) {
	const src = "quay.io/openshift-release-dev/ocp-release"
	dir := testtree.Write(t, map[string]string{
		"telco/ran/idms.yaml":           groupingIDMS("release", src, "mirror.a.example/ocp"),
		"telco/core/idms.yaml":          groupingIDMS("release", src, "mirror.b.example/ocp"),
		"overlays/a/kustomization.yaml": "resources: [idms.yaml]\n",
		"overlays/a/idms.yaml":          groupingIDMS("a", src, "mirror.a.example/ocp"),
		"overlays/b/kustomization.yaml": "resources: [idms.yaml]\n",
		"overlays/b/idms.yaml":          groupingIDMS("b", src, "mirror.a.example/ocp"),
	})
	t.Chdir(dir)
	r := mlRun(t, "", "lint", "--config", "none", ".")
	want := "mirrorlint: note: the files of telco/ that no kustomization or cluster layout reaches are linted as one cluster (telco), but its directories disagree (ImageDigestMirrorSet/release is written differently in telco/core/idms.yaml and telco/ran/idms.yaml); " +
		"if they are separate clusters, declare them in .mirrorlint.yaml: clusters: [{name: telco/core, paths: [telco/core]}, {name: telco/ran, paths: [telco/ran]}]; " +
		"declared clusters replace the ones found, so list the 2 other clusters of the tree there too (mirrorlint clusters shows them)\n"
	if !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "whole tree") {
		t.Errorf("exit %d, stderr:\n%s\nwant %s", r.code, r.stderr, want)
	}
}
