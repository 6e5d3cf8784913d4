package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/gittest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// fleetRepo writes a git repository shaped like a fleet: a base and site
// overlays (one with a broken mirror), plain layout clusters, a tree of
// workloads and a file that does not parse, and commits it.
func fleetRepo(t *testing.T) string {
	t.Helper()
	idms := func(name, source, mirror, policy string) string {
		s := fmt.Sprintf("apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: %s\nspec:\n  imageDigestMirrors:\n  - source: %s\n    mirrors:\n    - %s\n", name, source, mirror)
		if policy != "" {
			s += "    mirrorSourcePolicy: " + policy + "\n"
		}
		return s
	}
	files := map[string]string{
		"base/kustomization.yaml": "resources: [release.yaml, app.yaml]\n",
		"base/release.yaml":       idms("release", "quay.io/openshift-release-dev/ocp-release", "registry.fleet.example/ocp/release", ""),
		"base/app.yaml":           "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app}\nspec: {replicas: 1}\n",
		"clusters/hub/idms.yaml":  idms("hub", "quay.io/acme/app", "registry.hub.example/acme/app", "NeverContactSource"),
		"clusters/hub/image.yaml": "apiVersion: config.openshift.io/v1\nkind: Image\nmetadata: {name: cluster}\nspec:\n  registrySources:\n    blockedRegistries: [registry.hub.example]\n",
		"clusters/edge/idms.yaml": idms("edge", "quay.io/acme/app", "registry.edge.example/acme/app", ""),
		"apps/web/deploy.yaml":    "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n",
		"apps/web/broken.yaml":    "kind: [unclosed\n",
		"apps/mirrors/tags.yaml":  strings.NewReplacer("ImageDigestMirrorSet", "ImageTagMirrorSet", "imageDigestMirrors", "imageTagMirrors").Replace(idms("tags", "quay.io/Acme/tools", "registry.fleet.example/acme/tools", "")),
	}
	for i := 1; i <= 4; i++ {
		site := fmt.Sprintf("sites/site-%04d/", i)
		mirror := fmt.Sprintf("registry.site-%04d.example/apps", i)
		if i == 3 {
			mirror = "registry.site-0003.example/Apps" // upper case: an error in this site only
		}
		files[site+"kustomization.yaml"] = "resources: [../../base]\npatches:\n- path: mirror.yaml\n  target: {kind: ImageDigestMirrorSet}\n"
		files[site+"mirror.yaml"] = fmt.Sprintf("- op: add\n  path: /spec/imageDigestMirrors/-\n  value:\n    source: quay.io/site-%04d/apps\n    mirrors:\n    - %s\n", i, mirror)
	}
	dir := testtree.Write(t, files)
	git := gittest.Runner(t, dir)
	git("init", "-q")
	git("add", ".")
	git("commit", "-qm", "fleet")
	return dir
}

type fleetFinding struct {
	Rule     string   `json:"rule"`
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
	Clusters []string `json:"clusters"`
}

func lintJSON(t *testing.T, args ...string) []string {
	t.Helper()
	r := mlRun(t, "", append([]string{"lint", "--config", "none", "--format", "json"}, args...)...)
	if r.code == exitUsage {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var doc struct {
		Findings []fleetFinding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	var out []string
	for _, f := range doc.Findings {
		out = append(out, fmt.Sprintf("%s %s:%d:%d %v", f.Rule, f.File, f.Line, f.Column, f.Clusters))
	}
	slices.Sort(out)
	return out
}

// TestPreCommitSameAsFullRun: linting a committed file (the pre-commit
// path: only the clusters reading it are loaded, other files prefiltered)
// gives the findings of the full run that concern that file, for a site
// patch, the base, a plain layout cluster, a file of the tree's own
// cluster, and a file that does not parse.
func TestPreCommitSameAsFullRun(t *testing.T) {
	dir := fleetRepo(t)
	t.Chdir(dir)
	full := lintJSON(t, ".")
	if len(full) == 0 {
		t.Fatal("the fleet has findings")
	}
	for _, file := range []string{"sites/site-0003/mirror.yaml", "base/release.yaml", "clusters/hub/idms.yaml", "apps/mirrors/tags.yaml", "apps/web/broken.yaml", "sites/site-0001/kustomization.yaml"} {
		var want []string
		for _, f := range full {
			if strings.Contains(f, " "+file+":") {
				want = append(want, f)
			}
		}
		got := lintJSON(t, file)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\ngot:\n%s\nwant (the full run's):\n%s", file, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestClusterNamesStable: inside a repository, cluster names are paths
// from its top level, wherever mirrorlint runs and whatever path it is
// given; a wrong --cluster gets the nearest names.
func TestClusterNamesStable(t *testing.T) {
	dir := fleetRepo(t)
	names := func(wd string, args ...string) string {
		t.Helper()
		t.Chdir(filepath.Join(dir, wd))
		r := mlRun(t, "", append([]string{"clusters", "--config", "none", "--format", "json"}, args...)...)
		if r.code != exitOK {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		var doc struct {
			Clusters []clusterInfo `json:"clusters"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range doc.Clusters {
			out = append(out, c.Name)
		}
		return strings.Join(out, " ")
	}
	all := names(".", ".")
	// The loose files under apps/ are the cluster of their top-level
	// directory (apps), not of the whole tree: leftovers of different
	// top-level directories are never one cluster.
	if want := "sites/site-0001 sites/site-0002 sites/site-0003 sites/site-0004 apps clusters/edge clusters/hub"; all != want {
		t.Errorf("from the top: %s, want %s", all, want)
	}
	if got := names("sites", "."); got != "sites/site-0001 sites/site-0002 sites/site-0003 sites/site-0004" {
		t.Errorf("from sites/: %s", got)
	}
	if got := names("clusters/hub", "."); got != "clusters/hub" {
		t.Errorf("from clusters/hub: %s", got)
	}
	t.Chdir(dir)
	r := mlRun(t, "", "lint", "--config", "none", "--cluster", "sites/site-003", ".")
	if r.code != exitUsage || !strings.Contains(r.stderr, `did you mean sites/site-0003, sites/site-0001`) || strings.Contains(r.stderr, "clusters/hub") {
		t.Errorf("--cluster with a typo: exit %d\n%s", r.code, r.stderr)
	}
}
