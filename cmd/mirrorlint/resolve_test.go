package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

const resolveTree = `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: release
spec:
  imageDigestMirrors:
  - source: quay.io/openshift-release-dev/ocp-release
    mirrors:
    - mirror.example.com/ocp/release
    mirrorSourcePolicy: NeverContactSource
`

func TestResolveCommand(t *testing.T) {
	t.Parallel()
	dir := testtree.Write(t, map[string]string{"idms.yaml": resolveTree})
	dg := "@sha256:" + strings.Repeat("ab", 32)

	r := mlRun(t, "", "resolve", "quay.io/openshift-release-dev/ocp-release"+dg, dir)
	if r.code != exitOK || !strings.Contains(r.stdout, "1. mirror  mirror.example.com/ocp/release"+dg) || !strings.Contains(r.stdout, "BLOCKED") {
		t.Errorf("digest: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = mlRun(t, "", "resolve", "--format", "json", "quay.io/openshift-release-dev/ocp-release:4.16.0", dir)
	var out struct {
		Fails   bool
		Sources []struct {
			Skipped bool
			Kind    string
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || r.code != exitOK {
		t.Fatalf("json: exit %d %v\n%s", r.code, err, r.stderr)
	}
	if !out.Fails || len(out.Sources) != 2 || !out.Sources[0].Skipped {
		t.Errorf("a tag pull under NeverContactSource must fail: %+v", out)
	}

	bad := testtree.Write(t, map[string]string{"idms.yaml": strings.Replace(resolveTree, "quay.io/openshift-release-dev/ocp-release", "quay.io/foo bar", 1)})
	if r := mlRun(t, "", "resolve", "quay.io/foo/bar:1", bad); r.code != exitFindings {
		t.Errorf("refused tree: exit %d", r.code)
	}
	for _, args := range [][]string{{"resolve"}, {"resolve", "Not A Reference", dir}, {"resolve", "--format", "yaml", "nginx", dir}} {
		if r := mlRun(t, "", args...); r.code != exitUsage {
			t.Errorf("%v: exit %d, want 2", args, r.code)
		}
	}
}

// A kustomization that does not build leaves its cluster empty: resolve
// must not answer for an empty tree.
func TestResolveRefusesAnUnbuildableKustomization(t *testing.T) {
	t.Parallel()
	tree := testtree.Write(t, map[string]string{"kustomization.yaml": "resources: [missing.yaml]\n"})
	r := mlRun(t, "", "resolve", "--config", "none", "quay.io/a/b:1", tree)
	if r.code != exitUsage || !strings.Contains(r.stderr, "kustomization.yaml:") {
		t.Fatalf("exit %d, stderr %q", r.code, r.stderr)
	}
}
