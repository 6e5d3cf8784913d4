package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// hostedClusterDuplicateMirror: see docs/hosted-cluster-duplicate-mirror.md; the check itself is in package inputs.
var hostedClusterDuplicateMirror = inputRule(inputs.RuleHostedDuplicate, check.Error, check.OriginAPI,
	"HostedCluster spec.imageContentSources: a mirror listed twice in one entry, refused by the management cluster.")
