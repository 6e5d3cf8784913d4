package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// nodePoolConfigConfigMap: see docs/nodepool-config-configmap.md; the check itself is in package inputs.
var nodePoolConfigConfigMap = inputRule(inputs.RuleNodePoolConfigMap, check.Error, check.OriginTool,
	"NodePool spec.config naming a ConfigMap without the key config.")
