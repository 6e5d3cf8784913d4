package main

import (
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// The unnamed cluster (the whole tree, here beside the cluster a hub's
// AgentServiceConfig creates) is selected by --cluster ., and an unknown
// name counts it among the clusters.
func TestUnnamedClusterSelectedByDot(t *testing.T) {
	files := testtree.Hub("hub", map[string]string{"quay.io/acme/hub": "hub.example.com/acme/hub"})
	delete(files, "hub/kustomization.yaml") // a plain tree: its one cluster is the unnamed one
	files["idms.yaml"] = "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: apps\nspec:\n  imageDigestMirrors:\n  - source: quay.io/acme/app\n    mirrors: [tree.example.com/acme/app]\n"
	dir := testtree.Write(t, files)
	r := mlRun(t, "", "render", "--config", "none", dir)
	if r.code != exitUsage || !strings.Contains(r.stderr, "(. for the unnamed one") {
		t.Errorf("render of two clusters: exit %d, want 2 and how to name the unnamed one\n%s", r.code, r.stderr)
	}
	r = mlRun(t, "", "render", "--config", "none", "--cluster", ".", dir)
	if r.code != exitOK || !strings.Contains(r.stdout, "tree.example.com/acme/app") || strings.Contains(r.stdout, "hub.example.com") {
		t.Errorf("render --cluster .: exit %d, want 0 and the tree's mirror alone\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	r = mlRun(t, "", "render", "--config", "none", "--cluster", "nope", dir)
	if r.code != exitUsage || !strings.Contains(r.stderr, "(2 clusters;") {
		t.Errorf("render --cluster nope: exit %d, want 2 and both clusters counted\n%s", r.code, r.stderr)
	}
}
