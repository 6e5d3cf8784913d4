package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// installConfigConflictingPolicy: see docs/install-config-conflicting-source-policy.md; the check itself is in package inputs.
var installConfigConflictingPolicy = inputRule(inputs.RuleInstallPolicyConflict, check.Error, check.OriginNode,
	"install-config.yaml: one source with two sourcePolicy values, refused on the bootstrap node and by MCO.")
