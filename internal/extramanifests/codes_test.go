package extramanifests_test

import (
	"slices"
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/extramanifests"
)

// Each problem code is reported under the rule of its name (package check
// cannot import this one, which discovery imports).
func TestCodesHaveRules(t *testing.T) {
	for _, code := range []string{extramanifests.CodeNotLinted, extramanifests.CodeRefused, extramanifests.CodeDropped} {
		if !slices.ContainsFunc(check.ProblemRules(), func(r *check.Rule) bool { return r.ID == code }) {
			t.Errorf("no problem rule %s", code)
		}
	}
}
