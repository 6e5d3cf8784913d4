package project

import (
	"fmt"

	"path/filepath"
	"slices"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/corpus"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// inputObjects, which skips what discovery read, gives what inputs.Load
// of every file gives: on each tree of the inputs corpus (which create
// clusters), on trees that create none, with each Unmodelled setting and
// on the pre-commit path (a prefilter, only one cluster read).
func TestInputObjectsAsLoad(t *testing.T) {
	root := corpus.SharedRoot + "/corpus/public/inputs"
	dirs, _ := filepath.Glob(filepath.Join(root, "*", "manifests"))
	if len(dirs) == 0 {
		t.Skip("inputs corpus not present")
	}
	plain := t.TempDir()
	testtree.WriteAt(t, plain, map[string]string{
		"a/idms.yaml":          "apiVersion: config.openshift.io/v1\nkind: ImageDigestMirrorSet\nmetadata: {name: a}\nspec: {imageDigestMirrors: [{source: a.io/x, mirrors: [m.io/x]}]}\n",
		"a/deploy.yaml":        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec: {template: {spec: {containers: [{name: c, image: a.io/x/y:1}]}}}\n",
		"b/kustomization.yaml": "resources: [cm.yaml]\n",
		"b/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: v}\n",
		"b/loose.yaml":         "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: loose}\n",
	})
	dirs = append(dirs, plain)
	needs := manifest.NeedKinds(string(manifest.KindIDMS))
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*", "*.yaml"))
		for _, u := range []manifest.Unmodelled{manifest.UnmodelledNone, manifest.UnmodelledImages, manifest.UnmodelledAll} {
			runs := []Options{{Paths: []string{dir}, Config: &config.Config{}, Unmodelled: u}}
			if len(files) > 0 {
				only := manifest.RealPath(files[0])
				runs = append(runs, Options{Paths: []string{dir}, Config: &config.Config{}, Unmodelled: u, Only: []string{only}, Needs: &needs})
			}
			for _, opts := range runs {
				name := fmt.Sprintf("%s unmodelled=%d only=%v", dir, u, opts.Only)
				p, err := Open(opts)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				lo := loadOptions(opts, p.Config)
				got := objectKeys(inputObjects(p.Discovery, lo))
				want := objectKeys(inputs.Load(p.Discovery.Set.Files, lo))
				if !slices.Equal(got, want) {
					t.Errorf("%s:\ngot  %v\nwant %v", name, got, want)
				}
			}
		}
	}
}

func objectKeys(objs []*manifest.Object) []string {
	var out []string
	for _, o := range objs {
		out = append(out, fmt.Sprintf("%s#%d/%d %s %s", o.File, o.Doc, o.Item, o.Kind, o.Name))
	}
	slices.Sort(out)
	return out
}
