package impact

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/corpus"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// TestNDPCorpus compares both trees of every node-disruption-policy case at
// the case's release, as `mirrorlint diff` does, and checks each expected
// file the case has: the verdict, the daemon's action list and drain
// decision, the changed node files, the policy entry of each, which
// MachineConfiguration was in force and the API server's refusals.
func TestNDPCorpus(t *testing.T) {
	corpus.RunBoth(t, "testdata/ndp", corpus.SharedNDP, runNDPCorpus)
}

func runNDPCorpus(t *testing.T, root string) {
	cases, err := corpus.Cases(root, "expected/verdict.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("no cases under %s", root)
	}
	ok := 0
	for _, c := range cases {
		pass := t.Run(c.Name, func(t *testing.T) {
			res := compareAt(t, c, corpus.ReadTrim(c.Dir, "openshift-version.txt"))
			if len(res.Clusters) != 1 {
				t.Fatalf("clusters %+v, want one", res.Clusters)
			}
			cr := res.Clusters[0]
			check := func(name, got string) {
				t.Helper()
				if want := corpus.ReadTrim(c.Expected(name)); got != want {
					t.Errorf("%s:\ngot\n%s\nwant\n%s", name, got, want)
				}
			}
			check("verdict.txt", res.Action)
			if cr.Policy == nil {
				t.Fatalf("no policy result: %+v", cr)
			}
			check("actions.txt", strings.Join(append(append([]string(nil), res.Actions...), fmt.Sprintf("Drain calculated for node disruption: %t", cr.Drain)), "\n"))
			var changed, matches []string
			for _, m := range cr.Policy.Matches {
				changed = append(changed, m.File)
				entry := m.Path
				if entry == "" {
					entry = "(no policy)"
				}
				matches = append(matches, fmt.Sprintf("%s -> %s: %s", m.File, entry, strings.Join(m.Actions, ", ")))
			}
			check("changed-files.txt", strings.Join(changed, "\n"))
			check("matches.txt", strings.Join(matches, "\n"))
			check("policy-source.txt", strings.Join(cr.Policy.Source, "\n"))
			var rejected []string
			for _, r := range cr.Policy.Rejected {
				rejected = append(rejected, r.Message)
			}
			check("rejected.txt", strings.Join(rejected, "\n"))
		})
		if pass {
			ok++
		}
	}
	t.Logf("%s: %d/%d cases as expected", root, ok, len(cases))
}

// compareAt is compareDirs at a given release.
func compareAt(t *testing.T, c corpus.Case, version string) *Result {
	t.Helper()
	open := func(side string) *project.Project {
		p, _, cleanup, err := OpenSide(project.Options{
			Paths:            []string{filepath.Join(c.Dir, side, "manifests")},
			ConfigPath:       "none",
			ReleaseImage:     c.ReleaseImage(),
			OpenShiftVersion: version,
		})
		if err != nil {
			t.Fatalf("%s: %v", side, err)
		}
		t.Cleanup(cleanup)
		return p
	}
	return Compare(open("old"), open("new"), Options{})
}
