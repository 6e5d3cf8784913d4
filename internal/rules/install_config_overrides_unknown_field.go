package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// installConfigOverridesUnknownField: see docs/install-config-overrides-unknown-field.md; the check itself is in package inputs.
var installConfigOverridesUnknownField = inputRule(inputs.RuleOverridesUnknown, check.Error, check.OriginTool,
	"installConfigOverrides mirror entries with a field assisted-service's strict decode refuses (sourcePolicy).")
