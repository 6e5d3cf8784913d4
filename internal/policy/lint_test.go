package policy

import (
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"path/filepath"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// Policy findings go through the lint engine like Go rules': the config
// changes their severity and an inline comment suppresses them.
func TestThroughLintEngine(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	testtree.WriteFile(t, filepath.Join(dir, "idms.yaml"), `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: release
spec:
  imageDigestMirrors:
  - source: quay.io/a
    mirrors:
    - elsewhere.example/a
    - elsewhere.example/b # mirrorlint:ignore acme.mirrors/allowed-registry vendor mirror, approved
`)
	pe := mustLoad(t, Options{Dirs: []string{"testdata/policies"}})
	reg, err := check.NewRegistry(pe.Rules()...)
	if err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{Rules: map[string]string{"acme.mirrors/allowed-registry": "warning", "acme.mirrors/info": "off"}}
	if err := check.CheckConfig(cfg, reg, pe.Known); err != nil {
		t.Fatal(err)
	}
	set, err := manifest.Load([]string{dir}, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	eng := &check.Engine{Rules: reg, Config: cfg, Policies: pe}
	fs, _, err := eng.Lint(&cluster.Cluster{Objects: set.Objects, Settings: cluster.Defaults()})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 {
		t.Fatalf("want 2 findings (one suppressed), got:\n%s", dump(fs))
	}
	for _, f := range fs {
		if f.Rule != "acme.mirrors/allowed-registry" || f.Severity != check.Warning {
			t.Errorf("unexpected %s", dump([]check.Finding{f}))
		}
		switch f.Line {
		case 9:
			if f.Suppressed != nil || f.Column != 7 {
				t.Errorf("line 9: %+v", f)
			}
		case 10:
			if f.Suppressed == nil || f.Suppressed.Kind != "comment" {
				t.Errorf("line 10 not suppressed by its comment: %+v", f)
			}
		default:
			t.Errorf("unexpected line %d", f.Line)
		}
	}
}
