package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// installConfigDuplicateMirror: see docs/install-config-duplicate-mirror.md; the check itself is in package inputs.
// It says, in the installer's terms, what mirror-duplicate reports on the
// ImageDigestMirrorSet the installer writes, at the same install-config line
// (or the same place inside a ZTP site's installConfigOverrides).
var installConfigDuplicateMirror = covering(inputRule(inputs.RuleInstallDuplicate, check.Error, check.OriginAPI,
	"install-config.yaml or a ZTP spoke's installConfigOverrides: a mirror listed twice in one imageDigestSources entry; the ImageDigestMirrorSet the installer writes is refused."),
	"mirror-duplicate")
