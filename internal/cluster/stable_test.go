package cluster_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/pipeline"
	"github.com/mirrorlint/mirrorlint/internal/policy"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const hubIDMS = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: release
spec:
  imageDigestMirrors:
  - source: quay.io/openshift-release-dev/ocp-release
    mirrorSourcePolicy: NeverContactSource
    mirrors:
    - mirror.hub.example/ocp/release
`

const edgeIDMS = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: release
spec:
  imageDigestMirrors:
  - source: quay.io/openshift-release-dev/ocp-release
    mirrors:
    - mirror.edge.example/ocp/release
`

// hubImage blocks the registry that clusters/hub/mirrors/ mirrors into:
// a real mirror-in-blocked-scope warning, across two subdirectories.
const hubImage = `apiVersion: config.openshift.io/v1
kind: Image
metadata:
  name: cluster
spec:
  registrySources:
    blockedRegistries:
    - blocked.example
`

const hubBlockedMirror = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: apps
spec:
  imageDigestMirrors:
  - source: quay.io/acme/app
    mirrors:
    - blocked.example/acme/app
`

// lintTree discovers root (the repository root too) and lints every
// cluster with the built-in rules and policies: "rule file:line [clusters]"
// per finding, and the clusters with their objects.
func lintTree(t *testing.T, root string, paths ...string) (findings, clusters []string) {
	t.Helper()
	if len(paths) == 0 {
		paths = []string{root}
	}
	res, err := cluster.Discover(cluster.Options{Paths: paths, Root: root})
	if err != nil {
		t.Fatal(err)
	}
	c, err := pipeline.LoadChecks(policy.Options{Builtin: true})
	if err != nil {
		t.Fatal(err)
	}
	e := &check.Engine{Rules: c.Rules, Policies: c.Policies}
	var all [][]check.Finding
	for _, c := range res.Clusters {
		var objs []string
		for _, o := range c.Objects {
			rel, _ := filepath.Rel(root, o.File)
			objs = append(objs, o.Ref()+"@"+filepath.ToSlash(rel))
		}
		clusters = append(clusters, fmt.Sprintf("%s: %s", c.Name, strings.Join(objs, " ")))
		fs, _, err := e.Lint(&cluster.Cluster{Name: c.Name, Objects: c.Objects, Problems: c.Problems, Settings: cluster.Defaults()})
		if err != nil {
			t.Fatal(err)
		}
		if r := c.Patches(); r != nil {
			check.Move(fs, r.Place)
		}
		all = append(all, fs)
	}
	for _, f := range check.Merge(all...) {
		rel, _ := filepath.Rel(root, f.File)
		findings = append(findings, fmt.Sprintf("%s %s:%d:%d %v", f.Rule, filepath.ToSlash(rel), f.Line, f.Column, f.Clusters))
	}
	return findings, clusters
}

func hasRule(fs []string, rule string) bool {
	return slices.ContainsFunc(fs, func(f string) bool { return strings.HasPrefix(f, rule+" ") })
}

// TestLayoutClustersWithoutKustomization: with no kustomization anywhere,
// clusters/hub and clusters/edge are two clusters, so one source with
// NeverContactSource in hub and unset in edge is no conflict; hub's
// subdirectories are one cluster, so the mirror in hub/mirrors/ that
// hub/config/ blocks is still reported.
func TestLayoutClustersWithoutKustomization(t *testing.T) {
	root := t.TempDir()
	testtree.WriteAt(t, root, map[string]string{
		"clusters/hub/idms.yaml":          hubIDMS,
		"clusters/hub/config/image.yaml":  hubImage,
		"clusters/hub/mirrors/apps.yaml":  hubBlockedMirror,
		"clusters/edge/idms.yaml":         edgeIDMS,
		"clusters/edge/apps/deploy.yaml":  "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: app}\n",
		"README.yaml":                     "title: fleet\n",
		"docs/examples/not-mirrors.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
		"clusters/edge/mirrors/tags.yaml": strings.ReplaceAll(strings.ReplaceAll(edgeIDMS, "ImageDigestMirrorSet", "ImageTagMirrorSet"), "imageDigestMirrors", "imageTagMirrors"),
	})
	findings, clusters := lintTree(t, root)
	want := []string{
		"clusters/edge: ImageDigestMirrorSet/release@clusters/edge/idms.yaml ImageTagMirrorSet/release@clusters/edge/mirrors/tags.yaml",
		"clusters/hub: Image/cluster@clusters/hub/config/image.yaml ImageDigestMirrorSet/release@clusters/hub/idms.yaml ImageDigestMirrorSet/apps@clusters/hub/mirrors/apps.yaml",
	}
	if strings.Join(clusters, "\n") != strings.Join(want, "\n") {
		t.Errorf("clusters:\n%s\nwant:\n%s", strings.Join(clusters, "\n"), strings.Join(want, "\n"))
	}
	if hasRule(findings, "conflicting-source-policy") {
		t.Errorf("hub and edge are two clusters, yet: %v", findings)
	}
	if !slices.Contains(findings, "mirror-in-blocked-scope clusters/hub/mirrors/apps.yaml:9:7 [clusters/hub]") {
		t.Errorf("no mirror-in-blocked-scope on hub's mirror: %v", findings)
	}
}

// TestUnrelatedKustomizationChangesNothing: adding a kustomization
// elsewhere (apps/x) adds its cluster and changes no other: the findings
// of clusters/hub and clusters/edge are the same before and after.
func TestUnrelatedKustomizationChangesNothing(t *testing.T) {
	root := t.TempDir()
	testtree.WriteAt(t, root, map[string]string{
		"clusters/hub/config/image.yaml": hubImage,
		"clusters/hub/mirrors/apps.yaml": hubBlockedMirror,
		"clusters/hub/mirrors/idms.yaml": hubIDMS,
		"clusters/edge/idms.yaml":        edgeIDMS,
	})
	before, clustersBefore := lintTree(t, root)
	testtree.WriteAt(t, root, map[string]string{
		"apps/x/kustomization.yaml": "resources: [deploy.yaml]\n",
		"apps/x/deploy.yaml":        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: x}\n",
		"apps/y/service.yaml":       "apiVersion: v1\nkind: Service\nmetadata: {name: y}\n",
	})
	after, clustersAfter := lintTree(t, root)
	if strings.Join(before, "\n") != strings.Join(after, "\n") {
		t.Errorf("findings changed:\nbefore:\n%s\nafter:\n%s", strings.Join(before, "\n"), strings.Join(after, "\n"))
	}
	wantAfter := append([]string{"apps/x: "}, clustersBefore...)
	if strings.Join(clustersAfter, "\n") != strings.Join(wantAfter, "\n") {
		t.Errorf("clusters:\n%s\nwant:\n%s", strings.Join(clustersAfter, "\n"), strings.Join(wantAfter, "\n"))
	}
	if !hasRule(after, "mirror-in-blocked-scope") || hasRule(after, "conflicting-source-policy") {
		t.Errorf("findings: %v", after)
	}
}

// TestLayoutsTeamsUse: overlays/<name>, sites/<name>, environments/<name>
// and envs/<name> group like clusters/<name>, at any depth; the innermost
// layout directory wins; every other top-level directory (common/) is a
// cluster of its own, and the files at the top are the tree's (".").
func TestLayoutsTeamsUse(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for _, dir := range []string{
		"overlays/prod-east", "overlays/prod-east/extra", "sites/site-0001/policies", "environments/staging",
		"envs/dev/a/b", "environments/prod/clusters/east", "environments/prod/clusters/west/mirrors", "common", ".",
	} {
		name := strings.NewReplacer("/", "-", ".", "top").Replace(dir)
		files[dir+"/idms.yaml"] = strings.Replace(edgeIDMS, "name: release", "name: "+name, 1)
	}
	testtree.WriteAt(t, root, files)
	_, clusters := lintTree(t, root)
	want := []string{
		".: ImageDigestMirrorSet/top@idms.yaml",
		"common: ImageDigestMirrorSet/common@common/idms.yaml",
		"environments/prod/clusters/east: ImageDigestMirrorSet/environments-prod-clusters-east@environments/prod/clusters/east/idms.yaml",
		"environments/prod/clusters/west: ImageDigestMirrorSet/environments-prod-clusters-west-mirrors@environments/prod/clusters/west/mirrors/idms.yaml",
		"environments/staging: ImageDigestMirrorSet/environments-staging@environments/staging/idms.yaml",
		"envs/dev: ImageDigestMirrorSet/envs-dev-a-b@envs/dev/a/b/idms.yaml",
		"overlays/prod-east: ImageDigestMirrorSet/overlays-prod-east-extra@overlays/prod-east/extra/idms.yaml ImageDigestMirrorSet/overlays-prod-east@overlays/prod-east/idms.yaml",
		"sites/site-0001: ImageDigestMirrorSet/sites-site-0001-policies@sites/site-0001/policies/idms.yaml",
	}
	if strings.Join(clusters, "\n") != strings.Join(want, "\n") {
		t.Errorf("clusters:\n%s\nwant:\n%s", strings.Join(clusters, "\n"), strings.Join(want, "\n"))
	}
}

// TestNamesRelativeToRoot: a cluster has the same name whether the tree
// is given from the root or from inside it, and whatever the working
// directory.
func TestNamesRelativeToRoot(t *testing.T) {
	root := t.TempDir()
	testtree.WriteAt(t, root, map[string]string{
		"base/kustomization.yaml":               "resources: [idms.yaml]\n",
		"base/idms.yaml":                        edgeIDMS,
		"overlays/prod-east/kustomization.yaml": "resources: [../../base]\n",
		"clusters/hub/idms.yaml":                hubIDMS,
	})
	names := func(paths ...string) string {
		res, err := cluster.Find(cluster.Options{Paths: paths, Root: root})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, c := range res.Clusters {
			out = append(out, c.Name)
		}
		return strings.Join(out, " ")
	}
	if got := names(root); got != "overlays/prod-east clusters/hub" {
		t.Errorf("from the root: %s", got)
	}
	if got := names(filepath.Join(root, "overlays")); got != "overlays/prod-east" {
		t.Errorf("from overlays/: %s", got)
	}
	t.Chdir(filepath.Join(root, "overlays"))
	if got := names("."); got != "overlays/prod-east" {
		t.Errorf("run in overlays/: %s", got)
	}
	if got := names("prod-east", "../clusters/hub"); got != "overlays/prod-east clusters/hub" {
		t.Errorf("two arguments: %s", got)
	}
}

// TestDirNameRelativeToRoot: the directory of a file is named as a
// cluster rooted there would be (the name the clusters an input creates
// are told apart by): from the repository root whatever the argument and
// the working directory, from the argument without a root.
func TestDirNameRelativeToRoot(t *testing.T) {
	root := t.TempDir()
	testtree.WriteAt(t, root, map[string]string{
		"clusters/hub/idms.yaml":      hubIDMS,
		"clusters/hub/day0/ic/x.yaml": edgeIDMS,
		"top.yaml":                    edgeIDMS,
	})
	dirName := func(rootDir, file string, paths ...string) string {
		t.Helper()
		res, err := cluster.Find(cluster.Options{Paths: paths, Root: rootDir})
		if err != nil {
			t.Fatal(err)
		}
		return res.DirName(file)
	}
	deep := filepath.Join(root, "clusters", "hub", "day0", "ic", "x.yaml")
	if got := dirName(root, deep, root); got != "clusters/hub/day0/ic" {
		t.Errorf("from the root: %s", got)
	}
	if got := dirName(root, filepath.Join(root, "top.yaml"), root); got != "." {
		t.Errorf("the root's own file: %s", got)
	}
	t.Chdir(filepath.Join(root, "clusters"))
	if got := dirName(root, filepath.Join("hub", "day0", "ic", "x.yaml"), "hub"); got != "clusters/hub/day0/ic" {
		t.Errorf("run in clusters/ on hub: %s", got)
	}
	if got := dirName("", filepath.Join("hub", "day0", "ic", "x.yaml"), "hub"); got != "day0/ic" {
		t.Errorf("no repository, on hub: %s", got)
	}
}

// TestDisagreeingTopLevelNotice: the loose files of one top-level
// directory are one cluster; when its directories disagree, Discover says
// so once, with the clusters: entry that splits them and what declaring
// it means for the other clusters found. Top-level directories that
// disagree with each other are separate clusters already and say nothing.
func TestDisagreeingTopLevelNotice(t *testing.T) {
	root := t.TempDir()
	testtree.WriteAt(t, root, map[string]string{
		"refs/hub/idms.yaml":   hubIDMS,
		"refs/edge/idms.yaml":  edgeIDMS,
		"refs/shared/itm.yaml": strings.ReplaceAll(strings.ReplaceAll(edgeIDMS, "ImageDigestMirrorSet", "ImageTagMirrorSet"), "ocp-release", "tools"),
		"refs/common.yaml":     strings.Replace(edgeIDMS, "ocp-release", "other", 1),
		// Disagrees with refs/hub, but lies under another top-level
		// directory: its own cluster, no notice.
		"ci/idms.yaml": edgeIDMS,
		// A kustomization: the tree is not one plain directory of
		// manifests, so its loose files are grouped per top-level
		// directory.
		"overlays/prod/kustomization.yaml": "resources: [idms.yaml]\n",
		"overlays/prod/idms.yaml":          hubIDMS,
	})
	res, err := cluster.Discover(cluster.Options{Paths: []string{root}, Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Clusters) != 3 || len(res.Notices) != 1 {
		t.Fatalf("%d clusters, notices %q", len(res.Clusters), res.Notices)
	}
	n := res.Notices[0]
	for _, want := range []string{
		"the files of " + filepath.ToSlash(filepath.Join(root, "refs")) + "/ that no kustomization or cluster layout reaches are linted as one cluster (refs), but its directories disagree",
		"ImageDigestMirrorSet/release is written differently in ",
		"clusters: [{name: refs/edge, paths: [refs/edge, refs/common.yaml]}, {name: refs/hub, paths: [refs/hub, refs/common.yaml]}, {name: refs/shared, paths: [refs/shared, refs/common.yaml]}]",
		"declared clusters replace the ones found, so list the 2 other clusters of the tree there too",
	} {
		if !strings.Contains(n, want) {
			t.Errorf("notice %q lacks %q", n, want)
		}
	}
	if strings.Contains(n, "\n") {
		t.Errorf("the notice is one line: %q", n)
	}
	// Without the kustomization and ci/, the plain tree is one unnamed
	// cluster whose only top-level directory is refs/: nothing to split.
	for _, d := range []string{"ci", "overlays"} {
		if err := os.RemoveAll(filepath.Join(root, d)); err != nil {
			t.Fatal(err)
		}
	}
	res, err = cluster.Discover(cluster.Options{Paths: []string{root}, Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Clusters) != 1 || res.Clusters[0].Name != "" || len(res.Notices) != 0 {
		t.Errorf("a plain tree: %d clusters, notices %q", len(res.Clusters), res.Notices)
	}
	// Directories that agree say nothing.
	if err := os.WriteFile(filepath.Join(root, "refs/edge/idms.yaml"), []byte(hubIDMS), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err = cluster.Discover(cluster.Options{Paths: []string{root}, Root: root})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Notices) != 0 {
		t.Errorf("notices for agreeing directories: %q", res.Notices)
	}
}
