package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/cluster"
	"path/filepath"
	"reflect"
	"sync"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// TestRulesConcurrentOnOneContext runs every built-in rule at the same time
// on one context per fixture and compares with running them one after the
// other: rules share the context (its render, plan and memos) and must
// only read it. `make test` runs this under the race detector.
func TestRulesConcurrentOnOneContext(t *testing.T) {
	t.Parallel()
	dirs, err := filepath.Glob("testdata/*/*")
	if err != nil {
		t.Fatal(err)
	}
	all := All()
	checked := 0
	for _, dir := range dirs {
		set, err := manifest.Load([]string{dir}, manifest.Options{Unmodelled: manifest.UnmodelledImages})
		if err != nil {
			continue // not a fixture directory
		}
		checked++
		cl := &cluster.Cluster{Objects: set.Objects, Problems: set.Problems, Settings: readSettings(t, dir)}
		want := make([][]check.Finding, len(all))
		seq := check.NewContext(cl)
		for i, r := range all {
			if want[i], err = seq.Run(r, r.Severity); err != nil {
				t.Fatalf("%s: %v", dir, err)
			}
		}
		got := make([][]check.Finding, len(all))
		shared := check.NewContext(cl)
		var wg sync.WaitGroup
		for i, r := range all {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var err error
				if got[i], err = shared.Run(r, r.Severity); err != nil {
					t.Errorf("%s: %v", dir, err)
				}
			}()
		}
		wg.Wait()
		for i, r := range all {
			if !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("%s: %s reports differently when the rules run at once:\n got %v\nwant %v", dir, r.ID, got[i], want[i])
			}
		}
	}
	if checked < len(all) {
		t.Fatalf("only %d fixtures loaded for %d rules", checked, len(all))
	}
}
