package build

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/kustomization"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/safefs"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
	"github.com/mirrorlint/mirrorlint/internal/ztp"
)

// A PolicyGenerator's manifest directory is built as the generator builds
// it, and only there: a base outside the repository is never read (the
// build stops, as mirrorlint's own doing), a remote base is never fetched
// nor a Helm chart inflated (not built at all), and an external plugin
// fails the build as it fails the generator's, which runs none either.
func TestPolicyManifestsBuildLikeTheGenerator(t *testing.T) {
	top := t.TempDir()
	testtree.WriteAt(t, top, map[string]string{
		"outside/kustomization.yaml": "resources: [idms.yaml]\n",
		"outside/idms.yaml":          "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: secret\n",
	})
	repo := filepath.Join(top, "repo")
	testtree.WriteAt(t, repo, map[string]string{
		"escapes/kustomization.yaml": "resources:\n  - ../../outside\n",
		"remote/kustomization.yaml":  "resources:\n  - https://github.com/example/repo//dir?ref=v1\n",
		"helm/kustomization.yaml":    "helmCharts:\n  - name: chart\n    repo: https://charts.example.com\n",
		"plugin/kustomization.yaml":  "generators:\n  - ksops.yaml\n",
		"plugin/ksops.yaml":          "apiVersion: viaduct.ai/v1\nkind: ksops\nmetadata:\n  name: secrets\nfiles: [a.enc.yaml]\n",
		"fine/kustomization.yaml":    "namePrefix: pre-\nresources: [idms.yaml]\n",
		"fine/idms.yaml":             "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata:\n  name: idms\nspec:\n  imageDigestMirrors:\n  - source: quay.io/a\n",
	})
	build := PolicyManifests(kustomization.NewGraph(), manifest.Options{Access: safefs.New(0, repo)})
	for _, tc := range []struct {
		dir     string
		notRun  string // a *ztp.NotBuilt saying this
		failing string // kustomize's error saying this
	}{
		{dir: "escapes", notRun: "outside the repository"},
		{dir: "remote", notRun: `resources entry "https://github.com/example/repo//dir?ref=v1"`},
		{dir: "helm", notRun: "inflates a Helm chart"},
		{dir: "plugin", failing: "external plugins disabled"},
	} {
		k, err := build(filepath.Join(repo, tc.dir))
		var nb *ztp.NotBuilt
		switch {
		case tc.notRun != "" && (!errors.As(err, &nb) || !strings.Contains(err.Error(), tc.notRun)):
			t.Errorf("%s: %v, want it not built saying %q", tc.dir, err, tc.notRun)
		case tc.failing != "" && (err == nil || errors.As(err, &nb) || !strings.Contains(err.Error(), tc.failing)):
			t.Errorf("%s: %v, want kustomize failing with %q", tc.dir, err, tc.failing)
		}
		if len(k.Objects) != 0 {
			t.Errorf("%s: built %d objects", tc.dir, len(k.Objects))
		}
		for _, f := range k.Files {
			if !strings.HasPrefix(f.Name, repo+string(filepath.Separator)) {
				t.Errorf("%s: read %s, outside the repository", tc.dir, f.Name)
			}
		}
	}
	// What builds is what kustomize builds, placed in its file, and the
	// files read are given with their text.
	k, err := build(filepath.Join(repo, "fine"))
	if err != nil || len(k.Objects) != 1 {
		t.Fatalf("%+v %v", k, err)
	}
	o := k.Objects[0]
	md := kustomization.MapValue(o.Node, "metadata")
	name := kustomization.MapValue(md, "name")
	if name.Value != "pre-idms" || o.Files[name] != filepath.Join(repo, "fine/idms.yaml") || name.Line != 4 || name.Column != 9 {
		t.Errorf("name %q at %s:%d:%d", name.Value, o.Files[name], name.Line, name.Column)
	}
	if kustomization.MapValue(md, "annotations") != nil {
		t.Errorf("the origin annotations the build asks for are left in the object")
	}
	if len(k.Files) != 2 || !strings.HasSuffix(k.Files[0].Name, "idms.yaml") || !strings.HasPrefix(string(k.Files[1].Data), "namePrefix: pre-") {
		t.Errorf("files read: %+v", k.Files)
	}
}
