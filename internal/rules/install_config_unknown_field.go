package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// installConfigUnknownField: see docs/install-config-unknown-field.md; the check itself is in package inputs.
var installConfigUnknownField = inputRule(inputs.RuleInstallUnknownField, check.Warning, check.OriginTool,
	"install-config.yaml, or a ZTP spoke's overrides: a mirror setting under a key openshift-install does not know (mirrorSourcePolicy in an imageDigestSources entry, an ImageDigestMirrorSet's list at the top, imageDigestSources before 4.14), which it drops with a warning.")
