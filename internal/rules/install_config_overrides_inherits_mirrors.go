package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// installConfigOverridesInherits: see docs/install-config-overrides-inherits-mirrors.md; the check itself is in package inputs.
var installConfigOverridesInherits = inputRule(inputs.RuleOverridesInherits, check.Warning, check.OriginSurprise,
	"installConfigOverrides (or install-config-overrides annotation) entry without mirrors or source, which keeps the hub entry's at the same index.")
