package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const blockedImage = `apiVersion: config.openshift.io/v1
kind: Image
metadata:
  name: cluster
spec:
  registrySources:
    blockedRegistries:
    - %s
`

func imageBlocking(scope string) string { return strings.Replace(blockedImage, "%s", scope, 1) }

// Blocked and allowed registries end up in /etc/containers/policy.json:
// diff shows its change, which only reloads CRI-O, and render -o writes it
// next to registries.conf (and removes a stale one).
func TestPolicyJSONInDiffAndRender(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{
		"old/image.yaml": imageBlocking("ghcr.io"),
		"new/image.yaml": imageBlocking("ghcr.io/acme/app"),
		"none/idms.yaml": idmsWith("mirror-a.example.com/acme"),
	})
	oldDir, newDir, none := filepath.Join(dir, "old"), filepath.Join(dir, "new"), filepath.Join(dir, "none")

	r := mlRun(t, "", "diff", "--config", "none", "--format", "json", oldDir, newDir)
	var out struct {
		Action string `json:"action"`
		Files  map[string]struct {
			Changed   bool   `json:"changed"`
			NewSource string `json:"newSource"`
			Diff      string `json:"diff"`
		} `json:"files"`
		Reasons []struct {
			File  string `json:"file"`
			Drain bool   `json:"drain"`
		} `json:"reasons"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || r.code != exitOK {
		t.Fatalf("exit %d, %v\n%s%s", r.code, err, r.stdout, r.stderr)
	}
	pj, ok := out.Files["/etc/containers/policy.json"]
	if !ok || !pj.Changed || pj.NewSource != "generated" || !strings.Contains(pj.Diff, `+      "ghcr.io/acme/app": [`) {
		t.Errorf("policy.json file entry: %+v (present %t)", pj, ok)
	}
	found := false
	for _, rs := range out.Reasons {
		if rs.File == "/etc/containers/policy.json" {
			found = true
			if rs.Drain {
				t.Error("a policy.json change must not drain")
			}
		}
	}
	if !found {
		t.Errorf("no policy.json reason: %+v", out.Reasons)
	}

	// The text form prints the unified diff and the reason.
	r = mlRun(t, "", "diff", "--config", "none", oldDir, newDir)
	if !strings.Contains(r.stdout, "--- a/etc/containers/policy.json") || !strings.Contains(r.stdout, "/etc/containers/policy.json: policy.json changed") {
		t.Errorf("text diff:\n%s", r.stdout)
	}

	outDir := t.TempDir()
	if r := mlRun(t, "", "render", "--config", "none", "-o", outDir, newDir); r.code != exitOK {
		t.Fatalf("render -o: exit %d %s", r.code, r.stderr)
	}
	got, err := os.ReadFile(filepath.Join(outDir, "policy.json"))
	if err != nil || !json.Valid(got) || !strings.Contains(string(got), `"ghcr.io/acme/app"`) {
		t.Fatalf("render -o policy.json: %v\n%s", err, got)
	}
	// 4.20 writes no policy.json without blocked or allowed registries
	// (4.21 always does: the default ClusterImagePolicy).
	if r := mlRun(t, "", "render", "--config", "none", "--openshift-version", "4.20", "-o", outDir, none); r.code != exitOK {
		t.Fatalf("render -o: exit %d %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(outDir, "policy.json")); !os.IsNotExist(err) {
		t.Errorf("a stale policy.json was kept for a tree without blocked or allowed registries (%v)", err)
	}
	r = mlRun(t, "", "render", "--config", "none", "--openshift-version", "4.21", "-o", outDir, none)
	if r.code != exitOK || !strings.Contains(r.stderr, `note: default ClusterImagePolicy "openshift" assumed: OpenShift 4.21 installs it`) {
		t.Fatalf("render -o 4.21: exit %d %s", r.code, r.stderr)
	}
	got, err = os.ReadFile(filepath.Join(outDir, "policy.json"))
	if err != nil || !strings.Contains(string(got), `"quay.io/openshift-release-dev/ocp-release": [`) {
		t.Errorf("4.21 policy.json lacks the default policy's scope: %v\n%s", err, got)
	}
	if _, err := os.Stat(filepath.Join(outDir, "registries.d", "sigstore-registries.yaml")); err != nil {
		t.Errorf("4.21: no sigstore-registries.yaml: %v", err)
	}
}
