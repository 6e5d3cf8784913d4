package kustomization

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// LeftOut names the remote additions (a generator item reading a URL
// among them) and the Helm charts, nothing else
// (a remote patch is no addition: the build refuses it); Strip drops
// exactly those items and keeps every other entry and field.
func TestLeftOutAndStrip(t *testing.T) {
	dir := t.TempDir()
	text := `resources:
- local.yaml
- https://example.com/deploy.yaml
bases:
- git@github.com:example/repo.git//base
components:
- ../component
- github.com/example/catalog/c?ref=v1
helmCharts:
- name: registry
  repo: https://charts.example.com
patchesStrategicMerge:
- https://example.com/patch.yaml
helmGlobals:
  chartHome: charts
configMapGenerator:
- name: dashboard
  files:
  - https://example.com/dashboard.json
- name: local
  files:
  - local.json
secretGenerator:
- name: creds
  envs:
  - creds.env
`
	path := filepath.Join(dir, "kustomization.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	kf := Parse(path)
	var got []string
	for _, e := range kf.LeftOut() {
		got = append(got, e.Field+" "+e.Value)
	}
	want := "resources https://example.com/deploy.yaml|bases git@github.com:example/repo.git//base|components github.com/example/catalog/c?ref=v1|helmCharts registry|configMapGenerator https://example.com/dashboard.json"
	if strings.Join(got, "|") != want {
		t.Errorf("LeftOut = %q, want %q", strings.Join(got, "|"), want)
	}
	out := string(Strip(kf, []byte(text)))
	for _, gone := range []string{"deploy.yaml", "git@github.com", "catalog/c", "charts.example.com", "dashboard"} {
		if strings.Contains(out, gone) {
			t.Errorf("Strip kept %q:\n%s", gone, out)
		}
	}
	for _, kept := range []string{"local.yaml", "../component", "https://example.com/patch.yaml", "chartHome: charts", "bases: []", "helmCharts: []", "local.json", "creds.env"} {
		if !strings.Contains(out, kept) {
			t.Errorf("Strip dropped %q:\n%s", kept, out)
		}
	}
}
