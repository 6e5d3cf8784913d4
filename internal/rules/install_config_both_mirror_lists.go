package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// installConfigBothLists: see docs/install-config-both-mirror-lists.md; the check itself is in package inputs.
var installConfigBothLists = inputRule(inputs.RuleInstallBothLists, check.Error, check.OriginTool,
	"install-config.yaml: imageContentSources and imageDigestSources set together, which openshift-install refuses.")
