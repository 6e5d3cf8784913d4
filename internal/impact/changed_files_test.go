package impact

import (
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/corpus"
	"github.com/mirrorlint/mirrorlint/internal/project"
)

// TestChangedFilesMatchCorpus checks the model of the node files against
// every drain pair's expected/changed-files.txt (produced by MCO): the set
// of node files the comparison says changed (registries.conf, the search
// drop-in, policy.json) must be exactly the listed set ("(none)" for no
// change), and a pair changing only policy.json must reload, not do
// nothing and not drain.
func TestChangedFilesMatchCorpus(t *testing.T) {
	corpus.RunBoth(t, "testdata/drain", corpus.SharedDrain, runChangedFiles)
}

func runChangedFiles(t *testing.T, root string) {
	cases, err := corpus.Cases(root, "expected/changed-files.txt")
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) == 0 {
		t.Fatalf("no drain pairs with changed-files.txt under %s", root)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			var want []string
			for _, line := range strings.Split(corpus.ReadTrim(c.Expected("changed-files.txt")), "\n") {
				if line = strings.TrimSpace(line); line != "" && line != "(none)" {
					want = append(want, line)
				}
			}
			sort.Strings(want)
			res := Compare(openCorpusSide(t, c, "old"), openCorpusSide(t, c, "new"), Options{})
			var got []string
			for path, f := range res.Files {
				if f.Changed {
					got = append(got, path)
				}
			}
			sort.Strings(got)
			if strings.Join(got, " ") != strings.Join(want, " ") {
				t.Errorf("changed node files %q, MCO changes %q (%s)", got, want, corpus.ReadTrim(c.Dir, "description.txt"))
			}
			if len(want) == 1 && want[0] == PolicyJSONPath && res.Action != ActionReload {
				t.Errorf("a policy.json-only change: action %q, want %q", res.Action, ActionReload)
			}
		})
	}
}

func openCorpusSide(t *testing.T, c corpus.Case, side string) *project.Project {
	t.Helper()
	p, _, cleanup, err := OpenSide(project.Options{
		Paths:        []string{filepath.Join(c.Dir, side, "manifests")},
		ConfigPath:   "none",
		ReleaseImage: c.ReleaseImage(),
		// The drain corpus models clusters without a ClusterImagePolicy (see corpus.CorpusVersion).
		OpenShiftVersion: corpus.CorpusVersion.String(),
	})
	if err != nil {
		t.Fatalf("%s: %v", side, err)
	}
	t.Cleanup(cleanup)
	if probs := p.Problems(); len(probs) > 0 {
		t.Fatalf("%s does not load: %v", side, probs)
	}
	return p
}
