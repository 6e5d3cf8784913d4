package rules

import (
	"encoding/json"
	"os"
	"slices"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/scopes"
)

// TestEnclosingIsExactlyIsNested: the candidates enclosing(x, false) lists
// are exactly the scopes that contain x under scopes.IsNested, so a rule
// looking them up needs no second IsNested check. Every sub and super of
// the shared nesting table is tried against every other.
func TestEnclosingIsExactlyIsNested(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../scopes/testdata/nesting.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows []struct{ Sub, Super string }
	if err := json.Unmarshal(data, &rows); err != nil {
		t.Fatal(err)
	}
	var all []string
	for _, r := range rows {
		all = append(all, r.Sub, r.Super)
	}
	for _, x := range all {
		cands := enclosing(x, false)
		strict := enclosing(x, true)
		for _, s := range all {
			if got, want := slices.Contains(cands, s), scopes.IsNested(x, s); got != want {
				t.Errorf("%q in enclosing(%q) = %v, IsNested = %v", s, x, got, want)
			}
			if got, want := slices.Contains(strict, s), s != x && scopes.IsNested(x, s); got != want {
				t.Errorf("%q in strict enclosing(%q) = %v, want %v", s, x, got, want)
			}
		}
	}
}
