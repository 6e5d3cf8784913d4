package check

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/internal/testtree"
)

// TestCommentsReadOncePerRun: the comments of a file the loader read come
// from the loader, never from Source; a file no object was read from (a
// patch a finding was moved to) is asked of Source once per run, however
// many clusters are settled. The suppressions still apply in every cluster.
func TestCommentsReadOncePerRun(t *testing.T) {
	dir := t.TempDir()
	plain := strings.NewReplacer("name: b", "name: c", "quay.io/b # mirrorlint:ignore every-source vendor registry, known", "quay.io/c").Replace(commentedSource)
	patch := "spec:\n  # mirrorlint:ignore every-source set by the patch\n  source: quay.io/c\n"
	testtree.WriteAt(t, dir, map[string]string{"m.yaml": commentedSource, "n.yaml": plain, "patch.yaml": patch})
	set, err := manifest.Load([]string{filepath.Join(dir, "m.yaml"), filepath.Join(dir, "n.yaml")}, manifest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Objects) != 2 {
		t.Fatalf("%d objects, want 2", len(set.Objects))
	}
	patchFile := filepath.Join(dir, "patch.yaml")
	reg, _ := NewRegistry(everySource, UnusedSuppressionRule, InvalidSuppressionRule)
	asked := map[string]int{}
	e := &Engine{Rules: reg,
		Source: func(file string) ([]byte, error) { asked[filepath.Base(file)]++; return os.ReadFile(file) },
		Relocate: func(_ *cluster.Cluster, fs []Finding) []Finding {
			for i := range fs {
				if filepath.Base(fs[i].File) == "n.yaml" {
					fs[i].Position = manifest.Position{File: patchFile, Line: 3, Column: 11}
				}
			}
			return fs
		}}
	for range 3 {
		fs, _, err := e.Lint(&cluster.Cluster{Objects: set.Objects})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range fs {
			s := filepath.Base(f.File) + ":" + f.Message
			if f.Suppressed != nil {
				s += " suppressed by " + f.Suppressed.Kind + ": " + f.Suppressed.Reason
			}
			got = append(got, s)
		}
		want := "m.yaml:source quay.io/b suppressed by comment: vendor registry, known\n" +
			"patch.yaml:source quay.io/c suppressed by comment: set by the patch"
		if g := strings.Join(got, "\n"); g != want {
			t.Errorf("findings:\n%s\nwant:\n%s", g, want)
		}
	}
	if extra := e.Finish(); len(extra) != 0 {
		t.Errorf("Finish: %+v, want nothing", extra)
	}
	if len(asked) != 1 || asked["patch.yaml"] != 1 {
		t.Errorf("Source asked for %v, want patch.yaml once", asked)
	}
}
