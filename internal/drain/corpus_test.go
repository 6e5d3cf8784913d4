package drain

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/render"
)

const sharedCorpus = "../../../shared/corpus/public/drain"

// TestCorpus renders both sides of every drain pair and checks the verdict.
func TestCorpus(t *testing.T) {
	t.Run("testdata", func(t *testing.T) { runCorpus(t, "testdata") })
	t.Run("shared", func(t *testing.T) {
		if _, err := os.Stat(sharedCorpus); err != nil {
			t.Skipf("shared corpus not available at %s: %v", sharedCorpus, err)
		}
		runCorpus(t, sharedCorpus)
	})
}

func runCorpus(t *testing.T, root string) {
	cases, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	n, matched := 0, 0
	for _, c := range cases {
		if !c.IsDir() {
			continue
		}
		dir := filepath.Join(root, c.Name())
		if _, err := os.Stat(filepath.Join(dir, "expected", "verdict.txt")); err != nil {
			continue
		}
		n++
		t.Run(c.Name(), func(t *testing.T) {
			release := readTrim(filepath.Join(dir, "release-image.txt"))
			side := func(name string) *render.Output {
				in, err := loadTree(filepath.Join(dir, name, "manifests"))
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				in.ReleaseImage = release
				out, err := render.Render(in)
				if err != nil {
					t.Fatalf("%s: render: %v", name, err)
				}
				if want, err := os.ReadFile(filepath.Join(dir, "expected", name+"-registries.conf")); err == nil && string(want) != string(out.RegistriesConf) {
					t.Fatalf("%s registries.conf differs from expected:\n%s\n---\n%s", name, out.RegistriesConf, want)
				}
				return out
			}
			v := Compare(side("old"), side("new"))
			want := readTrim(filepath.Join(dir, "expected", "verdict.txt"))
			got := "safe"
			if v.Drain {
				got = "drain"
			}
			if got != want {
				t.Fatalf("verdict %s, want %s; reasons: %+v", got, want, v.Reasons)
			}
			if v.Drain && v.Reboot {
				t.Errorf("no corpus pair changes the search drop-in, yet Reboot is set: %+v", v.Reasons)
			}
			if v.Drain {
				found := false
				for _, r := range v.Reasons {
					found = found || r.Drain
				}
				if !found {
					t.Errorf("drain without a draining reason")
				}
			}
			matched++
		})
	}
	t.Logf("%s: %d pairs, %d verdicts matched", root, n, matched)
	if n == 0 {
		t.Fatalf("no pairs under %s", root)
	}
}
