package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// installConfigDuplicateMirror: see docs/install-config-duplicate-mirror.md; the check itself is in package inputs.
var installConfigDuplicateMirror = inputRule(inputs.RuleInstallDuplicate, check.Error, check.OriginAPI,
	"install-config.yaml: a mirror listed twice in one entry; the ImageDigestMirrorSet the installer writes is refused.")
