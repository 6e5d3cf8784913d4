package safefs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// FuzzKustomization builds arbitrary kustomization files over the access
// layer with a loopback server named in them: no input may make a build
// reach it, and the layer's own checks never panic. kustomize itself may
// panic on odd input (its plugin configuration does); that is recovered
// here as the build does, since the property under test is the fetch.
func FuzzKustomization(f *testing.F) {
	srv, requests := loopback(f)
	for _, k := range fetchingKustomizations("SERVER") {
		f.Add(k)
	}
	seeds, _ := filepath.Glob("testdata/kustomizations/*.yaml")
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, kust string) {
		kust = strings.ReplaceAll(kust, "SERVER", srv.URL)
		dir := t.TempDir()
		testtree.WriteFile(t, filepath.Join(dir, "cm.yaml"), configMap)
		testtree.WriteFile(t, filepath.Join(dir, "kustomization.yaml"), kust)
		_ = CheckKustomization("kustomization.yaml", []byte(kust))
		_ = CheckYAML("kustomization.yaml", []byte(kust))
		before := requests.Load()
		func() {
			defer func() { _ = recover() }()
			fs := NewKustomizeFS(New(0, dir))
			_ = fs.Explain(buildOver(fs, dir))
		}()
		if n := requests.Load() - before; n != 0 {
			t.Fatalf("the build made %d requests for:\n%s", n, kust)
		}
	})
}
