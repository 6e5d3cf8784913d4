package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// nodePoolConfigType: see docs/nodepool-config-type.md; the check itself is in package inputs.
var nodePoolConfigType = inputRule(inputs.RuleNodePoolConfigType, check.Error, check.OriginTool,
	"NodePool spec.config holding a kind the NodePool controller refuses (ImageTagMirrorSet).")
