package drain

import (
	"os"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/corpus"
	"github.com/mirrorlint/mirrorlint/render"
)

// TestCorpus renders both sides of every drain pair and checks the verdict.
func TestCorpus(t *testing.T) {
	corpus.RunBoth(t, "testdata", corpus.SharedDrain, runCorpus)
}

func runCorpus(t *testing.T, root string) {
	cases, err := corpus.Cases(root, "expected/verdict.txt")
	if err != nil {
		t.Fatal(err)
	}
	matched := 0
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			side := func(name string) *render.Output {
				in, err := c.SideInput(name)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				out, err := render.Render(in)
				if err != nil {
					t.Fatalf("%s: render: %v", name, err)
				}
				if want, err := os.ReadFile(c.Expected(name + "-registries.conf")); err == nil && string(want) != string(out.RegistriesConf) {
					t.Fatalf("%s registries.conf differs from expected:\n%s\n---\n%s", name, out.RegistriesConf, want)
				}
				return out
			}
			v := Compare(side("old"), side("new"))
			want := corpus.ReadTrim(c.Expected("verdict.txt"))
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
	t.Logf("%s: %d pairs, %d verdicts matched", root, len(cases), matched)
	if len(cases) == 0 {
		t.Fatalf("no pairs under %s", root)
	}
}
