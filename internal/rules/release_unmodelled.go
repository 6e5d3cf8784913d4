package rules

import (
	"github.com/mirrorlint/mirrorlint/internal/check"
	"github.com/mirrorlint/mirrorlint/internal/inputs"
)

// releaseUnmodelled: see docs/release-unmodelled.md; the check itself is in package inputs.
var releaseUnmodelled = inputRule(inputs.RuleReleaseUnmodelled, check.Info, check.OriginTool,
	"A ZTP site's or hand-written AgentClusterInstall's ClusterImageSet, or a HostedCluster's release image, names a release mirrorlint does not model; the cluster is checked as the nearest one it models, or as the release the run is given.")
