package impact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/project"
)

const sharedDrain = "../../../shared/corpus/public/drain"

// TestDrainCorpus runs the comparison the way `mirrorlint diff` does on
// every drain pair: the pairs copied into testdata always, the shared
// corpus when it is there.
func TestDrainCorpus(t *testing.T) {
	t.Run("testdata", func(t *testing.T) { runDrainCorpus(t, "testdata/drain") })
	t.Run("shared", func(t *testing.T) {
		if _, err := os.Stat(sharedDrain); err != nil {
			t.Skipf("shared corpus not available: %v", err)
		}
		runDrainCorpus(t, sharedDrain)
	})
}

func runDrainCorpus(t *testing.T, root string) {
	cases, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	total, ok := 0, 0
	for _, c := range cases {
		dir := filepath.Join(root, c.Name())
		want, err := os.ReadFile(filepath.Join(dir, "expected", "verdict.txt"))
		if err != nil {
			continue
		}
		total++
		pass := t.Run(c.Name(), func(t *testing.T) {
			res := compareDirs(t, dir)
			got := "safe"
			if res.Drain {
				got = "drain"
			}
			if w := strings.TrimSpace(string(want)); got != w {
				t.Errorf("verdict %s, want %s; reasons: %+v", got, w, res.Reasons)
			}
			if len(res.Refused) > 0 {
				t.Errorf("refused: %+v", res.Refused)
			}
			for _, side := range []string{"old", "new"} {
				exp, err := os.ReadFile(filepath.Join(dir, "expected", side+"-registries.conf"))
				if err != nil {
					continue
				}
				f := res.Files[RegistriesConfPath]
				got := f.Old
				if side == "new" {
					got = f.New
				}
				if got == nil || *got != string(exp) {
					t.Errorf("%s registries.conf differs from expected", side)
				}
			}
		})
		if pass {
			ok++
		}
	}
	t.Logf("%s: %d/%d drain verdicts as expected", root, ok, total)
}

func compareDirs(t *testing.T, dir string) *Result {
	t.Helper()
	release, _ := os.ReadFile(filepath.Join(dir, "release-image.txt"))
	open := func(side string) *project.Project {
		p, _, cleanup, err := OpenSide(project.Options{
			Paths:        []string{filepath.Join(dir, side, "manifests")},
			ConfigPath:   "none",
			ReleaseImage: strings.TrimSpace(string(release)),
		})
		if err != nil {
			t.Fatalf("%s: %v", side, err)
		}
		t.Cleanup(cleanup)
		return p
	}
	return Compare(open("old"), open("new"), Options{})
}
