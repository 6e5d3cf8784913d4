package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// installConfigOverridesReplacesHub: see docs/install-config-overrides-replaces-hub-mirrors.md; the check itself is in package inputs.
var installConfigOverridesReplacesHub = inputRule(inputs.RuleOverridesReplaces, check.Warning, check.OriginSurprise,
	"installConfigOverrides (or an AgentClusterInstall's install-config-overrides annotation) imageDigestSources (imageContentSources before 4.14) that drops mirrors the hub (or its mirrorRegistryRef) gives the spoke.")
