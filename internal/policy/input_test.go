package policy

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

func inputJSON(t *testing.T, v ast.Value) map[string]any {
	t.Helper()
	x, err := ast.JSON(v)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(x)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestInputDocument(t *testing.T) {
	t.Parallel()
	in := inputJSON(t, built(t, loadFixture(t, "testdata/manifests")))

	objs := in["objects"].([]any)
	if len(objs) != 2 {
		t.Fatalf("objects: %v", objs)
	}
	o := objs[0].(map[string]any)
	for k, v := range map[string]any{
		"kind": "ImageDigestMirrorSet", "apiVersion": "config.openshift.io/v1", "name": "release",
		"file": filepath.Join("testdata", "manifests", "idms.yaml"), "line": 1.0, "column": 1.0, "doc": 0.0, "known": true, "namespace": "",
	} {
		if o[k] != v {
			t.Errorf("objects[0].%s = %v, want %v", k, o[k], v)
		}
	}
	spec := o["spec"].(map[string]any)
	content := o["content"].(map[string]any)
	if content["kind"] != "ImageDigestMirrorSet" || spec["imageDigestMirrors"] == nil ||
		content["spec"].(map[string]any)["imageDigestMirrors"] == nil || o["metadata"].(map[string]any)["name"] != "release" {
		t.Errorf("content/spec/metadata wrong: %v", o)
	}
	if objs[1].(map[string]any)["line"] != 2.0 { // itms.yaml starts with a comment line
		t.Errorf("objects[1].line = %v", objs[1].(map[string]any)["line"])
	}

	r := in["rendered"].(map[string]any)
	if r["generated"] != true || r["refused"] != false || r["reason"] != "" || !strings.Contains(r["registriesConf"].(string), "[[registry]]") {
		t.Errorf("rendered flags: %v", r)
	}
	if len(r["unqualified-search-registries"].([]any)) == 0 {
		t.Errorf("unqualified-search-registries empty")
	}
	var release map[string]any
	for _, x := range r["registries"].([]any) {
		if reg := x.(map[string]any); reg["prefix"] == "quay.io/openshift-release-dev/ocp-release" {
			release = reg
		}
	}
	if release == nil {
		t.Fatalf("no registry for the release source in %v", r["registries"])
	}
	ms := release["mirrors"].([]any)
	if len(ms) != 2 || ms[0].(map[string]any)["location"] != "registry.acme.example/ocp/release" ||
		ms[0].(map[string]any)["pull-from-mirror"] != "digest-only" || release["blocked"] != false {
		t.Errorf("release registry: %v", release)
	}

	s := in["settings"].(map[string]any)
	if s["openshiftVersion"] != "4.21" || s["version"].(map[string]any)["minor"] != 21.0 || s["version"].(map[string]any)["patch"] != -1.0 {
		t.Errorf("settings: %v", s)
	}
	if in["cluster"].(map[string]any)["name"] != "test" {
		t.Errorf("cluster: %v", in["cluster"])
	}
}

func TestInputDocumentRefused(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, "self.yaml"), `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: self
spec:
  imageDigestMirrors:
  - source: q.io/a
    mirrors: [q.io/a, m.io/a]
    mirrorSourcePolicy: NeverContactSource
`)
	c := loadFixture(t, dir)
	if c.Refusal == nil {
		// MCO refuses a source listed among its own mirrors under
		// NeverContactSource; a renderer that accepts it is the bug.
		t.Fatal("the renderer accepted a NeverContactSource source that is its own mirror")
	}
	r := inputJSON(t, built(t, c))["rendered"].(map[string]any)
	if r["refused"] != true || !strings.Contains(r["reason"].(string), "NeverContactSource") || len(r["registries"].([]any)) != 0 {
		t.Errorf("refused render: %v", r)
	}
	if sub, ok := r["subject"].(map[string]any); !ok || sub["name"] != "self" {
		t.Errorf("subject: %v", r["subject"])
	}
}

// built is buildInput under no budget.
func built(t *testing.T, c *check.Context) ast.Value {
	t.Helper()
	v, ok := buildInput(context.Background(), c, nil, nil)
	if !ok {
		t.Fatal("buildInput stopped without a budget")
	}
	return v
}
