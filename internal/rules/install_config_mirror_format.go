package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// installConfigMirrorFormat: see docs/install-config-mirror-format.md; the check itself is in package inputs.
var installConfigMirrorFormat = inputRule(inputs.RuleInstallMirrorFormat, check.Error, check.OriginTool,
	"install-config.yaml: a source or mirror openshift-install refuses (no registry host, upper case, tag or digest, wildcard).")
