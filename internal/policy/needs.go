package policy

import (
	"github.com/mirrorlint/mirrorlint/internal/manifest"
	"github.com/mirrorlint/mirrorlint/policies"
)

// Needs is what the loaded policies read from input.objects: the library's
// declared kinds, or every kind as soon as one of the team's own packages
// is loaded (ReadsAnyKind: a policy may read any object it is given).
func (e *Engine) Needs() manifest.Needs {
	if e.ReadsAnyKind() {
		return manifest.NeedAll()
	}
	return manifest.NeedKinds(policies.Reads...)
}
