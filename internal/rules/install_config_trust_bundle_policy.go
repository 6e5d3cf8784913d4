package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// installConfigTrustBundlePolicy: see docs/install-config-trust-bundle-policy.md; the check itself is in package inputs.
var installConfigTrustBundlePolicy = inputRule(inputs.RuleInstallTrustPolicy, check.Error, check.OriginTool,
	"install-config.yaml: additionalTrustBundlePolicy other than Proxyonly or Always.")
