package randcluster

import (
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/render"
)

// TestClustersLoadAndRender checks that every generated cluster loads
// without a problem and that both verdicts occur, with signature policies
// taking part, for each release.
func TestClustersLoadAndRender(t *testing.T) {
	dir := t.TempDir()
	for _, minor := range []int{19, 20, 21} {
		r := rand.New(rand.NewPCG(7, uint64(minor)))
		var refused, withPolicies int
		for i := 0; i < 200; i++ {
			c := Generate(r, Options{Minor: minor})
			file := filepath.Join(dir, "tree.yaml")
			if err := os.WriteFile(file, []byte(c.Manifests), 0o644); err != nil {
				t.Fatal(err)
			}
			set, err := manifest.Load([]string{file}, manifest.Options{Workers: 1})
			if err != nil {
				t.Fatal(err)
			}
			if errs := manifest.Errors(set.Problems); len(errs) > 0 {
				t.Fatalf("4.%d case %d does not load: %v\n%s", minor, i, errs, c.Manifests)
			}
			in := check.BuildInput(set.Objects, cluster.Settings{Version: render.Version{Minor: minor, Patch: -1}, ReleaseImage: c.ReleaseImage})
			if len(in.ClusterImagePolicies)+len(in.ImagePolicies) > 0 {
				withPolicies++
			}
			if _, err := render.Render(in.Input); err != nil {
				refused++
			}
		}
		if refused == 0 || refused == 200 || withPolicies < 100 {
			t.Errorf("4.%d: %d of 200 refused, %d with policies: the vocabulary no longer covers both verdicts", minor, refused, withPolicies)
		}
		t.Logf("4.%d: %d of 200 refused, %d with signature policies", minor, refused, withPolicies)
	}
}
