package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// installConfigOverridesReplacesHub: see docs/install-config-overrides-replaces-hub-mirrors.md; the check itself is in package inputs.
var installConfigOverridesReplacesHub = inputRule(inputs.RuleOverridesReplaces, check.Warning, check.OriginSurprise,
	"installConfigOverrides imageDigestSources that drops mirrors the hub gives every spoke.")
