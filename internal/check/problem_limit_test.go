package check

import (
	"testing"

	"github.com/mirrorlint/mirrorlint/internal/manifest"
)

// A load stopped at a limit is a limit-exceeded error, not an unreadable
// manifest: the file is fine, the run's budget is spent.
func TestLoadLimitProblemIsALimitFinding(t *testing.T) {
	r, sev := problemRule(manifest.Problem{Code: "limit-exceeded"})
	if r != LimitRule || sev != Error {
		t.Errorf("got %s %v, want limit-exceeded error", r.ID, sev)
	}
}
