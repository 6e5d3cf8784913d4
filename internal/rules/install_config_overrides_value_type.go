package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// installConfigOverridesValueType: see docs/install-config-overrides-value-type.md; the check itself is in package inputs.
var installConfigOverridesValueType = inputRule(inputs.RuleOverridesValueType, check.Error, check.OriginTool,
	"installConfigOverrides (or a hand-written AgentClusterInstall's install-config-overrides annotation) with a value of the wrong type for assisted-service's install-config (\"fips\": \"yes\", a list for proxy, a quoted hostPrefix), which its decode refuses.")
