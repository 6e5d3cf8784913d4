package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// installConfigOverridesUnknownField: see docs/install-config-overrides-unknown-field.md; the check itself is in package inputs.
var installConfigOverridesUnknownField = inputRule(inputs.RuleOverridesUnknown, check.Error, check.OriginTool,
	"installConfigOverrides (or a hand-written AgentClusterInstall's install-config-overrides annotation) with a key assisted-service's strict decode of the whole document refuses (sourcePolicy in a mirror entry, a misspelt or unsupported field at any depth).")
