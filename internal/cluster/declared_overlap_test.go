package cluster

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/config"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// TestDeclaredBaseAndOverlay: a declared cluster naming a base and the
// overlay built on it (the README's example) gets the overlay's patched
// objects whatever the order of its paths: the base is part of the
// overlay's build and is not read a second time, unpatched.
func TestDeclaredBaseAndOverlay(t *testing.T) {
	root := copyTree(t, "testdata/gitops")
	testtree.WriteFile(t, filepath.Join(root, "plain/extra.yaml"), `apiVersion: config.openshift.io/v1
kind: ImageDigestMirrorSet
metadata:
  name: extra
spec:
  imageDigestMirrors:
    - source: registry.example.com/extra
      mirrors:
        - mirror.corp.example/extra
`)
	for _, paths := range [][]string{
		{"base", "overlays/prod"},
		{"overlays/prod", "base"},
		{"base/idms-release.yaml", "overlays/prod"},
		{"overlays/prod", "base/idms-release.yaml", "plain"},
	} {
		t.Run(strings.Join(paths, ","), func(t *testing.T) {
			cfg := &config.Config{Path: filepath.Join(root, ".mirrorlint.yaml"), Clusters: []config.Cluster{{Name: "prod", Paths: paths}}}
			res, err := Discover(Options{Config: cfg})
			if err != nil {
				t.Fatal(err)
			}
			c := byName(t, res, "prod")
			var names []string
			for _, o := range c.Objects {
				names = append(names, o.Ref())
				if o.Name == "release" {
					if got := o.IDMS.Spec.ImageDigestMirrors[0].MirrorSourcePolicy; got != "NeverContactSource" {
						t.Errorf("release: mirrorSourcePolicy %q, want the overlay's patch NeverContactSource", got)
					}
				}
			}
			want := "ImageDigestMirrorSet/release ImageDigestMirrorSet/apps"
			if len(paths) == 3 {
				want += " ImageDigestMirrorSet/extra"
			}
			if got := strings.Join(names, " "); got != want {
				t.Errorf("objects %s, want %s", got, want)
			}
			if strings.Join(c.Paths, " ") == "" || len(c.Paths) != len(paths) {
				t.Errorf("paths %v: every declared path is still listed", c.Paths)
			}
			if got := lintCluster(t, c); !slices.Contains(got, filepath.ToSlash(filepath.Join(root, "overlays/prod/never-contact-source.yaml"))+":4:10: policy NeverContactSource") {
				t.Errorf("policy finding not on the patch:\n%s", strings.Join(got, "\n"))
			}
		})
	}
}
