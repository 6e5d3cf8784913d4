package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// installConfigMirrorFormat: see docs/install-config-mirror-format.md; the check itself is in package inputs.
// On a ZTP spoke the value also reaches the ImageDigestMirrorSet the
// installer would write, where the format rules would say it again at the
// value's own place inside the installConfigOverrides string.
var installConfigMirrorFormat = covering(inputRule(inputs.RuleInstallMirrorFormat, check.Error, check.OriginTool,
	"install-config.yaml: a source or mirror openshift-install refuses (no registry host, upper case, tag or digest, wildcard)."),
	"mirror-format", "source-format", "repository-lowercase")
