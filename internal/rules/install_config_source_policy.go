package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// installConfigSourcePolicy: see docs/install-config-source-policy.md; the check itself is in package inputs.
var installConfigSourcePolicy = inputRule(inputs.RuleInstallSourcePolicy, check.Error, check.OriginTool,
	"install-config.yaml: sourcePolicy without mirrors, with an unknown value, or before the installer reads it (4.21).")
