package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// hubMirrorV1Format: see docs/hub-mirror-v1-format.md; the check itself is in package inputs.
var hubMirrorV1Format = inputRule(inputs.RuleHubV1Format, check.Warning, check.OriginSurprise,
	"AgentServiceConfig mirrorRegistryRef: a registries.conf without [[registry]] tables, silently ignored by assisted-service.")
