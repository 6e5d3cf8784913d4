package rules

import (
	"slices"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// TestRulesDeclareReads: every built-in rule says which kinds it reads, so
// the registry's needs are known; a rule without a declaration would turn
// the pre-commit prefilter off (conservative, but silently slow).
func TestRulesDeclareReads(t *testing.T) {
	t.Parallel()
	for _, r := range All() {
		if r.Reads == nil {
			t.Errorf("%s declares no Reads: write Reads in its rule literal", r.ID)
		}
		for _, k := range r.Reads {
			if !manifest.KeepsAs(k, manifest.UnmodelledImages) {
				t.Errorf("%s reads %s, which the loader does not keep", r.ID, k)
			}
		}
		for _, k := range r.Judges {
			if !slices.Contains(r.Reads, k) {
				t.Errorf("%s judges %s, which it does not read: add it to Reads", r.ID, k)
			}
		}
	}
	if n := Registry().Needs(); n.All() {
		t.Errorf("the built-in registry needs every kind: %v", n.Kinds())
	}
}
