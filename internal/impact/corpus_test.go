package impact

import (
	"os"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/corpus"
)

// TestDrainCorpus runs the comparison the way `mirrorlint diff` does on
// every drain pair: the pairs copied into testdata always, the shared
// corpus when it is there.
func TestDrainCorpus(t *testing.T) {
	corpus.RunBoth(t, "testdata/drain", corpus.SharedDrain, runDrainCorpus)
}

func runDrainCorpus(t *testing.T, root string) {
	cases, err := corpus.Cases(root, "expected/verdict.txt")
	if err != nil {
		t.Fatal(err)
	}
	// Without this an empty or misplaced copy would pass on nothing.
	if len(cases) == 0 {
		t.Fatalf("no drain pairs under %s", root)
	}
	ok := 0
	for _, c := range cases {
		pass := t.Run(c.Name, func(t *testing.T) {
			res := compareDirs(t, c)
			got := "safe"
			if res.Drain {
				got = "drain"
			}
			if w := corpus.ReadTrim(c.Expected("verdict.txt")); got != w {
				t.Errorf("verdict %s, want %s; reasons: %+v", got, w, res.Reasons)
			}
			if len(res.Refused) > 0 {
				t.Errorf("refused: %+v", res.Refused)
			}
			for _, side := range []string{"old", "new"} {
				exp, err := os.ReadFile(c.Expected(side + "-registries.conf"))
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
	t.Logf("%s: %d/%d drain verdicts as expected", root, ok, len(cases))
}

func compareDirs(t *testing.T, c corpus.Case) *Result {
	t.Helper()
	// The drain corpus models clusters without a ClusterImagePolicy (see corpus.CorpusVersion).
	return compareAt(t, c, corpus.CorpusVersion.String())
}
