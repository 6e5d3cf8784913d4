package main

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const gitopsFixture = "../../internal/cluster/testdata/gitops"

// fixtureCopy copies the gitops fixture outside any git repository and
// makes it the working directory: cluster names are then relative to it.
// (Inside a repository they are relative to its top level; see
// TestClusterNamesStable.)
func fixtureCopy(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(gitopsFixture)); err != nil {
		t.Fatal(err)
	}
	t.Chdir(dir)
}

func TestClustersText(t *testing.T) {
	fixtureCopy(t)
	r := mlRun(t, "", "clusters", "--config", "none", ".")
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	want := `3 clusters

overlays/dev
  source:   kustomization: top-level kustomization: no other kustomization references it
  paths:    overlays/dev
  objects:  2 (1 ImageContentSourcePolicy, 1 ImageDigestMirrorSet)
  inputs:   5 files
  settings: openshift 4.21
  policy:   default ClusterImagePolicy "openshift" assumed: OpenShift 4.21 installs it on every self-managed cluster (scope quay.io/openshift-release-dev/ocp-release, Red Hat's release key); it is not in the tree

overlays/prod
  source:   kustomization: top-level kustomization: no other kustomization references it
  paths:    overlays/prod
  objects:  2 (2 ImageDigestMirrorSet)
  inputs:   5 files
  settings: openshift 4.21
  policy:   default ClusterImagePolicy "openshift" assumed: OpenShift 4.21 installs it on every self-managed cluster (scope quay.io/openshift-release-dev/ocp-release, Red Hat's release key); it is not in the tree

clusters/lab
  source:   plain directory: files under clusters/lab that no kustomization reaches (each directory in clusters/ is a cluster)
  paths:    clusters/lab
  objects:  2 (1 Image, 1 ImageDigestMirrorSet)
  inputs:   2 files
  settings: openshift 4.21
  policy:   default ClusterImagePolicy "openshift" assumed: OpenShift 4.21 installs it on every self-managed cluster (scope quay.io/openshift-release-dev/ocp-release, Red Hat's release key); it is not in the tree
`
	// The default version moves with releases; compare the rest.
	got := r.stdout
	if v := strings.Index(got, "openshift "); v >= 0 {
		ver := strings.Fields(got[v+len("openshift "):])[0]
		want = strings.ReplaceAll(want, "openshift 4.21", "openshift "+ver)
		want = strings.ReplaceAll(want, "OpenShift 4.21", "OpenShift "+ver)
	}
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestClustersJSON(t *testing.T) {
	fixtureCopy(t)
	r := mlRun(t, "", "clusters", "--config", "none", "--format", "json", "--openshift-version", "4.14", ".")
	if r.code != exitOK {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var doc struct {
		Clusters []clusterInfo `json:"clusters"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
		t.Fatalf("%v\n%s", err, r.stdout)
	}
	var got []string
	for _, c := range doc.Clusters {
		got = append(got, c.Name+"="+c.Source+"/"+c.OpenShiftVersion)
	}
	want := "overlays/dev=kustomization/4.14 overlays/prod=kustomization/4.14 clusters/lab=plain directory/4.14"
	if strings.Join(got, " ") != want {
		t.Errorf("got %v, want %s", got, want)
	}
	prod := doc.Clusters[1]
	wantInputs := []string{"base/idms-release.yaml", "base/kustomization.yaml", "overlays/prod/idms-apps.yaml",
		"overlays/prod/kustomization.yaml", "overlays/prod/never-contact-source.yaml"}
	for i, in := range prod.Inputs {
		if i >= len(wantInputs) || in != wantInputs[i] {
			t.Errorf("prod inputs %v, want %v under the fixture", prod.Inputs, wantInputs)
			break
		}
	}
	if prod.Kinds["ImageDigestMirrorSet"] != 2 || len(prod.Problems) != 0 {
		t.Errorf("prod: %+v", prod)
	}
}

// TestClustersBrokenAndSelect: a broken overlay lists its positioned
// problem, with and without --build; --cluster picks one cluster; render
// still writes the others.
func TestClustersBrokenAndSelect(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"base/kustomization.yaml": "resources: [idms.yaml]\n",
		"base/idms.yaml": `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: base
spec:
  imageDigestMirrors:
    - source: quay.io/a
      mirrors: [mirror.example/a]
`,
		"overlays/good/kustomization.yaml": "resources:\n  - ../../base\n",
		"overlays/bad/kustomization.yaml":  "resources:\n  - ../../base\n  - missing.yaml\n",
	})
	// Without building, the missing entry is found in the kustomization;
	// --build runs kustomize and shows its own failure, at the same entry.
	r := mlRun(t, "", "clusters", "--config", "none", dir)
	if r.code != exitOK || !strings.Contains(r.stdout, `overlays/bad/kustomization.yaml:3:5: resources entry "missing.yaml" does not exist`) {
		t.Errorf("exit %d, stdout:\n%s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	r = mlRun(t, "", "clusters", "--config", "none", "--build", dir)
	if r.code != exitOK || !strings.Contains(r.stdout, "overlays/bad/kustomization.yaml:3:5: resources entry \"missing.yaml\" does not exist, so kustomize cannot build this cluster") {
		t.Errorf("--build: exit %d, stdout:\n%s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	r = mlRun(t, "", "clusters", "--config", "none", "--cluster", "overlays/good", "--format", "json", dir)
	if r.code != exitOK || strings.Count(r.stdout, `"name"`) != 1 {
		t.Errorf("--cluster: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	out := t.TempDir()
	r = mlRun(t, "", "render", "--config", "none", "--cluster", "overlays/good", "-o", out, dir)
	if r.code != exitOK {
		t.Errorf("render of the good overlay: exit %d: %s", r.code, r.stderr)
	}
}
