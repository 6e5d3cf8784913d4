package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// installConfigImageContentSources: see docs/install-config-image-content-sources.md; the check itself is in package inputs.
// The ImageContentSourcePolicies the list creates sit at its key, where
// icsp-deprecated would repeat this.
var installConfigImageContentSources = covering(inputRule(inputs.RuleInstallDeprecated, check.Warning, check.OriginSurprise,
	"install-config.yaml: imageContentSources is deprecated in favour of imageDigestSources."),
	"icsp-deprecated")
