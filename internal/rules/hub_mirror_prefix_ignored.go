package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// hubMirrorPrefixIgnored: see docs/hub-mirror-prefix-ignored.md; the check itself is in package inputs.
var hubMirrorPrefixIgnored = inputRule(inputs.RuleHubPrefixIgnored, check.Warning, check.OriginSurprise,
	"AgentServiceConfig mirrorRegistryRef: a [[registry]] prefix, which assisted-service ignores for spokes.")
