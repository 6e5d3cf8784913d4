package kustomization

import (
	"os"
	"path/filepath"
	"testing"
)

// The entry whose source selects kind/name is found inline and in a file
// of its own (path:); a source of another kind or name is not it.
func TestReplacementFor(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"kustomization.yaml": "resources: [a.yaml]\nreplacements:\n- source: {kind: Secret, name: ca}\n  targets: []\n- path: r.yaml\n- source: {name: any-kind}\n  targets: []\n",
		"r.yaml":             "source:\n  kind: ConfigMap\n  name: truststore\n  fieldPath: data.password\ntargets: []\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	kf := Parse(filepath.Join(dir, "kustomization.yaml"))
	read := func(abs string) []byte { b, _ := os.ReadFile(abs); return b }
	for _, c := range []struct {
		kind, name string
		line       int
	}{{"ConfigMap", "truststore", 5}, {"Secret", "ca", 3}, {"Service", "any-kind", 6}, {"ConfigMap", "ca", 0}, {"Secret", "nothing", 0}} {
		line, _, ok := kf.ReplacementFor(c.kind, c.name, read)
		if ok != (c.line > 0) || line != c.line {
			t.Errorf("%s/%s: line %d, %v; want %d", c.kind, c.name, line, ok, c.line)
		}
	}
}
