package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// installConfigOverridesJSON: see docs/install-config-overrides-json.md; the check itself is in package inputs.
var installConfigOverridesJSON = inputRule(inputs.RuleOverridesJSON, check.Error, check.OriginTool,
	"SiteConfig/ClusterInstance installConfigOverrides, or a hand-written AgentClusterInstall's install-config-overrides annotation, that is not a JSON object.")
