package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// hubMirrorNotForSpokes: see docs/hub-mirror-not-for-spokes.md; the check itself is in package inputs.
var hubMirrorNotForSpokes = inputRule(inputs.RuleHubPullFromMirror, check.Warning, check.OriginSurprise,
	"AgentServiceConfig mirrorRegistryRef: mirrors that never reach a spoke (tag-only, or a pull-from-mirror assisted-service drops).")
